// Upsert bodies made of records already written as JSON (a copy's records, as the source sent them): at most 100
// records and 2,000,000 bytes a body, like the batches of every other write (batches.ts), in input order.
import { MAX_BATCH_RECORDS, MAX_BODY_BYTES, type PlannedBatch } from "../batches.js";

export interface JsonRecord {
  id: string;
  json: string;
}

export async function* planJsonBatches(records: AsyncIterable<JsonRecord>, namespace: string): AsyncGenerator<PlannedBatch> {
  const head = '{"vectors":[';
  const tail = `],"namespace":${JSON.stringify(namespace)}}`;
  const fixed = Buffer.byteLength(head) + Buffer.byteLength(tail);
  let parts: string[] = [];
  let ids: string[] = [];
  let bytes = fixed;
  let first = 0;
  let position = 0;
  const close = (): PlannedBatch => {
    const batch = { body: Buffer.from(`${head}${parts.join(",")}${tail}`), ids, firstPosition: first };
    parts = [];
    ids = [];
    bytes = fixed;
    return batch;
  };
  for await (const record of records) {
    const size = Buffer.byteLength(record.json) + 1;
    if (ids.length > 0 && (ids.length >= MAX_BATCH_RECORDS || bytes + size > MAX_BODY_BYTES)) yield close();
    if (ids.length === 0) first = position;
    parts.push(record.json);
    ids.push(record.id);
    bytes += size;
    position++;
  }
  if (ids.length > 0) yield close();
}
