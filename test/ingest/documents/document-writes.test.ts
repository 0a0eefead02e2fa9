// The order of a group's writes (first chunks that would claim a stale version go first, first chunks that name the
// new one go last) and the account of what did not land when a write fails or the call is cancelled.
import { describe, expect, test } from "vitest";
import { chunkId, documentRecords, type DocumentRecord } from "../../../src/ingest/documents/document-records.js";
import { DocumentWriter, type FileWrites } from "../../../src/ingest/documents/document-writes.js";
import { fakeDataPlane, type FakeDataPlane } from "./fake-data-plane.js";

const records = (name: string, n: number): DocumentRecord[] =>
  documentRecords(`notes/${name}.md`, { size: 100, mtimeMs: 0 }, 10_000, Array.from({ length: n }, (_, i) => ({ text: `${name} ${i}`, headingPath: "" })), "1:200/0");

function writer(fake: FakeDataPlane, stopSending = new AbortController().signal) {
  return new DocumentWriter(
    { service: fake.service, index: fake.index, field: "text", namespace: "", concurrency: 1, stopSending, signal: new AbortController().signal },
    { upserted: 0, notLanded: [], filesFailed: new Set() },
  );
}

/** a: its first chunk's text changes (deleted first); b: unchanged first chunk (marked out of step, then stamped); c: new. */
function group(): FileWrites[] {
  const [a1, ...aRest] = records("a", 3);
  const [b1, ...bRest] = records("b", 2);
  const [c1, ...cRest] = records("c", 2);
  const { chunks, fileBytes, modifiedMs, chunking, fileHash } = b1.metadata;
  return [
    { file: 0, others: aRest, first: a1, before: { id: a1.id, how: "delete" } },
    { file: 1, others: bRest, stamp: { id: b1.id, fields: { fileHash, chunks: chunks!, fileBytes: fileBytes!, modifiedMs: modifiedMs!, chunking: chunking! } }, before: { id: b1.id, how: "invalidate" } },
    { file: 2, others: cRest, first: c1 },
  ];
}

describe("DocumentWriter", () => {
  test("stale first chunks go first, then the other chunks, then the first chunks, then the stamps", async () => {
    const fake = fakeDataPlane({ [chunkId("notes/a.md#", 1)]: { fileHash: "old" }, [chunkId("notes/b.md#", 1)]: { fileHash: "old", text: "b 0" } });
    const w = writer(fake);
    await w.write(group());
    expect(fake.ops.map((o) => `${o.kind} ${o.ids.join(",")}`)).toEqual([
      "delete /notes/a.md#1",
      "setMetadata /notes/b.md#1",
      "upsert notes/a.md#2,notes/a.md#3,notes/b.md#2,notes/c.md#2",
      "upsert /notes/a.md#1,/notes/c.md#1",
      "setMetadata /notes/b.md#1",
    ]);
    expect(w.account).toEqual({ upserted: 6, notLanded: [], filesFailed: new Set() });
    expect(fake.records.get("/notes/b.md#1")).toMatchObject({ fileHash: records("b", 2)[0].metadata.fileHash, chunks: 2, text: "b 0" });
  });

  test("when the other chunks fail, no first chunk is written or stamped, and every id is accounted for once", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": { fileHash: "old" }, "/notes/b.md#1": { fileHash: "old" } });
    fake.fail = (op) => (op.kind === "upsert" ? new Error("HTTP 503 Service unavailable") : undefined);
    const w = writer(fake);
    await w.write(group());
    expect(fake.ops.map((o) => o.kind)).toEqual(["delete", "setMetadata", "upsert"]);
    expect(w.account.stopped).toBe("a write failed");
    expect(w.account.notLanded).toEqual([
      { ids: ["notes/a.md#2", "notes/a.md#3", "notes/b.md#2", "notes/c.md#2"], message: "HTTP 503 Service unavailable" },
      { ids: ["/notes/a.md#1"], message: "not sent: the file's other chunks did not all land" },
      { ids: ["/notes/b.md#1"], message: "not sent: the file's other chunks did not all land" },
      { ids: ["/notes/c.md#1"], message: "not sent: the file's other chunks did not all land" },
    ]);
    // b's first chunk no longer claims a version: the next run compares its file chunk by chunk
    expect(fake.records.get("/notes/b.md#1")?.fileHash).toBe("");
    // a later group is not sent at all
    await w.write([{ file: 3, others: [], first: records("d", 1)[0] }]);
    expect(fake.ops).toHaveLength(3);
    expect(w.account.notLanded.at(-1)).toEqual({ ids: ["/notes/d.md#1"], message: "not sent: the run stopped after a failed write" });
  });

  test("after a cancel nothing is sent and each write is named as not sent", async () => {
    const fake = fakeDataPlane();
    const cancel = new AbortController();
    cancel.abort();
    const w = writer(fake, cancel.signal);
    await w.write(group());
    expect(fake.ops).toEqual([]);
    expect(w.account.stopped).toBe("cancelled");
    expect(w.account.notLanded.flatMap((f) => f.ids)).toHaveLength(3 + 2 + 2);
    expect(new Set(w.account.notLanded.map((f) => f.message))).toEqual(new Set(["not sent: the call was cancelled"]));
    expect(w.account.filesFailed).toEqual(new Set([0, 1, 2]));
  });
});
