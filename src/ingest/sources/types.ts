import type { UpsertRecord } from "../check.js";
import type { OpenedFile } from "../../common/safe-open.js";

/** What a source yields is exactly what runUpsert takes. */
export type SourceRecord = UpsertRecord;

/** One line (JSONL) or row (Parquet): either a record or the reason it is not one. */
export interface SourceItem {
  position: number; // 1-based line or row number
  record?: SourceRecord;
  error?: string;
  id?: string; // with an error: the record's id when it could be read
}

export type SourceFormat = "jsonl" | "parquet";

export interface RecordSource {
  format: SourceFormat;
  /** The file's real path (for messages); every read goes through `file`, never through this path. */
  path: string;
  /** The one open descriptor of the file; the source owns it (close() closes it). */
  file: OpenedFile;
  /** JSONL: lines longer than this are reported, not read (the parallel check reads byte ranges with the same limit). */
  maxLineBytes?: number;
  /** Records from position `startAt` (1-based, default 1) on; a bad line or row is an item with `error`. */
  records(startAt?: number): AsyncIterable<SourceItem>;
  /** The same for the check pass: dense values may come as ScannedValues (count only), when that is cheaper. */
  recordsForCheck?(startAt?: number): AsyncIterable<SourceItem>;
  /** Number of records (JSONL: non-blank lines; Parquet: rows) — cheap: no parsing. */
  count(): Promise<number>;
  close(): Promise<void>;
}
