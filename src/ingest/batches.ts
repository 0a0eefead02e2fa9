// Streaming batch planner: records → request bodies of ≤ 100 records AND ≤ MAX_BODY_BYTES.
//
// Bodies are written by hand, byte by byte into one reused buffer, rather than with JSON.stringify: every vector
// value goes out as the shortest decimal that reads back as the same 32-bit float (float32.ts), which JSON.stringify
// cannot do (a replacer could only turn numbers into quoted strings), and writing digits straight into the buffer
// avoids a string per value. Ids, namespace and metadata still go through JSON.stringify, so their escaping is the
// standard one.
import { writeFloat32 } from "../common/float32.js";
import { RecordCheckError, type UpsertRecord } from "./check.js";

export const MAX_BATCH_RECORDS = 100;
/**
 * The service allows "2 MB" per upsert body. Read as 2,000,000 bytes — the stricter of the decimal and binary
 * readings (2 MiB = 2,097,152) — so a body is accepted whichever one a compatible service enforces.
 */
export const MAX_BODY_BYTES = 2_000_000;

export interface PlannedBatch {
  body: Buffer; // the request body, ready to send
  ids: string[]; // the ids in it, in order
  firstPosition: number; // 0-based position (in the input) of its first record; the others follow without gaps
}

export interface PlanOptions {
  namespace?: string;
  maxRecords?: number;
  maxBytes?: number;
}

const HEAD = Buffer.from('{"vectors":[');
const MAX_UINT32 = 4294967295;

