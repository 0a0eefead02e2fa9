// Vector values in a result (fetch_vectors, query_vectors, and any tool that returns records): as numbers, or — with
// valuesFormat "base64" — as base64 of little-endian float32 in valuesBase64 fields, for clients that store them
// again (the same form upsert_vectors takes). The service stores float32, so nothing is lost either way.
import { z } from "zod";
import { encodeFloat32Base64 } from "../../ingest/float32-base64.js";

export type ValuesFormat = "numbers" | "base64";

/** The base64 field of a record in a result. */
export const valuesBase64Output = z.string().optional().describe('Dense values as base64 of little-endian float32 (with valuesFormat "base64").');

/** Sparse values in a result: values as numbers, or valuesBase64. */
export const CompactSparseValuesOutput = z.object({
  indices: z.array(z.number()).describe("Positions."),
  values: z.array(z.number()).optional().describe("Values."),
  valuesBase64: z.string().optional().describe('Values as base64 of little-endian float32 (with valuesFormat "base64").'),
});

interface WithValues {
  values?: number[];
  valuesBase64?: string;
  sparseValues?: { indices: number[]; values?: number[]; valuesBase64?: string };
}

/** The records as given for "numbers" (or no format); for "base64", copies with each values list as valuesBase64. */
export function inValuesFormat<T extends WithValues>(records: T[], format: ValuesFormat | undefined): T[] {
  if (format !== "base64") return records;
  return records.map((record) => {
    const { values, sparseValues, ...rest } = record;
    const out = { ...rest } as T;
    if (values !== undefined) out.valuesBase64 = encodeFloat32Base64(values);
    if (sparseValues !== undefined) {
      const { values: sparse, ...sparseRest } = sparseValues;
      out.sparseValues = sparse === undefined ? sparseValues : { ...sparseRest, valuesBase64: encodeFloat32Base64(sparse) };
    }
    return out;
  });
}
