// The usual upsert body read straight from its bytes — {"vectors":[{"id":…,"values":[…],"metadata":{…}},…],
// "namespace":…} — with each record's dense values read into the Float32Array that is stored.
//
// Hand-written because JSON.parse of upsert bodies was most of the service's work during a bulk upsert (every value
// a decimal number turned into a double, then into a float32). Only the shape above is read here, each number as
// Math.fround(JSON.parse(text)) (src/common/json-number.ts); anything else — another key, a value that is not a
// float32, an escape in an id, bad JSON — returns undefined and the route parses the body with JSON.parse, which
// also words every error as before.
import { CLOSE_BRACE, CLOSE_BRACKET, JsonBytes, NOT_JSON, OPEN_BRACE, OPEN_BRACKET, QUOTE } from "../../common/json-bytes.js";
import { isFloat32, numberEnd, readNumber } from "../../common/json-number.js";
import type { RawRecord } from "./records.js";
import type { Json } from "./validate.js";

const RECORD_FIELDS = new Set(["id", "values", "metadata", "sparseValues", "sparse_values"]);

const r = new JsonBytes();
let scratch = new Float32Array(4096);

export function readUpsertBody(body: Buffer): { vectors: RawRecord[]; namespace: Json | undefined } | undefined {
  r.reset(body, 0, body.length).skipSpace();
  // not an object, or {}: the long way, where the route words what is wrong or missing
  if (r.peek() !== OPEN_BRACE || !r.enter(CLOSE_BRACE)) return undefined;
  let vectors: RawRecord[] | undefined;
  let namespace: Json | undefined;
  let namespaceSeen = false;
  for (;;) {
    const key = r.key();
    if (key === "vectors" && vectors === undefined && r.peek() === OPEN_BRACKET) {
      vectors = readRecords();
      if (vectors === undefined) return undefined;
    } else if (key === "namespace" && !namespaceSeen) {
      const value = r.parsedValue();
      if (value === NOT_JSON) return undefined;
      namespace = value as Json;
      namespaceSeen = true;
    } else return undefined;
    const more = r.nextMember(CLOSE_BRACE);
    if (more === undefined) return undefined;
    if (!more) break;
  }
  r.skipSpace();
  return r.at === r.end && vectors !== undefined ? { vectors, namespace } : undefined;
}

function readRecords(): RawRecord[] | undefined {
  const records: RawRecord[] = [];
  if (!r.enter(CLOSE_BRACKET)) return records;
  for (;;) {
    const record = readRecord();
    if (record === undefined) return undefined;
    records.push(record);
    const more = r.nextMember(CLOSE_BRACKET);
    if (more === undefined) return undefined;
    if (!more) return records;
  }
}

function readRecord(): RawRecord | undefined {
  if (r.peek() !== OPEN_BRACE) return undefined;
  const record: RawRecord = {};
  if (!r.enter(CLOSE_BRACE)) return record;
  for (;;) {
    const key = r.key();
    if (key === undefined || !RECORD_FIELDS.has(key) || key in record) return undefined;
    const c = r.peek();
    if (key === "values" && c === OPEN_BRACKET) {
      const values = readValues();
      if (values === undefined) return undefined;
      record.values = values;
    } else if (key === "id" && c === QUOTE) {
      const idEnd = r.plainStringEnd();
      if (idEnd < 0) return undefined;
      record.id = r.buf.toString("utf8", r.at + 1, idEnd);
      r.at = idEnd + 1;
    } else {
      const value = r.parsedValue();
      if (value === NOT_JSON) return undefined;
      record[key as "metadata"] = value as Json;
    }
    const more = r.nextMember(CLOSE_BRACE);
    if (more === undefined) return undefined;
    if (!more) return record;
  }
}

function readValues(): Float32Array | undefined {
  const { buf, end } = r;
  let n = 0;
  if (!r.enter(CLOSE_BRACKET)) return new Float32Array(0);
  for (;;) {
    if (r.at >= end) return undefined;
    const value = readNumber(buf, r.at, end);
    if (!isFloat32(value)) return undefined; // not a number, or too large for a float32: the long way words the error
    if (n === scratch.length) {
      const bigger = new Float32Array(2 * n);
      bigger.set(scratch);
      scratch = bigger;
    }
    scratch[n++] = value;
    r.at = numberEnd;
    const more = r.nextMember(CLOSE_BRACKET);
    if (more === undefined) return undefined;
    if (!more) return scratch.slice(0, n);
  }
}
