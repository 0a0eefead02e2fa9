// Records as the service returns them. Values are stored as float32 and written as the shortest decimal that reads
// back as the same float32 ([0.5, 0.4], not [0.5, 0.4000000059604645]), as the hosted service writes them: kept as
// float32 until the answer is written (json-answer.ts).
import type { StoredRecord } from "../storage/store.js";
import { Float32Json } from "./json-answer.js";

export interface RecordOut {
  id: string;
  values: Float32Json | [];
  sparseValues?: { indices: number[]; values: Float32Json };
  metadata?: Record<string, unknown>;
}

export function recordOut(r: StoredRecord, withValues: boolean, withMetadata: boolean): RecordOut {
  const out: RecordOut = { id: r.id, values: withValues ? new Float32Json(r.values) : [] };
  if (withValues && r.sparse) out.sparseValues = { indices: Array.from(r.sparse.indices), values: new Float32Json(r.sparse.values) };
  if (withMetadata && r.metadataJson !== undefined) out.metadata = JSON.parse(r.metadataJson) as Record<string, unknown>;
  return out;
}

/** Rough read-unit accounting: one unit per started 10 000 records read (the service bills a minimum of 1). */
export function readUnits(recordsRead: number): number {
  return Math.max(1, Math.ceil(recordsRead / 10000));
}
