// What a run of index_documents covers in a folder: the globs, the folders it does not enter, front matter, and the
// records it may prune (its own chunks under the folder's own ids, never another tool's records or another root's).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { syncDocuments } from "../../../src/ingest/documents/sync-documents.js";
import { fakeDataPlane, type FakeDataPlane } from "./fake-data-plane.js";

let base: string;
let fake: FakeDataPlane;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(base, path)), { recursive: true });
  writeFileSync(join(base, path), text);
}

const run = (roots: string[], paths: string[], globs: { include?: string[]; exclude?: string[] } = {}) =>
  syncDocuments({
    service: fake.service, index: fake.index, field: "text", namespace: "", paths, roots: roots.map((r) => join(base, r)), ...globs,
    sizes: { size: 200, overlap: 0 }, dryRun: false, prune: true, concurrency: 1, signal: new AbortController().signal, progress: () => {},
  });
const sources = () => [...new Set([...fake.records.values()].map((m) => m.source))].sort();

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "vecdb-folder-scope-"));
  fake = fakeDataPlane();
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("the files a run covers", () => {
  beforeEach(() => {
    for (const path of ["a.md", "guides/setup.md", "guides/deep/linux.md", "drafts/idea.md", ".git/HEAD.md", "node_modules/pkg/README.md", ".github/CONTRIBUTING.md"]) {
      write(`notes/${path}`, `# ${path}\n\nAbout ${path}.`);
    }
  });

  test("exclude drafts/** leaves the drafts out and counts them; hidden and package folders are not entered, and listed", async () => {
    const out = await run(["notes"], ["."], { exclude: ["drafts/**"] });
    expect(sources()).toEqual(["notes/a.md", "notes/guides/deep/linux.md", "notes/guides/setup.md"]);
    expect({ excluded: out.excluded, notIncluded: out.notIncluded }).toEqual({ excluded: 1, notIncluded: 0 });
    expect(out.skippedFolders).toEqual([
      { path: join(base, "notes", ".git"), reason: "a hidden folder" },
      { path: join(base, "notes", ".github"), reason: "a hidden folder" },
      { path: join(base, "notes", "node_modules"), reason: "a folder of installed packages" },
    ]);
  });

  test("include guides/** finds the guides and counts the rest; an include that names a hidden folder enters it", async () => {
    const out = await run(["notes"], ["."], { include: ["guides/**"] });
    expect(sources()).toEqual(["notes/guides/deep/linux.md", "notes/guides/setup.md"]);
    expect(out.notIncluded).toBe(2);
    const dotted = await run(["notes"], ["."], { include: [".github/**"] });
    expect(dotted.skippedFolders.map((f) => f.path)).toEqual([join(base, "notes", ".git"), join(base, "notes", "node_modules")]);
    expect(sources()).toEqual(["notes/.github/CONTRIBUTING.md", "notes/guides/deep/linux.md", "notes/guides/setup.md"]);
  });
});

test("YAML front matter is metadata of every chunk of the file, not a chunk of its own", async () => {
  write("notes/trip.md", "---\ntitle: Trip\ntags: [travel, 2024]\nsource: blog\ndraft: false\n---\n# Plan\n\nPack light.\n\n## Day two\n\nSee the harbour.\n");
  await run(["notes"], ["."]);
  const records = [...fake.records.entries()].sort(([a], [b]) => a.localeCompare(b));
  expect(records.map(([id, m]) => [id, m.text])).toEqual([
    ["/notes/trip.md#1", "# Plan\n\nPack light."],
    ["notes/trip.md#2", "## Day two\n\nSee the harbour."],
  ]);
  for (const [, m] of records) {
    expect(m).toMatchObject({ title: "Trip", tags: ["travel", "2024"], draft: false, "frontMatter.source": "blog", source: "notes/trip.md" });
  }
});

describe("pruning", () => {
  test("a whole root's run deletes only chunks it wrote, never records another tool wrote under the root", async () => {
    write("notes/a.md", "# A\n\nText.");
    write("notes/b.md", "# B\n\nText.");
    fake.records.set("ticket#12", { text: "printer on fire" });
    fake.records.set("notes/invoice#2024", { text: "an invoice", amount: 12 });
    await run(["notes"], ["."]);
    rmSync(join(base, "notes", "b.md"));
    const out = await run(["notes"], ["."]);
    expect(out.pruned).toBe(1);
    expect([...fake.records.keys()].sort()).toEqual(["/notes/a.md#1", "notes/invoice#2024", "ticket#12"]);
  });

  test("two roots that both hold README.md keep two records, and a run over one prunes nothing of the other", async () => {
    write("alpha/README.md", "# Alpha\n\nFirst root.");
    write("beta/README.md", "# Beta\n\nSecond root.");
    write("one/notes/README.md", "# One\n\nSame name.");
    write("two/notes/README.md", "# Two\n\nSame name.");
    const roots = ["alpha", "beta", "one/notes", "two/notes"];
    for (const root of roots) await run(roots, [join(base, root)]);
    const ids = [...fake.records.keys()].sort();
    expect(ids.slice(0, 2)).toEqual(["/alpha/README.md#1", "/beta/README.md#1"]);
    expect(ids.slice(2)).toHaveLength(2);
    expect(ids.slice(2).every((id) => /^\/notes~[0-9a-f]{8}\/README\.md#1$/.test(id))).toBe(true);
    const again = await run(roots, [join(base, "alpha")]);
    expect(again.pruned).toBe(0);
    expect(fake.records.size).toBe(4);
  });
});
