// A Markdown file's front matter: taken out of the text as fields, or left in the text when it is not a YAML mapping.
import { describe, expect, test } from "vitest";
import { frontMatterMetadata, splitFrontMatter } from "../../../src/ingest/documents/front-matter.js";

describe("splitFrontMatter", () => {
  test("a YAML mapping between --- lines is taken out as fields", () => {
    expect(splitFrontMatter("---\ntitle: Trip\ntags: [a, b]\n---\n# Plan\n")).toEqual({ body: "# Plan\n", fields: { title: "Trip", tags: ["a", "b"] } });
    expect(splitFrontMatter("---\r\ntitle: T\r\n...\r\nText")).toEqual({ body: "Text", fields: { title: "T" } });
  });

  test("a block that is not a YAML mapping, or never closes, stays in the text", () => {
    for (const text of ["---\n- a list\n---\nText", "---\ntitle: [unclosed\n---\nText", "---\ntitle: T\nno end", "Text\n---\ntitle: T\n---\n"]) {
      expect(splitFrontMatter(text)).toEqual({ body: text });
    }
  });
});

test("frontMatterMetadata keeps the shapes the service stores and renames this tool's own keys", () => {
  expect(frontMatterMetadata({ title: "T", n: 3, ok: true, list: [1, "x"], nested: { a: 1 }, empty: null, chunk: 9 }, new Set(["chunk"]))).toEqual({
    title: "T", n: 3, ok: true, list: ["1", "x"], nested: '{"a":1}', "frontMatter.chunk": 9,
  });
});
