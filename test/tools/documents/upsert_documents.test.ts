// upsert_documents end to end: the built server over stdio against the local service. What it writes is read back
// from the service (2026-07): the documents as given, the meaning field embedded from the text, requests split at
// 1000 documents; bad documents are refused before anything is written.
import { beforeAll, describe, expect, test } from "vitest";
import { documentsApi, embedder, mcp, notes, notesIndex, useDocumentsFixture } from "../fixtures/documents.js";
import { testVector } from "../../helpers/embeddings-server.js";
import { refusalOf } from "../../helpers/refusal.js";

useDocumentsFixture();

describe("upsert_documents", () => {
  beforeAll(async () => {
    const r = await mcp.call("create_documents_index", { name: "plain", textFields: ["title", "body"] });
    if (r.isError) throw new Error(r.text);
  });

  test("writes documents with their text and metadata; the same id overwrites", async () => {
    const docs = [
      { id: "a", title: "Tide tables", body: "High water at dawn", year: 2024, tags: ["sea"] },
      { _id: "b", title: "Compost", body: "Turn the heap weekly" },
    ];
    const r = await mcp.call("upsert_documents", { index: "plain", namespace: "n1", documents: docs });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "plain", namespace: "n1", written: 2, failed: 0, failedIds: [], embedded: false, note: expect.stringMatching(/^Next step: search_documents/) });
    expect(r.text).toBe(
      'Wrote 2 of 2 documents to namespace "n1" of index "plain".\n\n| index | namespace | written | failed | requests |\n| --- | --- | --- | --- | --- |\n| plain | n1 | 2 | 0 | 1 |\n\n' +
        "Next step: search_documents finds them (a write is searchable within seconds on the hosted service).",
    );
    const fetched = await documentsApi("plain", "n1", "fetch", { ids: ["a", "b"] });
    expect(fetched.body.documents).toEqual({
      a: { _id: "a", title: "Tide tables", body: "High water at dawn", year: 2024, tags: ["sea"] },
      b: { _id: "b", title: "Compost", body: "Turn the heap weekly" },
    });
    await mcp.call("upsert_documents", { index: "plain", namespace: "n1", documents: [{ id: "a", title: "Tide tables", body: "Low water at noon" }] });
    expect((await documentsApi("plain", "n1", "fetch", { ids: ["a"] })).body.documents.a).toEqual({ _id: "a", title: "Tide tables", body: "Low water at noon" });
  });

  test("more than 1000 documents go in several requests, all landing", async () => {
    const many = Array.from({ length: 1203 }, (_, i) => ({ id: `m-${String(i).padStart(4, "0")}`, title: `note ${i}`, body: "short" }));
    const r = await mcp.call("upsert_documents", { index: "plain", namespace: "many", documents: many }, { progress: true });
    expect(r.structured).toMatchObject({ written: 1203, failed: 0 });
    expect(r.text).toContain("| plain | many | 1203 | 0 | 2 |");
    expect(r.progress.at(-1)).toMatchObject({ progress: 2, total: 2, message: "1203 of 1203 documents written" });
    const listed = await documentsApi("plain", "many", "list", { prefix: "m-12" });
    expect(listed.body.documents.map((d: { _id: string }) => d._id)).toEqual(["m-1200", "m-1201", "m-1202"]);
  });

  test("with a meaning field the text is embedded by the index's model and written with it", async () => {
    const before = embedder.requests.filter((q) => q.path.endsWith("/embeddings")).length;
    await notesIndex();
    const calls = embedder.requests.filter((q) => q.path.endsWith("/embeddings")).slice(before);
    expect(calls.map((c) => c.inputs).reduce((a, b) => a! + b!, 0)).toBeGreaterThanOrEqual(300);
    const fetched = await documentsApi("notes", "journal", "fetch", { ids: ["note-211"], include_fields: ["*"] });
    const doc = fetched.body.documents["note-211"];
    expect(doc.text).toBe(notes[211].text);
    expect(doc.meaning).toHaveLength(16);
    testVector(notes[211].text).forEach((x, i) => expect(doc.meaning[i]).toBeCloseTo(x, 5));
  });

  test("bad documents are refused and nothing is written", async () => {
    const refused = async (documents: unknown[], index = "plain") => refusalOf((await mcp.call("upsert_documents", { index, namespace: "bad", documents })).text);
    expect(await refused([{ title: "no id" }])).toEqual({ problem: "documents[0].id must be 1–512 ASCII characters (got none)", untouched: "written" });
    expect((await refused([{ id: "ok", title: "x" }, { id: "é", title: "y" }])).problem).toBe('documents[1].id must be 1–512 ASCII characters (got "é")');
    expect((await refused([{ id: "a", _id: "b", title: "x" }])).problem).toBe("documents[0] has both id and _id, with different values");
    await notesIndex();
    expect((await refused([{ id: "x", text: "hello", meaning: [1, 2] }], "notes")).problem).toBe("The meaning field is filled by the tools from text: leave it out of the documents");
    expect((await documentsApi("plain", "bad", "list", {})).body.documents).toEqual([]);
  });

  test("an index of another kind is refused with the tools to use instead", async () => {
    const made = await mcp.call("create_index", { name: "vectors-only", dimension: 2 });
    expect(made.isError, made.text).toBe(false);
    expect(refusalOf((await mcp.call("upsert_documents", { index: "vectors-only", documents: [{ id: "a", text: "x" }] })).text)).toEqual({
      problem: 'Index "vectors-only" is not a documents index (it has no schema of full-text or vector fields), so the documents tools cannot use it',
      untouched: "written",
      next: "use the records or vectors tools with it (describe_index shows its kind), or make a documents index with create_documents_index.",
    });
  });
});
