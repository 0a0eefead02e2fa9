import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openJsonl } from "../../../src/ingest/sources/index.js";
import { collect, tempDir } from "./fixtures.js";
import { closedAfterEach } from "../../helpers/open-files.js";

const closing = closedAfterEach();

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

async function file(name: string, text: string | Buffer): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, text);
  return p;
}

describe("openJsonl", () => {
  it("reads dense, sparse and metadata records with their line numbers, skipping blank lines", async () => {
    const p = await file(
      "ok.jsonl",
      [
        JSON.stringify({ id: "a", values: [0.1, 0.2, 0.3] }),
        "",
        JSON.stringify({ id: "b", values: [1, 2, 3], metadata: { genre: "drama", year: 1999, tags: ["x"] } }),
        "   ",
        JSON.stringify({ id: "c", sparseValues: { indices: [1, 4000000000], values: [0.5, 0.25] } }),
        JSON.stringify({ id: "d", values: [1, 1, 1], sparse_values: { indices: [7], values: [2] } }),
      ].join("\n") + "\n",
    );
    const src = closing(await openJsonl(p));
    expect(await src.count()).toBe(4);
    expect(await collect(src.records())).toEqual([
      // dense values come as the 32-bit floats the service stores (sources/json-number.ts)
      { position: 1, record: { id: "a", values: [0.1, 0.2, 0.3].map(Math.fround) } },
      { position: 3, record: { id: "b", values: [1, 2, 3], metadata: { genre: "drama", year: 1999, tags: ["x"] } } },
      { position: 5, record: { id: "c", sparseValues: { indices: [1, 4000000000], values: [0.5, 0.25] } } },
      { position: 6, record: { id: "d", values: [1, 1, 1], sparseValues: { indices: [7], values: [2] } } },
    ]);
  });

  it("reports each bad line by number and reason, and keeps reading", async () => {
    const p = await file(
      "bad.jsonl",
      [
        '{"id": "ok1", "values": [1]}',
        '{"id": "x", "values": [1, 2',
        "[1, 2, 3]",
        '{"values": [1]}',
        '{"id": 5, "values": [1]}',
        '{"id": "v", "values": [1, "2"]}',
        '{"id": "w", "values": [1, null]}',
        '{"id": "m", "values": [1], "metadata": [1]}',
        '{"id": "s", "sparseValues": {"indices": [1]}}',
        '{"id": "t", "vector": [1]}',
        '"just a string"',
        '{"id": "ok2", "values": [2]}',
      ].join("\r\n"),
    );
    const items = await collect(closing(await openJsonl(p)).records());
    expect(items.filter((i) => i.error).map((i) => i.id)).toEqual([undefined, undefined, undefined, undefined, "v", "w", "m", "s", "t", undefined]);
    expect(items.map((i) => [i.position, i.record?.id ?? i.error])).toEqual([
      [1, "ok1"],
      [2, expect.stringMatching(/^not valid JSON at column \d+: /)],
      [3, "a record must be a JSON object, got an array"],
      [4, 'missing "id"'],
      [5, '"id" must be a string, got a number'],
      [6, '"values[1]" must be a finite number, got a string'],
      [7, '"values[1]" must be a finite number, got null'],
      [8, '"metadata" must be an object, got an array'],
      [9, 'missing "sparseValues.values"'],
      [10, 'unknown field "vector" (allowed: id, values, valuesBase64, sparseValues, metadata)'],
      [11, "a record must be a JSON object, got a string"],
      [12, "ok2"],
    ]);
  });

  it("startAt skips to that line number; a last line without newline is read", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: `r${i + 1}`, values: [i] }));
    const p = await file("start.jsonl", lines.join("\n"));
    const src = closing(await openJsonl(p));
    expect((await collect(src.records(7))).map((i) => [i.position, i.record?.id])).toEqual([
      [7, "r7"], [8, "r8"], [9, "r9"], [10, "r10"],
    ]);
    expect(await collect(src.records(11))).toEqual([]);
    expect((await collect(src.records(1))).length).toBe(10);
  });

  it("reads lines that span many read chunks (a 768-dim vector) and strips a byte-order mark", async () => {
    const values = Array.from({ length: 768 }, (_, i) => Math.fround(i / 1000 - 0.37));
    const p = await file("long.jsonl", "\uFEFF" + JSON.stringify({ id: "long", values }) + "\n" + JSON.stringify({ id: "next", values }));
    const items = await collect(closing(await openJsonl(p)).records());
    expect(items).toEqual([
      { position: 1, record: { id: "long", values } },
      { position: 2, record: { id: "next", values } },
    ]);
  });

  it("reports a line longer than the limit without buffering it", async () => {
    const big = JSON.stringify({ id: "big", values: Array.from({ length: 5000 }, () => 0.123456) });
    const p = await file("huge.jsonl", `{"id":"a","values":[1]}\n${big}\n{"id":"b","values":[2]}\n`);
    const items = await collect(closing(await openJsonl(p, { maxLineBytes: 1000 })).records());
    expect(items).toEqual([
      { position: 1, record: { id: "a", values: [1] } },
      { position: 2, error: `line is ${big.length} bytes, longer than the 1000-byte limit for one record` },
      { position: 3, record: { id: "b", values: [2] } },
    ]);
  });

  it("refuses a Parquet or binary file claimed to be JSONL, and a directory", async () => {
    const par = await file("fake.jsonl", Buffer.concat([Buffer.from("PAR1"), Buffer.alloc(20), Buffer.from("PAR1")]));
    await expect(openJsonl(par)).rejects.toThrow(`${par} is a Parquet file (it starts with PAR1), not JSONL: use format "parquet"`);
    const bin = await file("bin.jsonl", Buffer.from([0x7b, 0, 1, 2]));
    await expect(openJsonl(bin)).rejects.toThrow(`${bin} is not a JSONL text file: it contains NUL bytes in its first 4 bytes`);
    await expect(openJsonl(dir)).rejects.toThrow(`not a file: ${dir}`);
  });
});
