// Whether the target already holds a record as the copy would write it: same values (as 32-bit floats, which is how
// both services store them), same sparse values, same metadata. For text re-embedded by the target's model only the
// fields (the metadata) are compared: the target made the values itself.
import { isDeepStrictEqual } from "node:util";
import type { FetchedRecord } from "../../api/records.js";

const sameFloats = (a: readonly number[] | undefined, b: readonly number[] | undefined): boolean => {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (Math.fround(x[i]) !== Math.fround(y[i])) return false;
  return true;
};

export function sameVectorRecord(wanted: FetchedRecord, found: FetchedRecord | undefined): boolean {
  if (found === undefined) return false;
  if (!sameFloats(wanted.values, found.values)) return false;
  const ws = wanted.sparseValues;
  const fs = found.sparseValues;
  if ((ws?.indices.length ?? 0) !== (fs?.indices.length ?? 0)) return false;
  if (ws && fs && (!isDeepStrictEqual(ws.indices, fs.indices) || !sameFloats(ws.values, fs.values))) return false;
  return isDeepStrictEqual(wanted.metadata ?? {}, found.metadata ?? {});
}

export function sameFields(fields: Record<string, unknown>, found: FetchedRecord | undefined): boolean {
  return found !== undefined && isDeepStrictEqual(fields, found.metadata ?? {});
}
