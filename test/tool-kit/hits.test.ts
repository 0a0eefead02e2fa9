import { expect, test } from "vitest";
import { hitsColumns } from "../../src/tool-kit/text/hits.js";

const chunk = { id: "/a.md#1", score: 0.5, fields: { source: "a.md", chunk: 1, modified: 1764150000, fileHash: "f".repeat(32), contentHash: "c".repeat(32), headingPath: "A", body: "The text." } };

test("text first, then the user's fields; index_documents' bookkeeping left out", () => {
  const { headers, cells } = hitsColumns([chunk], { textFields: ["body"] });
  expect(headers).toEqual(["id", "score", "body", "source", "headingPath"]);
  expect(cells(chunk)).toEqual(["/a.md#1", "0.5000", "The text.", "a.md", "A"]);
});

test("a user's own field named like bookkeeping stays when the record is no document chunk", () => {
  const mine = { id: "n1", score: 1, fields: { text: "note", modified: "yesterday", chunk: "intro" } };
  expect(hitsColumns([mine], { textFields: ["text"] }).headers).toEqual(["id", "score", "text", "modified", "chunk"]);
});

test("fields asked for by name are shown, bookkeeping too, the text first", () => {
  expect(hitsColumns([chunk], { textFields: ["body"], only: ["contentHash", "body"] }).headers).toEqual(["id", "score", "body", "contentHash"]);
});

test("several indexes: index (and namespace, when one is not the default) beside the id; past six fields one JSON column", () => {
  const wide = { id: "x", score: 2, index: "b", namespace: "ns", fields: Object.fromEntries([["text", "t"], ...Array.from({ length: 8 }, (_, i) => [`k${i}`, i])]) };
  const { headers, cells } = hitsColumns([wide], { textFields: ["text"], withIndex: true });
  expect(headers).toEqual(["id", "index", "namespace", "score", "text", "k0", "k1", "k2", "k3", "k4", "k5", "other fields"]);
  expect(cells(wide).at(-1)).toBe('{"k6":6,"k7":7}');
});
