import { read } from "node:fs";
import { promisify } from "node:util";
import { openRegularFile, type OpenedFile } from "../../common/safe-open.js";
import { countNonBlankLines, type Line, lineText, readLines } from "./lines.js";
import { readRecordLine } from "./record-line.js";
import { jsonSyntaxError } from "./json-syntax.js";
import { recordFromObject } from "./record-shape.js";
import type { RecordSource, SourceItem } from "./types.js";

const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Where and why a line is not JSON, never quoting it (the file may be one the model should not read). */
function jsonError(text: string): string {
  const found = jsonSyntaxError(text);
  return found ? `not valid JSON at column ${found.column}: ${found.rule}` : "not valid JSON";
}

// A file claimed to be JSONL that is really Parquet (or any binary) is refused up front, not reported line by line.
async function refuseBinary(file: OpenedFile): Promise<void> {
  const head = Buffer.alloc(4096);
  const { bytesRead } = await promisify(read)(file.fd, head, 0, head.length, 0);
  const path = file.realPath;
  if (bytesRead >= 4 && head.toString("latin1", 0, 4) === "PAR1") {
    throw new Error(`${path} is a Parquet file (it starts with PAR1), not JSONL: use format "parquet"`);
  }
  if (head.subarray(0, bytesRead).includes(0)) {
    throw new Error(`${path} is not a JSONL text file: it contains NUL bytes in its first ${bytesRead} bytes`);
  }
}

/**
 * What one line of a JSONL file is: a record, or the reason it is not one; undefined for a blank line. With `scan`
 * (the check pass), dense values may come as ScannedValues: their count, known to be 32-bit floats.
 */
export function jsonlItem(line: Line, maxLineBytes: number, scan = false): SourceItem | undefined {
  if (line.buf === undefined) {
    return { position: line.number, error: `line is ${line.bytes} bytes, longer than the ${maxLineBytes}-byte limit for one record` };
  }
  let parsed: unknown = readRecordLine(line.buf, line.start, line.end, scan);
  if (parsed === undefined) {
    const text = lineText(line) ?? "";
    if (text.trim() === "") return undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { position: line.number, error: jsonError(text) };
    }
  }
  const shaped = recordFromObject(parsed);
  return shaped.error !== undefined ? { position: line.number, error: shaped.error, ...(shaped.id !== undefined && { id: shaped.id }) } : { position: line.number, record: shaped.record };
}

async function* items(file: OpenedFile, startAt: number, maxLineBytes: number, scan: boolean): AsyncGenerator<SourceItem> {
  for await (const line of readLines(file, { startAt, maxLineBytes })) {
    const item = jsonlItem(line, maxLineBytes, scan);
    if (item !== undefined) yield item;
  }
}

/**
 * One record per line; blank lines are skipped (but keep their number). Never throws for a bad line. Takes an open
 * file (openAllowedFile) and owns it from then on, or a path a test or benchmark gives (opened with openRegularFile).
 */
export async function openJsonl(input: string | OpenedFile, opts: { maxLineBytes?: number } = {}): Promise<RecordSource> {
  const file = typeof input === "string" ? await openRegularFile(input) : input;
  try {
    await refuseBinary(file);
  } catch (e) {
    await file.close();
    throw e;
  }
  const maxLineBytes = opts.maxLineBytes ?? MAX_LINE_BYTES;
  return {
    format: "jsonl",
    path: file.realPath,
    file,
    maxLineBytes,
    count: () => countNonBlankLines(file),
    close: () => file.close(),
    records: (startAt = 1) => items(file, startAt, maxLineBytes, false),
    recordsForCheck: (startAt = 1) => items(file, startAt, maxLineBytes, true),
  };
}
