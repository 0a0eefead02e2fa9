import { describe, expect, it } from "vitest";
import type { IndexModel } from "../../src/api/records.js";
import { checkRecords, createRecordChecker, type UpsertRecord } from "../../src/ingest/check.js";

const dense: IndexModel = {
  name: "docs",
  dimension: 4,
  metric: "cosine",
  host: "127.0.0.1:1",
  spec: { serverless: { cloud: "aws", region: "us-east-1" } },
  status: { ready: true, state: "Ready" },
  vector_type: "dense",
};
const sparse: IndexModel = { ...dense, name: "kw", dimension: undefined, metric: "dotproduct", vector_type: "sparse" };

const v = (n = 4) => Array.from({ length: n }, (_, i) => i / 10);
const rules = (records: unknown[], index = dense) =>
  checkRecords(records as UpsertRecord[], index).map((p) => `${p.position} ${p.id} ${p.field}: ${p.rule}`);

describe("checkRecords", () => {
  it("accepts good dense, hybrid and sparse records", () => {
    const hybrid = { ...dense, metric: "dotproduct" };
    expect(
      rules(
        [
          { id: "a", values: v() },
          { id: "b", values: v(), sparseValues: { indices: [1, 4294967295], values: [0.5, 1] }, metadata: { genre: "x", n: 1, ok: true, tags: ["a"] } },
          { id: "c", values: v(), sparseValues: { indices: [], values: [] } },
        ],
        hybrid,
      ),
    ).toEqual([]);
    expect(rules([{ id: "s", sparseValues: { indices: [7], values: [1] } }, { id: "t", values: [], sparseValues: { indices: [1], values: [2] } }], sparse)).toEqual([]);
  });

  it("ids: 1–512 characters, no NUL, no duplicates", () => {
    expect(
      rules([
        { id: "", values: v() },
        { id: "x".repeat(513), values: v() },
        { id: "😀".repeat(512), values: v() },
        { id: "a\u0000b", values: v() },
        { id: "dup", values: v() },
        { id: "dup", values: v() },
        { values: v() },
      ]),
    ).toEqual([
      "0  id: is empty; ids are 1–512 characters",
      `1 ${"x".repeat(513)} id: is 513 characters long; ids are at most 512 characters`,
      "3 a\u0000b id: contains a NUL character, which ids may not contain",
      "5 dup id: is a duplicate of position 4; each id may appear once per call",
      "6  id: is missing or not a string",
    ]);
  });

  it("dense values: present, the index's dimension, finite, within float32", () => {
    expect(
      rules([
        { id: "short", values: v(3) },
        { id: "none" },
        { id: "nan", values: [0, Number.NaN, 0, Number.POSITIVE_INFINITY] },
        { id: "str", values: [0, 0, "1", 0] },
        { id: "big", values: [0, 0, 0, 1e39] },
        { id: "flt-max", values: [3.4028235e38, -3.4028235e38, 3.4028234663852886e38, 0] }, // round to ±FLT_MAX: valid
        { id: "past-max", values: [0, 3.40282357e38, 0, 0] }, // rounds to Infinity
        { id: "sparse-only", sparseValues: { indices: [1], values: [1] } },
      ]),
    ).toEqual([
      "0 short values: has 3 values but index 'docs' has dimension 4",
      "1 none values: is missing; index 'docs' is dense and needs 4 values per record",
      "2 nan values[1]: is NaN; every value must be a finite number",
      '3 str values[2]: is the string "1"; every value must be a finite number',
      "4 big values[3]: is 1e+39, outside the 32-bit float range (±3.4e38)",
      "6 past-max values[1]: is 3.40282357e+38, outside the 32-bit float range (±3.4e38)",
      "7 sparse-only values: is missing; index 'docs' is dense and needs 4 values per record",
      "7 sparse-only sparseValues: are given but index 'docs' uses the cosine metric; sparse values need the dotproduct metric",
    ]);
  });

  it("sparse values: uint32 indices, equal lengths, ≤ 2048, no repeats", () => {
    const many = Array.from({ length: 2049 }, (_, i) => i);
    expect(
      rules(
        [
          { id: "len", sparseValues: { indices: [1, 2], values: [1] } },
          { id: "neg", sparseValues: { indices: [0, 1, 2, -1], values: [1, 1, 1, 1] } },
          { id: "frac", sparseValues: { indices: [1.5], values: [1] } },
          { id: "huge", sparseValues: { indices: [4294967296], values: [1] } },
          { id: "many", sparseValues: { indices: many, values: many } },
          { id: "rep", sparseValues: { indices: [3, 3], values: [1, 2] } },
          { id: "dense", values: [1, 2] },
          { id: "empty", sparseValues: { indices: [], values: [] } },
          { id: "inf", sparseValues: { indices: [1], values: [Number.NEGATIVE_INFINITY] } },
        ],
        sparse,
      ),
    ).toEqual([
      "0 len sparseValues: has 2 indices but 1 values; they must be the same length",
      "1 neg sparseValues.indices[3]: is -1; indices must be whole numbers from 0 to 4294967295",
      "2 frac sparseValues.indices[0]: is 1.5; indices must be whole numbers from 0 to 4294967295",
      "3 huge sparseValues.indices[0]: is 4294967296; indices must be whole numbers from 0 to 4294967295",
      "4 many sparseValues: has 2049 non-zero values; at most 2048 are allowed",
      "5 rep sparseValues.indices[1]: repeats index 3; each index may appear once",
      "6 dense values: has 2 values but index 'kw' is sparse; give only sparseValues",
      "6 dense sparseValues: is missing; index 'kw' is sparse and needs sparseValues {indices, values}",
      "7 empty sparseValues: is empty; a sparse index needs at least one value",
      "8 inf sparseValues.values[0]: is -Infinity; every value must be a finite number",
    ]);
  });

  it("sparse values on a dense index need the dotproduct metric", () => {
    expect(rules([{ id: "h", values: v(), sparseValues: { indices: [1], values: [1] } }, { id: "e", values: v(), sparseValues: { indices: [], values: [] } }])).toEqual([
      "0 h sparseValues: are given but index 'docs' uses the cosine metric; sparse values need the dotproduct metric",
    ]);
  });

  it("metadata: flat values, no null, no nesting, ≤ 40960 bytes", () => {
    expect(
      rules([
        { id: "null", values: v(), metadata: { a: null } },
        { id: "nested", values: v(), metadata: { a: { b: 1 } } },
        { id: "mixed", values: v(), metadata: { tags: ["a", 1] } },
        { id: "inf", values: v(), metadata: { n: Number.POSITIVE_INFINITY } },
        { id: "list", values: v(), metadata: ["a"] },
        { id: "big", values: v(), metadata: { text: "é".repeat(20_480) } },
        { id: "ok", values: v(), metadata: { text: "x".repeat(40_949) } },
      ]),
    ).toEqual([
      "0 null metadata.a: is null; leave the field out instead",
      "1 nested metadata.a: is an object; values must be a string, number, boolean or list of strings (no nested objects)",
      "2 mixed metadata.tags: is a list with non-string items; lists may hold only strings",
      "3 inf metadata.n: is Infinity; numbers must be finite",
      "4 list metadata: must be an object of field names to values",
      "5 big metadata: is 40971 bytes as JSON; at most 40960 bytes per record are allowed",
    ]);
  });

  it("names the index's dimension the way a model can act on", () => {
    const idx = { ...dense, dimension: 1536 };
    const [p] = checkRecords([{ id: "a", values: new Array(768).fill(0.1) }], idx);
    expect(p).toEqual({ position: 0, id: "a", field: "values", rule: "has 768 values but index 'docs' has dimension 1536" });
  });

  it("a streaming checker remembers ids across calls", () => {
    const c = createRecordChecker(dense);
    expect(c.check({ id: "a", values: v() }, 0)).toEqual([]);
    expect(c.check({ id: "a", values: v() }, 9)).toEqual([
      { position: 9, id: "a", field: "id", rule: "is a duplicate of position 0; each id may appear once per call" },
    ]);
  });
});
