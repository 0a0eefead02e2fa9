// The data plane's view of a document index's schema (API version 2026-07): what the documents routes read.
import type { IndexSchemaRecord } from "../storage/index-schema.js";
import type { DataPlaneIndex } from "./types.js";

/** A document index's typed fields; undefined for an index of the vectors or records API. */
export function documentSchema(index: DataPlaneIndex): IndexSchemaRecord | undefined {
  return index.schema;
}
