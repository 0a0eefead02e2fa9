// A fetch answer ({"vectors": {id: record, …}, "namespace": …, "usage": …}) split into each record's own JSON text,
// without reading its numbers: a copy sends the records on as the source wrote them, so the values arrive on the target
// exactly as the source spelled them, and a page of 1,000 × 768 values costs a scan for brackets and quotes instead of
// parsing and printing 768,000 numbers. The scan checks the structure it walks (objects, arrays, strings, the records'
// fields); a record with a field an upsert does not take, or a null one, is marked so that the caller parses it.

/** One record's JSON text, and whether it holds only fields an upsert takes as they are (id, values, sparseValues, metadata). */
export interface RawRecord {
  json: string;
  plain: boolean;
}

const UPSERT_FIELDS = new Set(["id", "values", "sparseValues", "metadata"]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

class Shape extends Error {}

function skipSpace(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** Index after the string that starts at i (a quote). */
function endOfString(s: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = s.indexOf('"', j);
    if (q < 0) throw new Shape("a string does not end");
    let slashes = 0;
    for (let k = q - 1; s.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index after the value that starts at i (any JSON value; objects and arrays by their brackets, strings skipped). */
function endOfValue(s: string, i: number): number {
  const first = s.charCodeAt(i);
  if (first === QUOTE) return endOfString(s, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let j = i;
    for (;;) {
      const c = s.charCodeAt(j);
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || Number.isNaN(c)) break;
      j++;
    }
    if (j === i) throw new Shape("a value is missing");
    return j;
  }
  const closers: number[] = [];
  for (let j = i; j < s.length; ) {
    const c = s.charCodeAt(j);
    if (c === QUOTE) j = endOfString(s, j);
    else {
      if (c === OPEN_OBJECT) closers.push(CLOSE_OBJECT);
      else if (c === OPEN_ARRAY) closers.push(CLOSE_ARRAY);
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (closers.pop() !== c) throw new Shape("brackets do not match");
        if (closers.length === 0) return j + 1;
      }
      // Numbers, commas and the rest skipped natively, not a character at a time.
      PLAIN_RUN.lastIndex = j + 1;
      PLAIN_RUN.test(s);
      j = PLAIN_RUN.lastIndex;
    }
  }
  throw new Shape("an object or list does not end");
}

/** A run of characters that neither open nor close anything. */
const PLAIN_RUN = /[^"[\]{}]*/y;

/**
 * Walks the members of the object at i: `value(key, start)` reads each member's value from `start` and returns the
 * index after it. Returns the index after the object.
 */
function members(s: string, i: number, value: (key: string, start: number) => number): number {
  if (s.charCodeAt(i) !== OPEN_OBJECT) throw new Shape("an object was expected");
  i = skipSpace(s, i + 1);
  if (s.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
  for (;;) {
    if (s.charCodeAt(i) !== QUOTE) throw new Shape("a field name was expected");
    const keyEnd = endOfString(s, i);
    const key = JSON.parse(s.slice(i, keyEnd)) as string;
    i = skipSpace(s, keyEnd);
    if (s.charCodeAt(i) !== COLON) throw new Shape(`":" was expected after ${JSON.stringify(key)}`);
    i = skipSpace(s, value(key, skipSpace(s, i + 1)));
    const c = s.charCodeAt(i);
    if (c === CLOSE_OBJECT) return i + 1;
    if (c !== COMMA) throw new Shape('"," or "}" was expected');
    i = skipSpace(s, i + 1);
  }
}

/** The records of a fetch answer by id; throws an Error saying what is wrong when it is not one. */
export function recordsOfFetchAnswer(text: string): Map<string, RawRecord> {
  const records = new Map<string, RawRecord>();
  try {
    const record = (id: string, from: number): number => {
      if (text.charCodeAt(from) !== OPEN_OBJECT) throw new Shape(`record ${JSON.stringify(id)} is not an object`);
      let plain = true;
      const to = members(text, from, (field, start) => {
        const end = endOfValue(text, start);
        if (!UPSERT_FIELDS.has(field) || (end - start === 4 && text.startsWith("null", start))) plain = false;
        return end;
      });
      records.set(id, { json: text.slice(from, to), plain });
      return to;
    };
    const end = members(text, skipSpace(text, 0), (key, start) => (key === "vectors" ? members(text, start, record) : endOfValue(text, start)));
    if (skipSpace(text, end) !== text.length) throw new Shape("text follows the answer");
  } catch (err) {
    if (err instanceof Shape || err instanceof SyntaxError) throw new Error(`not a fetch answer: ${err.message}`);
    throw err;
  }
  return records;
}
