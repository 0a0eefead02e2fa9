// upsert_vectors' records as the tool receives them — dense values as `values` (numbers) or `valuesBase64`, sparse
// values as `sparseValues.values` or `sparseValues.valuesBase64` — turned into the records the checks and the batch
// planner take. Base64 is decoded straight into Float32Arrays (views of one buffer for the whole call); no list of JS
// numbers is built, and the planner writes each float32 as its shortest decimal from there (batches.ts). A string
// that is not base64 of whole float32 values, or a field given both ways, is carried as `refused`, so the checker
// reports it in order with everything else (check.ts) and nothing is written.
import { BadBase64, decodeFloat32Base64 } from "./float32-base64.js";
import type { UpsertRecord } from "./check.js";

export interface CompactRecordInput {
  id: string;
  values?: number[];
  valuesBase64?: string;
  sparseValues?: { indices: number[]; values?: number[]; valuesBase64?: string };
  metadata?: Record<string, unknown>;
}

/** Bytes that decoding `text` may write, rounded up so the next record's values start 4-aligned. */
const room = (text: string | undefined) => (text === undefined ? 0 : (Math.ceil(text.length / 4) * 3 + 3) & ~3);

/** The records with their base64 decoded; records without base64 are passed on as they are. */
export function decodeCompactRecords(records: readonly CompactRecordInput[]): UpsertRecord[] {
  let total = 0;
  for (const r of records) total += room(r.valuesBase64) + room(r.sparseValues?.valuesBase64);
  if (total === 0) return records as UpsertRecord[];
  // One allocation for the whole call (30 MB for 10,000 × 768): the records' values are views of it.
  const scratch = Buffer.allocUnsafeSlow(total);
  let offset = 0;
  const decode = (text: string) => {
    const into = scratch.subarray(offset, offset + room(text));
    offset += into.length;
    return decodeFloat32Base64(text, into);
  };

  return records.map((r) => {
    const dense = r.valuesBase64;
    const sparse = r.sparseValues;
    if (dense === undefined && sparse?.valuesBase64 === undefined) return r as UpsertRecord;
    const out: UpsertRecord = { id: r.id };
    const refused: { field: string; rule: string }[] = [];
    if (dense !== undefined) {
      if (r.values !== undefined) refused.push({ field: "valuesBase64", rule: "is given together with values; give one of them" });
      else {
        const decoded = decode(dense);
        if (decoded instanceof BadBase64) refused.push({ field: "valuesBase64", rule: decoded.rule });
        else out.values = decoded;
      }
    } else if (r.values !== undefined) out.values = r.values;
    if (sparse !== undefined) {
      const text = sparse.valuesBase64;
      let values: number[] | Float32Array | undefined = sparse.values;
      if (text !== undefined) {
        if (sparse.values !== undefined) {
          refused.push({ field: "sparseValues.valuesBase64", rule: "is given together with sparseValues.values; give one of them" });
        } else {
          const decoded = decode(text);
          if (decoded instanceof BadBase64) refused.push({ field: "sparseValues.valuesBase64", rule: decoded.rule });
          else values = decoded;
        }
      }
      out.sparseValues = { indices: sparse.indices, values: values as number[] | Float32Array };
    }
    if (r.metadata !== undefined) out.metadata = r.metadata;
    if (refused.length > 0) out.refused = refused;
    return out;
  });
}
