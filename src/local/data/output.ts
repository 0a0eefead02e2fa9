// Records as the service returns them.
import type { StoredRecord } from "../storage/store.js";

export interface RecordOut {
  id: string;
  values: number[];
  sparseValues?: { indices: number[]; values: number[] };
  metadata?: Record<string, unknown>;
}

export function recordOut(r: StoredRecord, withValues: boolean, withMetadata: boolean): RecordOut {
  const out: RecordOut = { id: r.id, values: withValues ? Array.from(r.values) : [] };
  if (withValues && r.sparse) out.sparseValues = { indices: Array.from(r.sparse.indices), values: Array.from(r.sparse.values) };
  if (withMetadata && r.metadataJson !== undefined) out.metadata = JSON.parse(r.metadataJson) as Record<string, unknown>;
  return out;
}

/** Rough read-unit accounting: one unit per started 10 000 records read (the service bills a minimum of 1). */
export function readUnits(recordsRead: number): number {
  return Math.max(1, Math.ceil(recordsRead / 10000));
}
