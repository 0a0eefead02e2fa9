// The fast way through a JSONL record line: `{"id": "…", "values": [numbers…], "metadata": {…}}` read from the
// line's bytes, with the values array (nearly all of a line) read number by number by json-number.ts. The other
// fields are cut out and given to JSON.parse, so they come out exactly as before. Two forms:
// - readRecordLine (the check pass): the object JSON.parse would give, dense values rounded to float32;
// - transcodeRecordLine (the upload pass): the record's JSON as the service is sent it, written straight from the
//   line's bytes — each value as its shortest float32 decimal — without building the record at all.
//
// Hand-written because JSON.parse of the whole line was the import's largest cost (both passes parse every line).
// It only takes the path it fully understands: anything else (an escape in the id or a key, an unknown or repeated
// key, a value in `values` that is not a number, bad syntax) returns undefined, and the caller parses the line with
// JSON.parse, which also words the error. Values come back as the float32 the service stores (json-number.ts).
import { writeFloat32 } from "../float32.js";
import { ScannedValues } from "../check.js";
import { MAYBE_TOO_LARGE, NOT_A_NUMBER, numberEnd, readNumber, scanNumber } from "./json-number.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

// Keys the fast way takes; any other key goes to JSON.parse (and is refused there with its name).
const FIELDS = new Set(["id", "values", "metadata", "sparse_values", "sparseValues"]);

let at = 0; // position of the reader in the current line

function skipSpace(buf: Uint8Array, end: number): void {
  let c = buf[at];
  while (at < end && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d)) c = buf[++at];
}

/** End of a string's contents that has no escape and no control character (at: its opening quote); -1 otherwise. */
function plainStringEnd(buf: Uint8Array, end: number): number {
  for (let i = at + 1; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH || c < 0x20) return -1;
  }
  return -1;
}

/** Skips any JSON value from `at` (strings, nesting); JSON.parse judges whether it is valid. False at a dead end. */
function skipValue(buf: Uint8Array, end: number): boolean {
  let depth = 0;
  while (at < end) {
    const c = buf[at];
    if (c === QUOTE) {
      at++;
      while (at < end && buf[at] !== QUOTE) at += buf[at] === BACKSLASH ? 2 : 1;
      if (at >= end) return false;
      at++;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      at++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) return true;
      depth--;
      at++;
    } else if (c === COMMA && depth === 0) {
      return true;
    } else at++;
    if (depth === 0 && (c === QUOTE || c === CLOSE_BRACE || c === CLOSE_BRACKET)) return true;
  }
  return depth === 0;
}

function readValues(buf: Uint8Array, end: number): number[] | undefined {
  at++; // "["
  const values: number[] = [];
  skipSpace(buf, end);
  if (buf[at] === CLOSE_BRACKET && at < end) {
    at++;
    return values;
  }
  for (;;) {
    if (at >= end) return undefined;
    const value = readNumber(buf, at, end);
    if (Number.isNaN(value)) return undefined; // not a number here
    values.push(value);
    at = numberEnd;
    skipSpace(buf, end);
    if (at >= end) return undefined;
    const c = buf[at++];
    if (c === CLOSE_BRACKET) return values;
    if (c !== COMMA) return undefined;
    skipSpace(buf, end);
  }
}

/**
 * The dense values at `at` only checked, not read (scanNumber): how many there are, all known to be 32-bit floats;
 * undefined to take the long way (bad syntax, or a value too large for a float32, which the checker must name).
 */
function scanValues(buf: Uint8Array, end: number): ScannedValues | undefined {
  at++; // "["
  let count = 0;
  skipSpace(buf, end);
  if (buf[at] === CLOSE_BRACKET && at < end) {
    at++;
    return new ScannedValues(0);
  }
  for (;;) {
    if (at >= end) return undefined;
    let next = scanNumber(buf, at, end);
    if (next === MAYBE_TOO_LARGE) {
      const value = readNumber(buf, at, end);
      if (Math.fround(value) !== value || value === Infinity || value === -Infinity) return undefined;
      next = numberEnd;
    }
    if (next === NOT_A_NUMBER) return undefined;
    count++;
    at = next;
    skipSpace(buf, end);
    if (at >= end) return undefined;
    const c = buf[at++];
    if (c === CLOSE_BRACKET) return new ScannedValues(count);
    if (c !== COMMA) return undefined;
    skipSpace(buf, end);
  }
}

/**
 * The object a JSON.parse of the line would give (dense values rounded to float32), or undefined when the line is
 * not in the shape this reader takes. With `scan`, dense values are only checked and counted (ScannedValues): for
 * the check pass, which needs no more.
 */
export function readRecordLine(buf: Buffer, start: number, end: number, scan = false): Record<string, unknown> | undefined {
  at = start;
  skipSpace(buf, end);
  if (buf[at] !== OPEN_BRACE || at >= end) return undefined;
  at++;
  const record: Record<string, unknown> = {};
  skipSpace(buf, end);
  if (buf[at] === CLOSE_BRACE && at < end) {
    at++;
  } else {
    for (;;) {
      if (buf[at] !== QUOTE || at >= end) return undefined;
      const keyEnd = plainStringEnd(buf, end);
      if (keyEnd < 0) return undefined;
      const key = buf.toString("latin1", at + 1, keyEnd);
      if (!FIELDS.has(key) || key in record) return undefined;
      at = keyEnd + 1;
      skipSpace(buf, end);
      if (buf[at] !== COLON || at >= end) return undefined;
      at++;
      skipSpace(buf, end);
      if (at >= end) return undefined;
      if (key === "values" && buf[at] === OPEN_BRACKET) {
        const values = scan ? scanValues(buf, end) : readValues(buf, end);
        if (values === undefined) return undefined;
        record.values = values;
      } else if (key === "id" && buf[at] === QUOTE) {
        const idEnd = plainStringEnd(buf, end);
        if (idEnd < 0) return undefined;
        record.id = buf.toString("utf8", at + 1, idEnd);
        at = idEnd + 1;
      } else {
        const valueStart = at;
        if (!skipValue(buf, end)) return undefined;
        try {
          record[key] = JSON.parse(buf.toString("utf8", valueStart, at));
        } catch {
          return undefined;
        }
      }
      skipSpace(buf, end);
      if (at >= end) return undefined;
      const c = buf[at++];
      if (c === CLOSE_BRACE) break;
      if (c !== COMMA) return undefined;
      skipSpace(buf, end);
    }
  }
  skipSpace(buf, end);
  return at === end ? record : undefined;
}

