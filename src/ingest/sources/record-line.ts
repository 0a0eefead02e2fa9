// The fast way through a JSONL record line: `{"id": "…", "values": [numbers…], "metadata": {…}}` read from the
// line's bytes, with the values array (nearly all of a line) read number by number (src/common/json-number.ts). The
// other fields are cut out and given to JSON.parse, so they come out exactly as before. Two forms:
// - readRecordLine (the check pass): the object JSON.parse would give, dense values rounded to float32 — or, with
//   `scan`, only checked and counted;
// - transcodeRecordLine (the upload pass): the record's JSON as the service is sent it, written straight from the
//   line's bytes — each value as its shortest float32 decimal — without building the record at all.
//
// Hand-written because JSON.parse of the whole line was the import's largest cost (both passes parse every line).
// It only takes the path it fully understands: anything else (an escape in the id or a key, an unknown or repeated
// key, a value in `values` that is not a number, bad syntax) returns undefined, and the caller parses the line with
// JSON.parse, which also words the error.
import { writeFloat32 } from "../../common/float32.js";
import { ScannedValues } from "../check.js";
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, JsonBytes, NOT_JSON, OPEN_BRACE, OPEN_BRACKET, QUOTE } from "../../common/json-bytes.js";
import { isFloat32, MAYBE_TOO_LARGE, NOT_A_NUMBER, numberEnd, readNumber, scanNumber } from "../../common/json-number.js";

// Keys the fast way takes; any other key goes to JSON.parse (and is refused there with its name).
const FIELDS = new Set(["id", "values", "metadata", "sparse_values", "sparseValues"]);

const r = new JsonBytes();

/** The array of numbers at the cursor, each rounded to float32 (one too large for it as is); undefined for the long way. */
function readValues(): number[] | undefined {
  const values: number[] = [];
  if (!r.enter(CLOSE_BRACKET)) return values;
  for (;;) {
    if (r.at >= r.end) return undefined;
    const value = readNumber(r.buf, r.at, r.end);
    if (Number.isNaN(value)) return undefined;
    values.push(value);
    r.at = numberEnd;
    const more = r.nextMember(CLOSE_BRACKET);
    if (more === undefined) return undefined;
    if (!more) return values;
  }
}

/**
 * The dense values at the cursor only checked, not read (scanNumber): how many there are, all known to be 32-bit
 * floats; undefined to take the long way (bad syntax, or a value too large for a float32, which the checker must name).
 */
function scanValues(): ScannedValues | undefined {
  const { buf, end } = r;
  let count = 0;
  if (!r.enter(CLOSE_BRACKET)) return new ScannedValues(0);
  for (;;) {
    if (r.at >= end) return undefined;
    let next = scanNumber(buf, r.at, end);
    if (next === MAYBE_TOO_LARGE) {
      const value = readNumber(buf, r.at, end);
      if (!isFloat32(value)) return undefined;
      next = numberEnd;
    }
    if (next === NOT_A_NUMBER) return undefined;
    count++;
    r.at = next;
    const more = r.nextMember(CLOSE_BRACKET);
    if (more === undefined) return undefined;
    if (!more) return new ScannedValues(count);
  }
}

/**
 * The object a JSON.parse of the line would give (dense values rounded to float32), or undefined when the line is
 * not in the shape this reader takes. With `scan`, dense values are only checked and counted (ScannedValues): for
 * the check pass, which needs no more.
 */
export function readRecordLine(buf: Buffer, start: number, end: number, scan = false): Record<string, unknown> | undefined {
  r.reset(buf, start, end).skipSpace();
  if (r.peek() !== OPEN_BRACE) return undefined;
  const record: Record<string, unknown> = {};
  if (r.enter(CLOSE_BRACE)) {
    for (;;) {
      const key = r.key();
      if (key === undefined || !FIELDS.has(key) || key in record) return undefined;
      const c = r.peek();
      if (key === "values" && c === OPEN_BRACKET) {
        const values = scan ? scanValues() : readValues();
        if (values === undefined) return undefined;
        record.values = values;
      } else if (key === "id" && c === QUOTE) {
        const idEnd = r.plainStringEnd();
        if (idEnd < 0) return undefined;
        record.id = buf.toString("utf8", r.at + 1, idEnd);
        r.at = idEnd + 1;
      } else {
        const value = r.parsedValue();
        if (value === NOT_JSON) return undefined;
        record[key] = value;
      }
      const more = r.nextMember(CLOSE_BRACE);
      if (more === undefined) return undefined;
      if (!more) break;
    }
  }
  r.skipSpace();
  return r.at === end ? record : undefined;
}

export interface TranscodedLine {
  id: string;
  length: number; // bytes of the record's JSON, written at the start of `out`
}

