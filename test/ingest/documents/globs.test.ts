// index_documents' include / exclude globs, read as .gitignore reads them, in time bounded by the glob and the path.
import { describe, expect, test } from "vitest";
import { compileGlob, compileGlobs, GlobError, MAX_ALTERNATIVES } from "../../../src/ingest/documents/globs.js";

const matching = (glob: string, paths: string[]) => paths.filter((p) => compileGlob(glob).matches(p));
const PATHS = ["a.md", "guides/setup.md", "guides/deep/linux.md", "drafts/idea.md", "notes/drafts/old.md", "notes/readme.txt", "drafts.md"];

describe("globs as .gitignore reads them", () => {
  test("a glob with a slash matches the path from the folder given; ** spans segments", () => {
    expect(matching("guides/**", PATHS)).toEqual(["guides/setup.md", "guides/deep/linux.md"]);
    expect(matching("guides/*.md", PATHS)).toEqual(["guides/setup.md"]);
    expect(matching("drafts/**", PATHS)).toEqual(["drafts/idea.md"]);
    expect(matching("/drafts", PATHS)).toEqual(["drafts/idea.md"]);
    expect(matching("**/drafts/**", PATHS)).toEqual(["drafts/idea.md", "notes/drafts/old.md"]);
    expect(matching("**/*.md", PATHS)).toEqual(PATHS.filter((p) => p.endsWith(".md")));
  });

  test("a glob without a slash matches any segment, a folder's covering what is under it", () => {
    expect(matching("*.md", PATHS)).toEqual(PATHS.filter((p) => p.endsWith(".md")));
    expect(matching("drafts", PATHS)).toEqual(["drafts/idea.md", "notes/drafts/old.md"]);
    expect(matching("drafts/", PATHS)).toEqual(["drafts/idea.md", "notes/drafts/old.md"]);
    expect(matching("drafts.md/", ["drafts.md"])).toEqual([]); // a trailing "/" matches folders only
    expect(matching("guides", PATHS)).toEqual(["guides/setup.md", "guides/deep/linux.md"]);
  });

  test("? [class] {alternatives} and escapes", () => {
    expect(matching("?.md", PATHS)).toEqual(["a.md"]);
    expect(matching("[a-c].md", ["a.md", "d.md"])).toEqual(["a.md"]);
    expect(matching("[!a-c].md", ["a.md", "d.md"])).toEqual(["d.md"]);
    expect(matching("*.{md,txt}", ["x.md", "x.txt", "x.html"])).toEqual(["x.md", "x.txt"]);
    expect(matching("\\*.md", ["*.md", "a.md"])).toEqual(["*.md"]);
    expect(matching("*", [".hidden.md"])).toEqual([".hidden.md"]);
  });

  test("a glob that cannot be used is refused, naming it", () => {
    expect(() => compileGlobs("exclude", ["*.md", "!drafts/**"])).toThrow('exclude[1] "!drafts/**" starts with "!": a glob here is never negated; put it in include without the "!" instead.');
    const many = "{a,b}".repeat(7);
    expect(() => compileGlobs("include", [many])).toThrow(new GlobError(`include[0] "${many}" cannot be used: it expands to more than ${MAX_ALTERNATIVES} alternatives.`));
  });

  test("a glob that makes a backtracking matcher freeze finishes in milliseconds", () => {
    const name = `${"a".repeat(45)}y`; // 46 characters, no "x"
    const started = performance.now();
    expect(compileGlob("?*?*?*?*?*?*?*?*?*?*?*x").matches(name)).toBe(false);
    expect(compileGlob("**/?*?*?*?*?*?*?*?*?*?*?*x/**/a*a*a*a*a*a*a*a*b").matches(`${"a/".repeat(200)}${name}`)).toBe(false);
    expect(compileGlob(`${"*a".repeat(250)}b`).matches("a".repeat(4000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
