// What the upload pass of import_vectors sends: for JSONL, request bodies transcoded straight from the file's lines
// (jsonl-encode.ts); for Parquet, the records read, planned by runUpsert itself.
import { encodeJsonl } from "./jsonl-encode.js";
import { type PositionMap, type RecordSource, recordsWithPositions } from "./sources/index.js";
import { PlannedBodies, type UpsertArgs } from "./upsert.js";

export function uploadInput(source: RecordSource, o: { startAt: number; namespace?: string; positions: PositionMap }): UpsertArgs["records"] {
  if (source.format === "jsonl" && source.maxLineBytes !== undefined) {
    return new PlannedBodies(encodeJsonl(source.file, { startAt: o.startAt, namespace: o.namespace, maxLineBytes: source.maxLineBytes, positions: o.positions }));
  }
  return recordsWithPositions(source.records(o.startAt), o.positions);
}
