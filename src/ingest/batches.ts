// Streaming batch planner: records → request bodies of ≤ 100 records AND ≤ MAX_BODY_BYTES.
//
// Bodies are written by hand rather than with JSON.stringify: every vector value goes out as the shortest decimal
// that reads back as the same 32-bit float (float32.ts), which JSON.stringify cannot do without a replacer that
// turns each number into a string (and then quotes it). Ids, namespace and metadata still go through JSON.stringify,
// so their escaping is the standard one.
import { float32ToString } from "./float32.js";
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

/** Serialises one record as the JSON the service reads (values as shortest 32-bit decimals). */
export function encodeRecord(record: UpsertRecord): string {
  let s = `{"id":${JSON.stringify(record.id)},"values":[`;
  const values = record.values;
  if (values) s += encodeNumbers(values);
  s += "]";
  const sv = record.sparseValues;
  if (sv) {
    s += `,"sparseValues":{"indices":[${sv.indices.join(",")}],"values":[${encodeNumbers(sv.values)}]}`;
  }
  if (record.metadata !== undefined && record.metadata !== null) s += `,"metadata":${JSON.stringify(record.metadata)}`;
  return `${s}}`;
}

function encodeNumbers(values: number[]): string {
  const n = values.length;
  if (n === 0) return "";
  let s = float32ToString(values[0]);
  for (let i = 1; i < n; i++) s += "," + float32ToString(values[i]);
  return s;
}

/** Collects encoded records; emits a body when the next record would break a limit. */
export class BatchPlanner {
  private readonly head = '{"vectors":[';
  private readonly tail: string;
  private readonly maxRecords: number;
  private readonly maxBytes: number;
  private parts: string[] = [];
  private ids: string[] = [];
  private bytes = 0; // bytes of the parts joined with commas
  private first = 0;

  constructor(options: PlanOptions = {}) {
    this.tail = options.namespace === undefined ? "]}" : `],"namespace":${JSON.stringify(options.namespace)}}`;
    this.maxRecords = options.maxRecords ?? MAX_BATCH_RECORDS;
    this.maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  }

  /** Adds the record at `position`; returns the batch that it closed, if the record did not fit in it. */
  add(record: UpsertRecord, position: number): PlannedBatch | undefined {
    let encoded: string;
    try {
      encoded = encodeRecord(record);
    } catch (err) {
      throw new RecordCheckError([
        { position, id: String(record.id), field: "values", rule: err instanceof Error ? err.message : String(err) },
      ]);
    }
    const size = Buffer.byteLength(encoded, "utf8");
    const envelope = this.head.length + Buffer.byteLength(this.tail, "utf8");
    if (envelope + size > this.maxBytes) {
      throw new RecordCheckError([
        {
          position,
          id: record.id,
          field: "record",
          rule: `is ${size} bytes as JSON; one request body may hold at most ${this.maxBytes} bytes`,
        },
      ]);
    }
    let closed: PlannedBatch | undefined;
    const withComma = this.parts.length === 0 ? size : this.bytes + 1 + size;
    if (this.parts.length >= this.maxRecords || (this.parts.length > 0 && envelope + withComma > this.maxBytes)) {
      closed = this.flush();
    }
    if (this.parts.length === 0) {
      this.first = position;
      this.bytes = size;
    } else {
      this.bytes += 1 + size;
    }
    this.parts.push(encoded);
    this.ids.push(record.id);
    return closed;
  }

  /** The batch being filled, if any records are in it. */
  flush(): PlannedBatch | undefined {
    if (this.parts.length === 0) return undefined;
    const body = Buffer.from(this.head + this.parts.join(",") + this.tail, "utf8");
    const batch = { body, ids: this.ids, firstPosition: this.first };
    this.parts = [];
    this.ids = [];
    this.bytes = 0;
    return batch;
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
