// Reading JSON from bytes a step at a time: the pieces that the fast readers of records are made of — the import's
// JSONL lines (src/ingest/sources/record-line.ts) and the local service's upsert bodies
// (src/local/data/upsert-body.ts). Both read the usual shape of a record themselves and leave anything else to
// JSON.parse; this module only moves a cursor. It imports nothing, so both sides of the package may use it.

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

/** Returned by parsedValue when the bytes are not one JSON value. */
export const NOT_JSON = Symbol("not JSON");

/** A cursor over buf[at, end). Methods that can fail return false / -1 / undefined and leave `at` anywhere. */
export class JsonBytes {
  buf: Buffer = Buffer.alloc(0);
  at = 0;
  end = 0;

  reset(buf: Buffer, start: number, end: number): this {
    this.buf = buf;
    this.at = start;
    this.end = end;
    return this;
  }

  skipSpace(): void {
    const { buf, end } = this;
    let at = this.at;
    let c = buf[at];
    while (at < end && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d)) c = buf[++at];
    this.at = at;
  }

  /** The byte at the cursor, or -1 at the end. */
  peek(): number {
    return this.at < this.end ? this.buf[this.at] : -1;
  }

  /** End of the string at the cursor (its opening quote) when it has no escape and no control character; else -1. */
  plainStringEnd(): number {
    const { buf, end } = this;
    for (let i = this.at + 1; i < end; i++) {
      const c = buf[i];
      if (c === QUOTE) return i;
      if (c === BACKSLASH || c < 0x20) return -1;
    }
    return -1;
  }

  /** At an opening "[" or "{": moves inside it; false when it is empty (the cursor then past its `close`). */
  enter(close: number): boolean {
    this.at++;
    this.skipSpace();
    if (this.peek() !== close) return true;
    this.at++;
    return false;
  }

  /** A plain key and its colon (cursor after them, on the value); undefined when there is none. */
  key(): string | undefined {
    if (this.peek() !== QUOTE) return undefined;
    const keyEnd = this.plainStringEnd();
    if (keyEnd < 0) return undefined;
    const key = this.buf.toString("latin1", this.at + 1, keyEnd);
    this.at = keyEnd + 1;
    this.skipSpace();
    if (this.peek() !== COLON) return undefined;
    this.at++;
    this.skipSpace();
    return this.at < this.end ? key : undefined;
  }

  /** After a member: "," (true, cursor on the next key) or the closing `close` (false); undefined otherwise. */
  nextMember(close: number): boolean | undefined {
    this.skipSpace();
    const c = this.peek();
    this.at++;
    if (c === close) return false;
    if (c !== COMMA) return undefined;
    this.skipSpace();
    return true;
  }

  /** Moves past any JSON value (strings, nesting) without judging it; false at a dead end. */
  skipValue(): boolean {
    const { buf, end } = this;
    let at = this.at;
    let depth = 0;
    while (at < end) {
      const c = buf[at];
      if (c === QUOTE) {
        at++;
        while (at < end && buf[at] !== QUOTE) at += buf[at] === BACKSLASH ? 2 : 1;
        if (at >= end) {
          this.at = end;
          return false; // an unterminated string
        }
        at++;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        at++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) break;
        depth--;
        at++;
      } else if (c === COMMA && depth === 0) {
        break;
      } else at++;
      if (depth === 0 && (c === QUOTE || c === CLOSE_BRACE || c === CLOSE_BRACKET)) break;
    }
    this.at = at;
    return depth === 0;
  }

  /** The JSON value at the cursor as JSON.parse reads it (cursor after it), or NOT_JSON. */
  parsedValue(): unknown {
    const start = this.at;
    if (!this.skipValue()) return NOT_JSON;
    try {
      return JSON.parse(this.buf.toString("utf8", start, this.at));
    } catch {
      return NOT_JSON;
    }
  }
}
