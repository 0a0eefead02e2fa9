import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openParquet, openSource } from "../../../src/ingest/sources/index.js";
import { collect, LAYOUT_SCHEMA, tempDir, vector, writeParquet, type ParquetRow } from "./fixtures.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

const f = Math.fround;

describe("openParquet", () => {
  it("reads dense, sparse and metadata rows in the documented import layout", async () => {
    const p = join(dir, "mixed.parquet");
    writeParquet(p, [
      { id: "a", values: [0.1, 0.2, 0.3], metadata: '{"genre":"drama","year":1999}' },
      { id: "b", values: [1, 2, 3], sparse_values: { indices: [1, 4000000000], values: [0.5, 0.25] } },
      { id: "c", sparse_values: { indices: [7], values: [2] } },
    ]);
    const src = await openParquet(p);
    try {
      expect(src.format).toBe("parquet");
      expect(await src.count()).toBe(3);
      expect(await collect(src.records())).toEqual([
        { position: 1, record: { id: "a", values: [f(0.1), f(0.2), f(0.3)], metadata: { genre: "drama", year: 1999 } } },
        { position: 2, record: { id: "b", values: [1, 2, 3], sparseValues: { indices: [1, 4000000000], values: [0.5, 0.25] } } },
        { position: 3, record: { id: "c", sparseValues: { indices: [7], values: [2] } } },
      ]);
    } finally {
      await src.close();
    }
  });

  it("accepts the wider types other writers use: list<double> values, int64 indices, a JSON-typed metadata column", async () => {
    const p = join(dir, "wide.parquet");
    const schema = LAYOUT_SCHEMA.map((e) => {
      if (e.name === "element" && e.type === "FLOAT") return { ...e, type: "DOUBLE" };
      if (e.name === "element" && e.type === "INT32") return { name: "element", type: "INT64", repetition_type: "REQUIRED" };
      if (e.name === "metadata") return { ...e, converted_type: "JSON" };
      return e;
    });
    writeParquet(p, [{ id: "w", values: [0.1, 0.7], sparse_values: { indices: [3n, 4294967295n] as never, values: [0.5, 0.25] }, metadata: '{"k":"v"}' }], { schema });
    const src = await openParquet(p);
    expect(await collect(src.records())).toEqual([
      { position: 1, record: { id: "w", values: [0.1, 0.7], sparseValues: { indices: [3, 4294967295], values: [0.5, 0.25] }, metadata: { k: "v" } } },
    ]);
    await src.close();
  });

  it("reports bad rows by row number and keeps reading", async () => {
    const p = join(dir, "bad.parquet");
    writeParquet(p, [
      { id: "ok1", values: [1] },
      { id: null, values: [1] },
      { id: "m1", values: [1], metadata: "{not json" },
      { id: "m2", values: [1], metadata: "[1,2]" },
      { id: "ok2", values: [2] },
    ]);
    const src = await openParquet(p);
    const items = await collect(src.records());
    await src.close();
    expect(items.filter((i) => i.error).map((i) => i.id)).toEqual([undefined, "m1", "m2"]);
    expect(items.map((i) => [i.position, i.record?.id ?? i.error])).toEqual([
      [1, "ok1"],
      [2, 'missing "id"'],
      [3, '"metadata" is not valid JSON at character 2: a field name in double quotes was expected'],
      [4, '"metadata" must be a JSON object, got a list'],
      [5, "ok2"],
    ]);
  });

  for (const offsetIndex of [true, false]) {
    it(`startAt skips whole row groups and starts inside one (offset index: ${offsetIndex})`, async () => {
      const p = join(dir, `groups-${offsetIndex}.parquet`);
      const rows: ParquetRow[] = Array.from({ length: 250 }, (_, i) => ({ id: `r${i + 1}`, values: vector(i, 8) }));
      writeParquet(p, rows, { rowGroupSize: 40, offsetIndex });
      const src = await openParquet(p);
      const all = await collect(src.records());
      expect(all.map((i) => i.position)).toEqual(rows.map((_, i) => i + 1));
      expect(all[199].record).toEqual({ id: "r200", values: vector(199, 8) });
      const tail = await collect(src.records(123));
      expect(tail.map((i) => i.record?.id)).toEqual(rows.slice(122).map((r) => r.id));
      expect(await collect(src.records(251))).toEqual([]);
      await src.close();
    });
  }

  it("decodes a row group with an offset index in small slices", async () => {
    const p = join(dir, "slices.parquet");
    const rows: ParquetRow[] = Array.from({ length: 300 }, (_, i) => ({ id: `s${i + 1}`, values: vector(i, 16) }));
    writeParquet(p, rows, { rowGroupSize: 300 });
    const src = await openParquet(p, { sliceBytes: 7 * 64 });
    expect((await collect(src.records())).map((i) => i.record)).toEqual(rows.map((r) => ({ id: r.id, values: r.values })));
    expect((await collect(src.records(290))).map((i) => i.position)).toEqual([290, 291, 292, 293, 294, 295, 296, 297, 298, 299, 300]);
    await src.close();
  });

  it("ignores columns other than the layout's, as the service's import does", async () => {
    const p = join(dir, "extra-ok.parquet");
    parquetWriteFile({
      filename: p,
      columnData: [
        { name: "id", data: ["x"], type: "STRING" },
        { name: "score", data: [1], type: "INT32" },
        { name: "values", data: [[0.5, 0.25]] },
      ],
    });
    const src = await openParquet(p);
    expect(await collect(src.records())).toEqual([{ position: 1, record: { id: "x", values: [0.5, 0.25] } }]);
    await src.close();
  });

  it("refuses a file without values or sparse_values, naming the documented layout", async () => {
    const p = join(dir, "extra.parquet");
    parquetWriteFile({
      filename: p,
      columnData: [
        { name: "id", data: ["x", "y"], type: "STRING" },
        { name: "score", data: [1, 2], type: "INT32" },
        { name: "metadata", data: ['{"a":1}', null], type: "STRING" },
      ],
    });
    await expect(openParquet(p)).rejects.toThrow(
      `Parquet file ${p} has columns [id, score, metadata]; expected the import layout: id (string), values (list<float>), sparse_values (struct {indices: list<uint32>, values: list<float>}, optional), metadata (JSON string, optional)`,
    );
  });

  it("reads GZIP-compressed files and names a codec it cannot read", async () => {
    const p = join(dir, "gzip.parquet");
    parquetWriteFile({
      filename: p,
      codec: "GZIP",
      compressors: { GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)) },
      columnData: [{ name: "id", data: ["g"], type: "STRING" }, { name: "values", data: [[0.5, 0.25]] }],
    });
    const src = await openParquet(p);
    expect(await collect(src.records())).toEqual([{ position: 1, record: { id: "g", values: [0.5, 0.25] } }]);
    await src.close();

    const z = join(dir, "zstd.parquet");
    parquetWriteFile({
      filename: z,
      codec: "ZSTD",
      compressors: { ZSTD: (input: Uint8Array) => input }, // the footer says ZSTD; the reader must refuse before decoding
      columnData: [{ name: "id", data: ["z"], type: "STRING" }, { name: "values", data: [[1]] }],
    });
    await expect(openParquet(z)).rejects.toThrow(
      `Parquet file ${z} is compressed with ZSTD, which this server cannot read; readable: uncompressed, SNAPPY, GZIP, BROTLI (e.g. pyarrow: pq.write_table(table, path, compression="snappy"))`,
    );
  });

  it("refuses a file that is not Parquet with a clear message", async () => {
    const p = join(dir, "fake.parquet");
    await writeFile(p, '{"id": "a", "values": [1]}\n');
    await expect(openParquet(p)).rejects.toThrow(`not a Parquet file: missing PAR1 magic (${p})`);
    const q = join(dir, "broken.parquet");
    await writeFile(q, Buffer.concat([Buffer.from("PAR1"), Buffer.alloc(64, 7), Buffer.from([8, 0, 0, 0]), Buffer.from("PAR1")]));
    await expect(openParquet(q)).rejects.toThrow(/^not a readable Parquet file: /);
  });
});

describe("openSource", () => {
  it("infers the format from the extension, or takes it as given", async () => {
    const j = join(dir, "a.ndjson");
    await writeFile(j, '{"id":"a","values":[1]}\n');
    const jsonl = await openSource(j);
    expect(jsonl.format).toBe("jsonl");
    await jsonl.close();
    const p = join(dir, "b.PARQUET");
    writeParquet(p, [{ id: "z", values: [1] }]);
    const src = await openSource(p);
    expect(src.format).toBe("parquet");
    await src.close();
    const t = join(dir, "c.txt");
    await writeFile(t, '{"id":"a","values":[1]}\n');
    await expect(openSource(t)).rejects.toThrow(
      `cannot tell the format of ${t} from its extension .txt: use .jsonl, .ndjson or .parquet, or pass format "jsonl" or "parquet"`,
    );
    const asJsonl = await openSource(t, "jsonl");
    expect((await collect(asJsonl.records())).length).toBe(1);
    await asJsonl.close();
    await expect(openSource(t, "parquet")).rejects.toThrow("not a Parquet file: missing PAR1 magic");
    await expect(openSource(p, "jsonl")).rejects.toThrow("is a Parquet file (it starts with PAR1), not JSONL");
  });
});
