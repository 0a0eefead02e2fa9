import { read } from "node:fs";
import { promisify } from "node:util";

const readAt = promisify(read);

/** A line as bytes: buf[start, end), without the newline, a CR before it, or the file's byte-order mark. */
export interface Line {
  number: number; // 1-based
  buf?: Buffer; // undefined when the line was longer than maxLineBytes (then `bytes` says how long)
  start: number;
  end: number;
  bytes: number;
}

/** The line decoded as UTF-8; undefined for a line that was too long to read. */
export function lineText(line: Line): string | undefined {
  return line.buf?.toString("utf8", line.start, line.end);
}

const NL = 10;
const CR = 13;

function isBlankBytes(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b !== 32 && b !== 9 && b !== CR) return false;
  }
  return true;
}

/**
 * The bytes of [start, end) of an open file, chunk by chunk, by positional reads: the descriptor may be shared by
 * several readers at once (worker threads), so none moves its file position. Each chunk is a fresh buffer (lines
 * handed out are views of it).
 */
/**
 * An open file as the readers take it: an OpenedFile (safe-open.ts) — whose handle the reader then keeps alive, so
 * it is not closed by the garbage collector mid-read — or, in a worker thread, the bare descriptor number.
 */
export interface Descriptor {
  readonly fd: number;
}

async function* readChunks(file: Descriptor, o: { start?: number; end?: number; chunkBytes?: number } = {}): AsyncGenerator<Buffer> {
  const size = o.chunkBytes ?? 1024 * 1024;
  for (let pos = o.start ?? 0; o.end === undefined || pos < o.end; ) {
    const want = o.end === undefined ? size : Math.min(size, o.end - pos);
    const buf = Buffer.allocUnsafe(want);
    const { bytesRead } = await readAt(file.fd, buf, 0, want, pos);
    if (bytesRead === 0) return;
    pos += bytesRead;
    yield bytesRead === want ? buf : buf.subarray(0, bytesRead);
  }
}

/**
 * Splits a file (an open descriptor) into lines with bounded memory: a line is held only while it is being read, and
 * a line longer than `maxLineBytes` is counted and skipped, never buffered. Lines before `startAt` are not decoded at all.
 * Hand-written instead of node:readline: measured ~1.2–1.5× faster on 100k records of dimension 768.
 */
export async function* readLines(
  file: Descriptor,
  opts: { startAt?: number; maxLineBytes?: number; chunkBytes?: number; start?: number; end?: number } = {},
): AsyncGenerator<Line> {
  const startAt = opts.startAt ?? 1;
  const maxLineBytes = opts.maxLineBytes ?? 16 * 1024 * 1024;
  // A byte range [start, end) of the file (the parallel check reads one per worker): numbers count from its start.
  const start = opts.start ?? 0;
  if (opts.end !== undefined && opts.end <= start) return;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let number = 1;
  let first = start === 0;
  for await (const chunk of readChunks(file, { start, end: opts.end, chunkBytes: opts.chunkBytes })) {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      const end = nl === -1 ? chunk.length : nl;
      if (number < startAt) {
        // skipping: no decoding, no buffering
      } else if (tooLong) {
        pendingBytes += end - pos;
      } else if (pendingBytes + (end - pos) > maxLineBytes) {
        tooLong = true;
        pending = [];
        pendingBytes += end - pos;
      } else if (nl === -1 || pendingBytes > 0) {
        pending.push(chunk.subarray(pos, end));
        pendingBytes += end - pos;
      } else {
        pendingBytes = end - pos;
      }
      if (nl === -1) break;
      if (number >= startAt) {
        yield makeLine(number, pending.length ? Buffer.concat(pending) : chunk, pending.length ? 0 : pos, pending.length ? pendingBytes : end, tooLong, pendingBytes, first);
      }
      first = false;
      number++;
      pending = [];
      pendingBytes = 0;
      tooLong = false;
      pos = nl + 1;
    }
  }
  if ((pendingBytes > 0 || tooLong) && number >= startAt) {
    const buf = Buffer.concat(pending);
    yield makeLine(number, buf, 0, buf.length, tooLong, pendingBytes, first);
  }
}

// The line is handed out as a view of the chunk it lies in (no copy, no decoding): the consumer reads it before
// asking for the next one.
function makeLine(number: number, buf: Buffer, start: number, end: number, tooLong: boolean, bytes: number, first: boolean): Line {
  if (tooLong) return { number, start: 0, end: 0, bytes };
  if (end > start && buf[end - 1] === CR) end--;
  // a UTF-8 byte-order mark at the start of the file is not part of the first record
  if (first && end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
  return { number, buf, start, end, bytes };
}

/** Number of non-blank lines, without decoding any of them. */
export async function countNonBlankLines(file: Descriptor): Promise<number> {
  let count = 0;
  let lineHasContent = false;
  for await (const chunk of readChunks(file)) {
    let pos = 0;
    while (pos <= chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      const end = nl === -1 ? chunk.length : nl;
      if (!lineHasContent && end > pos && !isBlankBytes(chunk, pos, end)) lineHasContent = true;
      if (nl === -1) break;
      if (lineHasContent) count++;
      lineHasContent = false;
      pos = nl + 1;
    }
  }
  if (lineHasContent) count++;
  return count;
}
