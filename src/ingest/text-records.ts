// Text records for an index with integrated embedding: `_id` (or `id`), the text field the index's field_map names,
// and other fields, which the service stores as metadata beside the text. Checked whole against the index before
// anything is sent; planned into NDJSON bodies within the service's limits for text upserts.
import type { IndexModel } from "../api/records.js";
import type { PlannedBatch } from "./batches.js";
import { MAX_ID_LENGTH, metadataProblems, type RecordProblem } from "./check.js";

export type TextRecord = Record<string, unknown>;

/**
 * The hosted service's limits for one text upsert request: 96 records and 2 MB (read as 2,000,000 bytes, the stricter
 * reading, as for vector upserts). Per input, each model reads at most its max_sequence_length tokens (list_models
 * shows it); longer texts are cut or refused by the service according to the index's write parameters (truncate).
 */
export const TEXT_BATCH_RECORDS = 96;
export const TEXT_BATCH_BYTES = 2_000_000;

/** The field an integrated index embeds (field_map.text), or undefined for an index without integrated embedding. */
export function textField(index: IndexModel): string | undefined {
  const f = index.embed?.field_map?.text;
  return typeof f === "string" && f !== "" ? f : undefined;
}

/** A record's id: `_id`, or its alias `id`. */
export function textRecordId(record: TextRecord): unknown {
  return record._id ?? record.id;
}

/** Every problem of every record (in order), each naming position, id, field and the rule. */
export function checkTextRecords(records: TextRecord[], field: string): RecordProblem[] {
  const problems: RecordProblem[] = [];
  const seen = new Map<string, number>();
  records.forEach((record, position) => {
    const rawId = textRecordId(record);
    const id = typeof rawId === "string" ? rawId : String(rawId ?? "");
    const add = (f: string, rule: string) => problems.push({ position, id, field: f, rule });
    if (record._id !== undefined && record.id !== undefined && record._id !== record.id) add("_id", "and id are both given and differ; give one of them");
    if (typeof rawId !== "string") add("_id", "is missing or not a string (give _id or id)");
    else if (rawId.length === 0) add("_id", `is empty; ids are 1–${MAX_ID_LENGTH} characters`);
    else if ([...rawId].length > MAX_ID_LENGTH) add("_id", `is ${[...rawId].length} characters long; ids are at most ${MAX_ID_LENGTH} characters`);
    else if (rawId.includes("\u0000")) add("_id", "contains a NUL character, which ids may not contain");
    if (typeof rawId === "string") {
      const first = seen.get(rawId);
      if (first !== undefined) add("_id", `is a duplicate of position ${first}; each id may appear once per call`);
      else seen.set(rawId, position);
    }
    const text = record[field];
    if (text === undefined || text === null) add(field, `is missing; the index embeds the text of the field "${field}"`);
    else if (typeof text !== "string") add(field, `must be a string (the text to embed), got ${typeof text === "object" ? (Array.isArray(text) ? "a list" : "an object") : typeof text}`);
    else if (text.trim() === "") add(field, "is empty; give the text to embed");
    for (const p of metadataProblems(fieldsOf(record))) add(p.field === "metadata" ? "fields" : p.field.slice("metadata.".length), p.rule.replace("per record", "of fields per record"));
  });
  return problems;
}

/** The record's fields besides its id: what the service stores as metadata (the text field among them). */
function fieldsOf(record: TextRecord): Record<string, unknown> {
  const { _id: _a, id: _b, ...fields } = record;
  return fields;
}

/** One NDJSON line: `_id` first, then the other fields. */
export function textRecordLine(record: TextRecord): string {
  return JSON.stringify({ _id: textRecordId(record), ...fieldsOf(record) });
}

/** NDJSON bodies of at most `maxRecords` records and `maxBytes` bytes, in input order (an array or a stream). */
export async function* planTextBatches(
  records: Iterable<TextRecord> | AsyncIterable<TextRecord>,
  opts: { maxRecords?: number; maxBytes?: number } = {},
): AsyncGenerator<PlannedBatch> {
  const maxRecords = opts.maxRecords ?? TEXT_BATCH_RECORDS;
  const maxBytes = opts.maxBytes ?? TEXT_BATCH_BYTES;
  let lines: Buffer[] = [];
  let ids: string[] = [];
  let bytes = 0;
  let first = 0;
  const close = (): PlannedBatch => {
    const batch = { body: Buffer.concat(lines), ids, firstPosition: first };
    lines = [];
    ids = [];
    bytes = 0;
    return batch;
  };
  let i = 0;
  for await (const record of records) {
    const line = Buffer.from(`${textRecordLine(record)}\n`);
    if (ids.length > 0 && (ids.length >= maxRecords || bytes + line.length > maxBytes)) yield close();
    if (ids.length === 0) first = i;
    lines.push(line);
    ids.push(String(textRecordId(record)));
    bytes += line.length;
    i++;
  }
  if (ids.length > 0) yield close();
}

/** Problems of records too large for one request body (checked with the others, before anything is sent). */
export function oversizedTextRecords(records: TextRecord[], maxBytes = TEXT_BATCH_BYTES): RecordProblem[] {
  const out: RecordProblem[] = [];
  records.forEach((record, position) => {
    const size = Buffer.byteLength(textRecordLine(record)) + 1;
    if (size > maxBytes) out.push({ position, id: String(textRecordId(record)), field: "record", rule: `is ${size} bytes as JSON; one request body may hold at most ${maxBytes} bytes` });
  });
  return out;
}
