// One upsert record from the request → a WriteRecord, checked against the index.
import { invalid, quote } from "./errors.js";
import type { WriteRecord } from "../storage/store.js";
import type { DataPlaneIndex } from "./types.js";
import { checkId, denseValues, describe, metadataJson, sparseValues, type Json } from "./validate.js";

/** A record of an upsert body read by upsert-body.ts: its dense values already float32, the rest as JSON.parse gives it. */
export interface RawRecord {
  id?: Json;
  values?: Float32Array;
  metadata?: Json;
  sparseValues?: Json;
  sparse_values?: Json;
}

const RECORD_FIELDS = ["id", "values", "sparseValues", "sparse_values", "metadata"];

export function parseRecord(raw: Json | RawRecord, position: number, index: DataPlaneIndex): WriteRecord {
  const at = `Vector at position ${position}`;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw invalid(`${at}: must be an object with an id, got ${describe(raw)}`);
  }
  const id = checkId(raw.id, at);
  const where = `${at} (id ${quote(id)})`;
  for (const key of Object.keys(raw)) {
    if (!RECORD_FIELDS.includes(key)) throw invalid(`${where}: ${key} is not a field of a record, so it is refused rather than ignored; known: id, values, sparseValues, metadata`);
  }
  const rawValues = raw.values;
  const rawSparse = raw.sparseValues ?? raw.sparse_values;
  let values: Float32Array;
  if (index.vectorType === "sparse") {
    if (rawValues !== undefined && rawValues !== null && !((Array.isArray(rawValues) || rawValues instanceof Float32Array) && rawValues.length === 0)) {
      throw invalid(`${where}: a sparse index takes no dense values; send sparseValues only`);
    }
    if (rawSparse === undefined || rawSparse === null) throw invalid(`${where}: sparseValues are required by a sparse index`);
    values = new Float32Array(0);
  } else {
    if (rawValues === undefined || rawValues === null) {
      throw invalid(`${where}: values are required; the index takes dense vectors of dimension ${index.dimension}`);
    }
    values = denseValues(rawValues, where, index.dimension);
  }
  const record: WriteRecord = { id, values };
  if (rawSparse !== undefined && rawSparse !== null && !isEmptySparse(rawSparse)) {
    checkSparseAllowed(index, where);
    record.sparse = sparseValues(rawSparse, where);
  }
  if (raw.metadata !== undefined && raw.metadata !== null) record.metadataJson = metadataJson(raw.metadata, where);
  return record;
}

export function checkSparseAllowed(index: DataPlaneIndex, where: string): void {
  if (index.metric !== "dotproduct") {
    throw invalid(`${where}: sparse values are supported only by indexes with the dotproduct metric; this index uses ${index.metric}`);
  }
}

/** {indices: [], values: []} carries nothing; any index accepts it as "no sparse values". */
function isEmptySparse(v: Json): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Array.isArray(v.indices) && v.indices.length === 0 && Array.isArray(v.values) && v.values.length === 0;
}
