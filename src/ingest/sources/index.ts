import { extname } from "node:path";
import { openJsonl } from "./jsonl.js";
import type { RecordSource, SourceFormat } from "./types.js";

export type { RecordSource, SourceFormat, SourceItem, SourceRecord } from "./types.js";
export { openJsonl } from "./jsonl.js";

const BY_EXTENSION: Record<string, SourceFormat> = { ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet" };

export function inferFormat(path: string): SourceFormat | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/** Opens a record file; Parquet support (hyparquet) is loaded only when a Parquet file is opened. */
export async function openSource(path: string, format?: SourceFormat): Promise<RecordSource> {
  const chosen = format ?? inferFormat(path);
  if (chosen === undefined) {
    const ext = extname(path) || "(none)";
    throw new Error(`cannot tell the format of ${path} from its extension ${ext}: use .jsonl, .ndjson or .parquet, or pass format "jsonl" or "parquet"`);
  }
  if (chosen === "jsonl") return openJsonl(path);
  if (chosen === "parquet") {
    const { openParquet } = await import("./parquet.js");
    return openParquet(path);
  }
  throw new Error(`unknown format "${String(chosen)}": use "jsonl" or "parquet"`);
}

export async function openParquet(path: string, opts: { sliceBytes?: number } = {}): Promise<RecordSource> {
  const mod = await import("./parquet.js");
  return mod.openParquet(path, opts);
}

export { PositionMap, recordsWithPositions } from "./positions.js";
