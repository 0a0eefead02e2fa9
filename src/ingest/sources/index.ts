import { extname } from "node:path";
import { openJsonl } from "./jsonl.js";
import type { OpenedFile } from "../../common/safe-open.js";
import type { RecordSource, SourceFormat } from "./types.js";

export type { RecordSource, SourceFormat, SourceItem } from "./types.js";
export { openJsonl } from "./jsonl.js";

const BY_EXTENSION: Record<string, SourceFormat> = { ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet" };

function inferFormat(path: string): SourceFormat | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/**
 * A record source over an open file (which it owns from then on: closed by the source, or here on failure) or a
 * path (tests, benchmarks). Parquet support (hyparquet) is loaded only when a Parquet file is opened.
 */
export async function openSource(input: string | OpenedFile, format?: SourceFormat): Promise<RecordSource> {
  const path = typeof input === "string" ? input : input.realPath;
  const chosen = format ?? inferFormat(path);
  if (chosen === undefined) {
    if (typeof input !== "string") await input.close();
    const ext = extname(path) || "(none)";
    throw new Error(`cannot tell the format of ${path} from its extension ${ext}: use .jsonl, .ndjson or .parquet, or pass format "jsonl" or "parquet"`);
  }
  if (chosen === "jsonl") return openJsonl(input);
  if (chosen === "parquet") {
    const { openParquet } = await import("./parquet.js");
    return openParquet(input);
  }
  if (typeof input !== "string") await input.close();
  throw new Error(`unknown format "${String(chosen)}": use "jsonl" or "parquet"`);
}

export async function openParquet(input: string | OpenedFile, opts: { sliceBytes?: number } = {}): Promise<RecordSource> {
  const mod = await import("./parquet.js");
  return mod.openParquet(input, opts);
}

export { PositionMap, recordsWithPositions } from "./positions.js";