/** What transcodeRecordLine returns when the record does not fit in `out`: the caller may retry with more room. */
export const NO_ROOM = "no room";

const VALUE_ROOM = 26; // a value's decimal (at most 24 bytes), its comma or "]", and the record's closing "}"

const KEY_JSON = new Map(["id", "values", "metadata"].map((key) => [key, Buffer.from(`"${key}":`)]));

/**
 * Writes the line's record as the JSON sent to the service — `{"id":…,"values":[…],"metadata":…}` in the line's key
 * order, values as shortest float32 decimals, metadata as JSON.stringify writes it — at the start of `out`. Undefined
 * when the line is not a plain dense record (no id or values, sparse values, anything readRecordLine would not take, a
 * value that is not a finite float32): the caller takes the long way. NO_ROOM when the JSON would not fit in `out`.
 */
export function transcodeRecordLine(buf: Buffer, start: number, end: number, out: Buffer): TranscodedLine | typeof NO_ROOM | undefined {
  r.reset(buf, start, end).skipSpace();
  if (r.peek() !== OPEN_BRACE || !r.enter(CLOSE_BRACE)) return undefined;
  let o = 0;
  out[o++] = OPEN_BRACE;
  let id: string | undefined;
  let values = false;
  let metadata = false;
  for (;;) {
    const key = r.key();
    const keyJson = key === undefined ? undefined : KEY_JSON.get(key);
    if (keyJson === undefined || (key === "id" ? id !== undefined : key === "values" ? values : metadata)) return undefined;
    const fieldStart = o;
    if (o + 16 > out.length) return NO_ROOM;
    if (o > 1) out[o++] = COMMA;
    o += keyJson.copy(out, o);
    if (key === "values") {
      if (r.peek() !== OPEN_BRACKET) return undefined;
      o = transcodeValues(out, o);
      if (o === NOT_PLAIN) return undefined;
      if (o === OUT_OF_ROOM) return NO_ROOM;
      values = true;
    } else if (key === "id") {
      if (r.peek() !== QUOTE) return undefined;
      const idEnd = r.plainStringEnd();
      if (idEnd < 0) return undefined;
      let ascii = true;
      for (let i = r.at + 1; i < idEnd; i++) if (buf[i] >= 0x80) ascii = false;
      if (ascii) {
        if (o + (idEnd + 2 - r.at) > out.length) return NO_ROOM;
        id = buf.toString("latin1", r.at + 1, idEnd);
        o += buf.copy(out, o, r.at, idEnd + 1);
      } else {
        id = buf.toString("utf8", r.at + 1, idEnd); // as decoding the whole line would read it (invalid bytes → U+FFFD)
        o = writeJson(out, o, id);
        if (o < 0) return NO_ROOM;
      }
      r.at = idEnd + 1;
    } else {
      const parsed = r.parsedValue();
      if (parsed === NOT_JSON) return undefined;
      if (parsed === null) o = fieldStart; // null metadata is left out, as the record reader does
      else if (typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
      else {
        o = writeJson(out, o, parsed);
        if (o < 0) return NO_ROOM;
      }
      metadata = true;
    }
    const more = r.nextMember(CLOSE_BRACE);
    if (more === undefined) return undefined;
    if (!more) break;
  }
  r.skipSpace();
  if (r.at !== end || id === undefined || !values) return undefined;
  out[o++] = CLOSE_BRACE;
  return { id, length: o };
}

/** JSON.stringify(value) written at out[o…]; the new o, or -1 when it does not fit (with room for a closing "}"). */
function writeJson(out: Buffer, o: number, value: unknown): number {
  const json = JSON.stringify(value);
  if (o + Buffer.byteLength(json) + 1 > out.length) return -1;
  return o + out.write(json, o, "utf8");
}

const NOT_PLAIN = -1;
const OUT_OF_ROOM = -2;

/** The values array at the cursor written to out[o…] as shortest float32 decimals; the new o, NOT_PLAIN or OUT_OF_ROOM. */
function transcodeValues(out: Buffer, o: number): number {
  const { buf, end } = r;
  out[o++] = OPEN_BRACKET;
  if (!r.enter(CLOSE_BRACKET)) {
    out[o++] = CLOSE_BRACKET;
    return o;
  }
  for (;;) {
    if (r.at >= end) return NOT_PLAIN;
    const value = readNumber(buf, r.at, end);
    if (!isFloat32(value)) return NOT_PLAIN;
    if (o + VALUE_ROOM > out.length) return OUT_OF_ROOM;
    o = writeFloat32(out, o, value);
    r.at = numberEnd;
    const more = r.nextMember(CLOSE_BRACKET);
    if (more === undefined) return NOT_PLAIN;
    out[o++] = more ? COMMA : CLOSE_BRACKET;
    if (!more) return o;
  }
}
