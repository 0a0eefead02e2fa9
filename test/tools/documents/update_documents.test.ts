// update_documents end to end: one document by id (set and remove; a changed text re-embedded for the meaning field),
// every document matching a filter (the count the service gives); misuse refused. Read back from the service.
import { beforeAll, describe, expect, test } from "vitest";
import { documentsApi, mcp, notesIndex, useDocumentsFixture } from "../fixtures/documents.js";
import { testVector } from "../../helpers/embeddings-server.js";
import { refusalOf } from "../../helpers/refusal.js";

useDocumentsFixture();

const doc = async (id: string) => (await documentsApi("notes", "journal", "fetch", { ids: [id], include_fields: ["*"] })).body.documents[id];

describe("update_documents", () => {
  beforeAll(() => notesIndex());

  test("by id: sets and removes fields, the rest stays; a new text gets a new meaning", async () => {
    const r = await mcp.call("update_documents", { index: "notes", namespace: "journal", id: "note-211", set: { text: "tulips in spring", status: "done" }, remove: ["topic"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "notes", namespace: "journal", by: "id" });
    expect(r.text).toBe('Document "note-211" in namespace "journal" of index "notes": set text, status; removed topic.');
    const after = await doc("note-211");
    expect({ text: after.text, status: after.status, topic: after.topic }).toEqual({ text: "tulips in spring", status: "done", topic: undefined });
    testVector("tulips in spring").forEach((x, i) => expect(after.meaning[i]).toBeCloseTo(x, 5));
    const found = await mcp.call("search_documents", { index: "notes", namespace: "journal", words: "tulips in spring", match: "phrase" });
    expect((found.structured as { hits: { id: string }[] }).hits.map((h) => h.id)).toEqual(["note-211"]);
  });

  test("by filter: every matching document, with the service's count", async () => {
    const r = await mcp.call("update_documents", { index: "notes", namespace: "journal", filter: { topic: "chess" }, set: { archived: true } });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "notes", namespace: "journal", by: "filter", matched: 30 });
    expect(r.text).toBe('30 documents matching the filter in namespace "journal" of index "notes": set archived.');
    const archived = await documentsApi("notes", "journal", "fetch", { filter: { archived: true }, limit: 100 });
    expect(Object.keys(archived.body.documents)).toHaveLength(30);
  });

  test("misuse is refused and nothing changes", async () => {
    const refused = async (args: Record<string, unknown>) => refusalOf((await mcp.call("update_documents", { index: "notes", namespace: "journal", ...args })).text);
    expect(await refused({ set: { a: 1 } })).toEqual({ problem: "Give id (one document) or filter (every matching document), one of them", untouched: "changed" });
    expect((await refused({ id: "note-001" })).problem).toBe("Say what to change: set and/or remove");
    expect((await refused({ id: "note-001", set: { a: 1 }, remove: ["a"] })).problem).toBe("a is both set and removed");
    expect((await refused({ id: "note-001", set: { meaning: [1] } })).problem).toBe("The meaning field is filled by the tools from text; change those fields instead");
    expect((await refused({ filter: { topic: "music" }, set: { text: "x" } })).problem).toBe(
      "Changing text by filter would leave their meaning stale: change those fields one document at a time (id)",
    );
    expect((await doc("note-001")).a).toBeUndefined();
  });
});