/** A value the encoder cannot write; the planner turns it into a RecordCheckError naming the record. */
class EncodeProblem extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field} ${rule}`);
  }
}

/** Bytes a record can take at most once encoded (exact for id and metadata; a value takes at most 22 bytes and a comma). */
function bound(record: UpsertRecord, idJson: string, metadataJson: string | undefined): number {
  let n = 64 + Buffer.byteLength(idJson) + (metadataJson === undefined ? 0 : Buffer.byteLength(metadataJson));
  n += 24 * (record.values?.length ?? 0);
  const sv = record.sparseValues;
  if (sv) n += 24 * (sv.values?.length ?? 0) + 11 * (sv.indices?.length ?? 0);
  return n;
}

/** Writes the record's JSON at pos (the caller ensured `bound` bytes are free); returns the end. */
function writeRecord(buf: Buffer, pos: number, record: UpsertRecord, idJson: string, metadataJson: string | undefined): number {
  pos += buf.write('{"id":', pos, "latin1");
  pos += buf.write(idJson, pos, "utf8");
  pos += buf.write(',"values":[', pos, "latin1");
  if (record.values) pos = writeValues(buf, pos, record.values, "values");
  buf[pos++] = 0x5d; // "]"
  const sv = record.sparseValues;
  if (sv) {
    pos += buf.write(',"sparseValues":{"indices":[', pos, "latin1");
    const indices = sv.indices ?? [];
    for (let i = 0; i < indices.length; i++) {
      const n = indices[i];
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > MAX_UINT32) {
        throw new EncodeProblem(`sparseValues.indices[${i}]`, `is ${String(n)}; indices must be whole numbers from 0 to ${MAX_UINT32}`);
      }
      if (i > 0) buf[pos++] = 0x2c;
      pos += buf.write(String(n), pos, "latin1");
    }
    pos += buf.write('],"values":[', pos, "latin1");
    pos = writeValues(buf, pos, sv.values ?? [], "sparseValues.values");
    pos += buf.write("]}", pos, "latin1");
  }
  if (metadataJson !== undefined) {
    pos += buf.write(',"metadata":', pos, "latin1");
    pos += buf.write(metadataJson, pos, "utf8");
  }
  buf[pos++] = 0x7d; // "}"
  return pos;
}

function writeValues(buf: Buffer, pos: number, values: number[] | Float32Array, field: string): number {
  return values instanceof Float32Array ? writeFloat32s(buf, pos, values, field) : writeNumbers(buf, pos, values, field);
}

/** Values decoded from base64 (compact-records.ts): float32 already, so only NaN and infinity can be wrong. */
function writeFloat32s(buf: Buffer, pos: number, values: Float32Array, field: string): number {
  const n = values.length;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v - v !== 0) throw new EncodeProblem(`${field.replace(/values$/, "valuesBase64")}[${i}]`, `is ${v}; every value must be a finite number`);
    if (i > 0) buf[pos++] = 0x2c;
    pos = writeFloat32(buf, pos, v);
  }
  return pos;
}

function writeNumbers(buf: Buffer, pos: number, values: number[], field: string): number {
  const n = values.length;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v !== "number" || !Number.isFinite(v) || !Number.isFinite(Math.fround(v))) {
      throw new EncodeProblem(`${field}[${i}]`, `is ${String(v)}; every value must be a finite 32-bit number`);
    }
    if (i > 0) buf[pos++] = 0x2c;
    pos = writeFloat32(buf, pos, v);
  }
  return pos;
}

function metadataJsonOf(record: UpsertRecord): string | undefined {
  return record.metadata === undefined || record.metadata === null ? undefined : JSON.stringify(record.metadata);
}

/** Serialises one record as the JSON the service reads (values as shortest 32-bit decimals). */
export function encodeRecord(record: UpsertRecord): string {
  const idJson = JSON.stringify(record.id);
  const metadataJson = metadataJsonOf(record);
  const buf = Buffer.allocUnsafe(bound(record, idJson, metadataJson));
  return buf.toString("utf8", 0, writeRecord(buf, 0, record, idJson, metadataJson));
}

/** Collects encoded records; emits a body when the next record would break a limit. */
export class BatchPlanner {
  private readonly tail: Buffer;
  private readonly maxRecords: number;
  private readonly maxBytes: number;
  private buf: Buffer;
  private len = HEAD.length; // bytes of the batch being filled (HEAD and records)
  private ids: string[] = [];
  private first = 0;

  constructor(options: PlanOptions = {}) {
    this.tail = Buffer.from(options.namespace === undefined ? "]}" : `],"namespace":${JSON.stringify(options.namespace)}}`);
    this.maxRecords = options.maxRecords ?? MAX_BATCH_RECORDS;
    this.maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
    this.buf = Buffer.allocUnsafe(Math.min(this.maxBytes, 1 << 20) + 1024);
    HEAD.copy(this.buf, 0);
  }

  /** Adds the record at `position`; returns the batch that it closed, if the record did not fit in it. */
  add(record: UpsertRecord, position: number): PlannedBatch | undefined {
    const id = record.id;
    const idJson = JSON.stringify(id) ?? "null";
    const metadataJson = metadataJsonOf(record);
    const start = this.len;
    this.ensure(start + 1 + bound(record, idJson, metadataJson));
    let pos = start;
    if (this.ids.length > 0) this.buf[pos++] = 0x2c; // ","
    const recordStart = pos;
    try {
      pos = writeRecord(this.buf, pos, record, idJson, metadataJson);
    } catch (err) {
      const field = err instanceof EncodeProblem ? err.field : "record";
      const rule = err instanceof EncodeProblem ? err.rule : String(err);
      throw new RecordCheckError([{ position, id: String(id), field, rule }]);
    }
    return this.placed(id, position, start, recordStart, pos);
  }

  /** Adds a record already written as JSON (json[0, length)), e.g. by transcodeRecordLine; as add otherwise. */
  addJson(json: Buffer, length: number, id: string, position: number): PlannedBatch | undefined {
    const start = this.len;
    this.ensure(start + 1 + length);
    let pos = start;
    if (this.ids.length > 0) this.buf[pos++] = 0x2c; // ","
    const recordStart = pos;
    pos += json.copy(this.buf, pos, 0, length);
    return this.placed(id, position, start, recordStart, pos);
  }

  /** The record just written at [recordStart, end) joins the batch, or closes it and starts the next one. */
  private placed(id: string, position: number, start: number, recordStart: number, end: number): PlannedBatch | undefined {
    let pos = end;
    const size = pos - recordStart;
    if (HEAD.length + size + this.tail.length > this.maxBytes) {
      throw new RecordCheckError([
        { position, id: String(id), field: "record", rule: `is ${size} bytes as JSON; one request body may hold at most ${this.maxBytes} bytes` },
      ]);
    }
    let closed: PlannedBatch | undefined;
    if (this.ids.length > 0 && (this.ids.length >= this.maxRecords || pos + this.tail.length > this.maxBytes)) {
      // The record does not fit: close the batch before it and move the record to the start of the next one.
      closed = this.body(start);
      this.buf.copy(this.buf, HEAD.length, recordStart, pos);
      pos = HEAD.length + size;
    }
    if (this.ids.length === 0) this.first = position;
    this.ids.push(id);
    this.len = pos;
    return closed;
  }

  /** The batch being filled, if any records are in it. */
  flush(): PlannedBatch | undefined {
    if (this.ids.length === 0) return undefined;
    return this.body(this.len);
  }

  /** Copies out the body of the current batch's first `end` bytes and starts an empty batch. */
  private body(end: number): PlannedBatch {
    const body = Buffer.allocUnsafe(end + this.tail.length);
    this.buf.copy(body, 0, 0, end);
    this.tail.copy(body, end);
    const batch = { body, ids: this.ids, firstPosition: this.first };
    this.ids = [];
    this.len = HEAD.length;
    return batch;
  }

  private ensure(size: number): void {
    if (size <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(size, this.buf.length * 2));
    this.buf.copy(bigger, 0, 0, this.len);
    this.buf = bigger;
  }
}

/** Plans an array or a (sync or async) stream lazily: one batch is built only when the consumer asks for it. */
export async function* planBatches(
  records: Iterable<UpsertRecord> | AsyncIterable<UpsertRecord>,
  options: PlanOptions = {},
): AsyncGenerator<PlannedBatch> {
  const planner = new BatchPlanner(options);
  let position = 0;
  if (Array.isArray(records)) {
    for (const record of records) {
      const closed = planner.add(record, position++);
      if (closed) yield closed;
    }
  } else {
    for await (const record of records) {
      const closed = planner.add(record, position++);
      if (closed) yield closed;
    }
  }
  const last = planner.flush();
  if (last) yield last;
}
