// Text records: NDJSON bodies within both limits (96 records, 2,000,000 bytes), in input order, every line the
// record back; records too large for one body refused before anything is sent.
import { describe, expect, it } from "vitest";
import { checkTextRecords, oversizedTextRecords, planTextBatches, TEXT_BATCH_BYTES, TEXT_BATCH_RECORDS } from "../../src/ingest/text-records.js";

async function all<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}

describe("text records", () => {
  it("plans bodies of at most 96 records and 2,000,000 bytes whose lines are the records, _id first", async () => {
    const records = Array.from({ length: 500 }, (_, i) => ({ text: "x".repeat(i % 2 === 0 ? 50_000 : 10), id: `r${i}`, n: i }));
    const batches = await all(planTextBatches(records));
    expect(batches.every((b) => b.ids.length <= TEXT_BATCH_RECORDS && b.body.length <= TEXT_BATCH_BYTES)).toBe(true);
    expect(batches.some((b) => b.ids.length < TEXT_BATCH_RECORDS && b !== batches.at(-1))).toBe(true); // the byte limit split some
    const lines = batches.flatMap((b) => b.body.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l)));
    expect(lines).toEqual(records.map(({ id, ...rest }) => ({ _id: id, ...rest })));
    expect(batches.map((b) => b.firstPosition)).toEqual(batches.map((_, i) => batches.slice(0, i).reduce((n, b) => n + b.ids.length, 0)));
  });

  it("names every problem by position, id, field and rule", () => {
    const problems = checkTextRecords(
      [{ _id: "a", body: "t" }, { _id: "", body: "t" }, { _id: "c", id: "d", body: "t" }, { _id: "e", body: 5 }, { _id: "f", body: "t", when: null }],
      "body",
    );
    expect(problems.map((p) => `${p.position} ${p.id} ${p.field} ${p.rule}`)).toEqual([
      "1  _id is empty; ids are 1–512 characters",
      "2 c _id and id are both given and differ; give one of them",
      "3 e body must be a string (the text to embed), got number",
      "4 f when is null; leave the field out instead",
    ]);
    expect(oversizedTextRecords([{ _id: "big", body: "y".repeat(2_000_000) }])).toEqual([
      { position: 0, id: "big", field: "record", rule: "is 2000024 bytes as JSON; one request body may hold at most 2000000 bytes" },
    ]);
  });
});
