// Records as the service returns them. Values are stored as float32 and written as the shortest decimal that reads
// back as the same float32 ([0.5, 0.4], not [0.5, 0.4000000059604645]), as the hosted service writes them.
import { float32Doubles } from "../../common/float32.js";
import type { StoredRecord } from "../storage/store.js";

export interface RecordOut {
  id: string;
  values: number[];
  sparseValues?: { indices: number[]; values: number[] };
  metadata?: Record<string, unknown>;
}

export function recordOut(r: StoredRecord, withValues: boolean, withMetadata: boolean): RecordOut {
  const out: RecordOut = { id: r.id, values: withValues ? float32Doubles(r.values) : [] };
  if (withValues && r.sparse) out.sparseValues = { indices: Array.from(r.sparse.indices), values: float32Doubles(r.sparse.values) };
  if (withMetadata && r.metadataJson !== undefined) out.metadata = JSON.parse(r.metadataJson) as Record<string, unknown>;
  return out;
}

/** Rough read-unit accounting: one unit per started 10 000 records read (the service bills a minimum of 1). */
export function readUnits(recordsRead: number): number {
  return Math.max(1, Math.ceil(recordsRead / 10000));
}
