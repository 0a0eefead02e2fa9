// Records with valuesBase64: decoded into float32, checked with the same rules and messages as numbers, and sent as
// the very same request bodies as the numbers they encode.
import { describe, expect, it } from "vitest";
import type { IndexModel } from "../../src/api/records.js";
import { planBatches } from "../../src/ingest/batches.js";
import { checkRecords } from "../../src/ingest/check.js";
import { decodeCompactRecords } from "../../src/ingest/compact-records.js";
import { encodeFloat32Base64 } from "../../src/ingest/float32-base64.js";

const dense: IndexModel = { name: "docs", dimension: 4, metric: "dotproduct", vector_type: "dense" } as IndexModel;
const sparse: IndexModel = { name: "terms", metric: "dotproduct", vector_type: "sparse" } as IndexModel;
const b64 = (values: number[]) => encodeFloat32Base64(values);

async function bodies(records: Parameters<typeof planBatches>[0]): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of planBatches(records, { namespace: "n", maxRecords: 2 })) out.push(batch.body.toString("utf8"));
  return out;
}

const problems = (records: Parameters<typeof decodeCompactRecords>[0], index = dense) =>
  checkRecords(decodeCompactRecords(records), index).map((p) => `${p.position} ${p.id}: ${p.field} ${p.rule}`);

describe("decodeCompactRecords", () => {
  it("sends the same bodies for valuesBase64 as for the numbers it encodes: shortest float32 decimals", async () => {
    const values = [
      [0.1, -0.2, 1e-7, 3.4028234663852886e38],
      [1, 2, 3, 4],
      [Math.PI, -Math.E, 0, -0],
    ];
    const numbers = values.map((v, i) => ({ id: `r${i}`, values: v.map(Math.fround), sparseValues: { indices: [7, 9], values: [0.3, 0.7] }, metadata: { i } }));
    const compact = values.map((v, i) => ({ id: `r${i}`, valuesBase64: b64(v), sparseValues: { indices: [7, 9], valuesBase64: b64([0.3, 0.7]) }, metadata: { i } }));
    const decoded = decodeCompactRecords(compact);
    expect(decoded[0].values).toBeInstanceOf(Float32Array);
    expect(checkRecords(decoded, dense)).toEqual([]);
    const sent = await bodies(decoded);
    expect(sent).toEqual(await bodies(numbers));
    expect(sent[0]).toContain('"values":[0.1,-0.2,1e-7,3.4028235e+38]');
    expect(sent[0]).toContain('"sparseValues":{"indices":[7,9],"values":[0.3,0.7]}');
  });

  it("passes records without base64 on as they are", () => {
    const records = [{ id: "a", values: [1, 2, 3, 4] }];
    expect(decodeCompactRecords(records)).toBe(records);
  });

  it("words every problem as for numbers: position, id, field, rule — in record order", () => {
    expect(
      problems([
        { id: "ok", valuesBase64: b64([1, 2, 3, 4]) },
        { id: "both", values: [1, 2, 3, 4], valuesBase64: b64([1, 2, 3, 4]) },
        { id: "short", valuesBase64: b64([1, 2, 3]) },
        { id: "nan", valuesBase64: b64([1, NaN, 3, 4]) },
        { id: "inf", valuesBase64: b64([1, 2, 3, -Infinity]) },
        { id: "bytes", valuesBase64: Buffer.alloc(15).toString("base64") },
        { id: "chars", valuesBase64: "AAAA AAAAAAAAAAAAAAAAAAA" },
        { id: "ok", valuesBase64: b64([1, 2, 3, 4]) },
      ]),
    ).toEqual([
      "1 both: valuesBase64 is given together with values; give one of them",
      "2 short: valuesBase64 decodes to 3 float32 values (12 bytes) but index 'docs' has dimension 4 (16 bytes)",
      "3 nan: valuesBase64[1] is NaN; every value must be a finite number",
      "4 inf: valuesBase64[3] is -Infinity; every value must be a finite number",
      "5 bytes: valuesBase64 decodes to 15 bytes, not a whole number of float32 values (4 bytes each, little-endian)",
      '6 chars: valuesBase64 is not base64: character 5 is " "; base64 here uses A–Z, a–z, 0–9, + and /, with at most two = at the end',
      "7 ok: id is a duplicate of position 0; each id may appear once per call",
    ]);
  });

  it("sparse valuesBase64: the same rules as sparse numbers", () => {
    expect(
      problems(
        [
          { id: "ok", sparseValues: { indices: [1, 2], valuesBase64: b64([0.5, 0.25]) } },
          { id: "count", sparseValues: { indices: [1, 2], valuesBase64: b64([0.5]) } },
          { id: "nan", sparseValues: { indices: [1], valuesBase64: b64([NaN]) } },
          { id: "both", sparseValues: { indices: [1], values: [1], valuesBase64: b64([1]) } },
          { id: "bad", sparseValues: { indices: [1], valuesBase64: "AAA" } },
          { id: "dense", valuesBase64: b64([1]), sparseValues: { indices: [1], values: [1] } },
        ],
        sparse,
      ),
    ).toEqual([
      "1 count: sparseValues has 2 indices but valuesBase64 decodes to 1 values; they must be the same length",
      "2 nan: sparseValues.valuesBase64[0] is NaN; every value must be a finite number",
      "3 both: sparseValues.valuesBase64 is given together with sparseValues.values; give one of them",
      "4 bad: sparseValues.valuesBase64 decodes to 2 bytes, not a whole number of float32 values (4 bytes each, little-endian)",
      "5 dense: valuesBase64 decodes to 1 float32 values (4 bytes) but index 'terms' is sparse; give only sparseValues",
    ]);
  });
});