export interface TranscodedLine {
  id: string;
  length: number; // bytes of the record's JSON, written at the start of `out`
}

/** Room `out` must have for a line of `lineBytes` bytes: a value takes at most 24 bytes, an id byte at most 3. */
export function transcodeRoom(lineBytes: number): number {
  return 24 * lineBytes + 64;
}

const KEY_JSON: Record<string, Buffer> = { id: Buffer.from('"id":'), values: Buffer.from('"values":'), metadata: Buffer.from('"metadata":') };

/**
 * Writes the line's record as the JSON sent to the service — `{"id":…,"values":[…],"metadata":…}` in the line's key
 * order, values as shortest float32 decimals, metadata as JSON.stringify writes it — at the start of `out` (which
 * has transcodeRoom bytes). Undefined when the line is not a plain dense record (no id or values, sparse values,
 * anything readRecordLine would not take, a value that is not a finite float32): the caller takes the long way.
 */
export function transcodeRecordLine(buf: Buffer, start: number, end: number, out: Buffer): TranscodedLine | undefined {
  at = start;
  skipSpace(buf, end);
  if (buf[at] !== OPEN_BRACE || at >= end) return undefined;
  at++;
  let o = 0;
  out[o++] = OPEN_BRACE;
  let id: string | undefined;
  let values = false;
  let metadata = false;
  skipSpace(buf, end);
  for (;;) {
    if (buf[at] !== QUOTE || at >= end) return undefined;
    const keyEnd = plainStringEnd(buf, end);
    if (keyEnd < 0) return undefined;
    const key = buf.toString("latin1", at + 1, keyEnd);
    const keyJson = KEY_JSON[key];
    if (keyJson === undefined || (key === "id" ? id !== undefined : key === "values" ? values : metadata)) return undefined;
    at = keyEnd + 1;
    skipSpace(buf, end);
    if (buf[at] !== COLON || at >= end) return undefined;
    at++;
    skipSpace(buf, end);
    if (at >= end) return undefined;
    const fieldStart = o;
    if (o > 1) out[o++] = COMMA;
    o += keyJson.copy(out, o);
    if (key === "values") {
      if (buf[at] !== OPEN_BRACKET) return undefined;
      o = transcodeValues(buf, end, out, o);
      if (o < 0) return undefined;
      values = true;
    } else if (key === "id") {
      if (buf[at] !== QUOTE) return undefined;
      const idEnd = plainStringEnd(buf, end);
      if (idEnd < 0) return undefined;
      let ascii = true;
      for (let i = at + 1; i < idEnd; i++) if (buf[i] >= 0x80) ascii = false;
      if (ascii) {
        id = buf.toString("latin1", at + 1, idEnd);
        o += buf.copy(out, o, at, idEnd + 1);
      } else {
        id = buf.toString("utf8", at + 1, idEnd); // as decoding the whole line would read it (invalid bytes → U+FFFD)
        o += out.write(JSON.stringify(id), o, "utf8");
      }
      at = idEnd + 1;
    } else {
      const valueStart = at;
      if (!skipValue(buf, end)) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(buf.toString("utf8", valueStart, at));
      } catch {
        return undefined;
      }
      if (parsed === null) o = fieldStart; // null metadata is left out, as the record reader does
      else if (typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
      else o += out.write(JSON.stringify(parsed), o, "utf8");
      metadata = true;
    }
    skipSpace(buf, end);
    if (at >= end) return undefined;
    const c = buf[at++];
    if (c === CLOSE_BRACE) break;
    if (c !== COMMA) return undefined;
    skipSpace(buf, end);
  }
  skipSpace(buf, end);
  if (at !== end || id === undefined || !values) return undefined;
  out[o++] = CLOSE_BRACE;
  return { id, length: o };
}

/** The values array at `at` written to out[o…] as shortest float32 decimals; the new o, or -1 to take the long way. */
function transcodeValues(buf: Uint8Array, end: number, out: Buffer, o: number): number {
  at++; // "["
  out[o++] = OPEN_BRACKET;
  skipSpace(buf, end);
  if (buf[at] === CLOSE_BRACKET && at < end) {
    at++;
    out[o++] = CLOSE_BRACKET;
    return o;
  }
  for (let first = true; ; first = false) {
    if (at >= end) return -1;
    const value = readNumber(buf, at, end);
    // NaN: not a number here; a value that fround changes (it came back unrounded) or ±Infinity: not a float32
    if (Math.fround(value) !== value || value === Infinity || value === -Infinity) return -1;
    if (!first) out[o++] = COMMA;
    o = writeFloat32(out, o, value);
    at = numberEnd;
    skipSpace(buf, end);
    if (at >= end) return -1;
    const c = buf[at++];
    if (c === CLOSE_BRACKET) {
      out[o++] = CLOSE_BRACKET;
      return o;
    }
    if (c !== COMMA) return -1;
    skipSpace(buf, end);
  }
}
