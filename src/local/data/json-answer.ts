// The data plane's answers, written as JSON in slices. A query of topK 1000 with the values of a 768-d index is a
// ~9 MB answer: converting its 768,000 float32 values to doubles and JSON.stringify of the whole held the service's
// one event loop for most of a second, several such answers at once for seconds, and no other call to any index or
// to the control plane (a list_indexes) was answered meanwhile. Here the answer is written SLICE_BYTES at a time with
// the loop free between slices, each float32 written as its shortest decimal straight into the bytes (writeFloat32:
// no double, no string per value), and the writing waits while the client does not read. An answer that fits in one
// slice goes out whole with its Content-Length, as before. The bytes are JSON.stringify's, value for value.
//
// Why by hand and not a streaming stringifier from npm (json-stream-stringify and the like): what costs is the values,
// and those go from float32 to digits here without becoming numbers; a general stringifier would need them as arrays
// of doubles first (the conversion this removes), and yields per item through streams rather than per 64 KiB.
import type { ServerResponse } from "node:http";
import { setImmediate as nextTurn } from "node:timers/promises";
import { float32Doubles, writeFloat32 } from "../../common/float32.js";

/** How much JSON is written between two turns of the event loop. */
const SLICE_BYTES = 64 * 1024;
/** The most bytes one float32 takes (writeFloat32) and its comma. */
const FLOAT_BYTES = 25;

/** Stored float32 values in an answer: written as digits by the sliced writer, as their doubles by JSON.stringify. */
export class Float32Json {
  constructor(readonly values: Float32Array) {}
  toJSON(): number[] {
    return float32Doubles(this.values);
  }
}

/**
 * A part of an answer made when the writer reaches it: the records a query answers are read from lmdb as they are
 * written, in the writer's slices, not all before the first byte (1,000 reads were the longest hold of the loop left).
 */
export class DeferredJson {
  constructor(readonly make: () => unknown) {}
  toJSON(): unknown {
    const made = this.make();
    return made instanceof DeferredJson || made instanceof Float32Json ? made.toJSON() : made; // JSON.stringify calls toJSON once
  }
}

/** The JSON bytes of `value` as JSON.stringify writes them: slices of about SLICE_BYTES, then the rest as its return. */
function* jsonSlices(value: unknown): Generator<Buffer, Buffer> {
  let buf = Buffer.allocUnsafe(SLICE_BYTES * 2);
  let pos = 0;
  const room = (bytes: number) => {
    if (pos + bytes <= buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, pos + bytes));
    buf.copy(bigger, 0, 0, pos);
    buf = bigger;
  };
  const text = (s: string) => {
    room(s.length * 3);
    pos += buf.write(s, pos);
  };
  const byte = (b: number) => {
    room(1);
    buf[pos++] = b;
  };
  // A full slice is handed out and a new buffer begun (the one handed out is the socket's until written).
  function* full(): Generator<Buffer, void> {
    if (pos < SLICE_BYTES) return;
    const out = buf.subarray(0, pos);
    buf = Buffer.allocUnsafe(SLICE_BYTES * 2);
    pos = 0;
    yield out;
  }
  function* write(v: unknown): Generator<Buffer, void> {
    if (v instanceof DeferredJson) {
      yield* write(v.make());
    } else if (v instanceof Float32Json) {
      byte(0x5b); // [
      const values = v.values;
      for (let i = 0; i < values.length; i++) {
        room(FLOAT_BYTES);
        if (i > 0) buf[pos++] = 0x2c; // ,
        pos = writeFloat32(buf, pos, values[i]);
        if (pos >= SLICE_BYTES) yield* full();
      }
      byte(0x5d); // ]
    } else if (Array.isArray(v)) {
      byte(0x5b);
      for (let i = 0; i < v.length; i++) {
        if (i > 0) byte(0x2c);
        const item: unknown = v[i];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") text("null");
        else yield* write(item);
        yield* full();
      }
      byte(0x5d);
    } else if (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON !== "function") {
      byte(0x7b); // {
      let first = true;
      for (const key of Object.keys(v)) {
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
        if (!first) byte(0x2c);
        first = false;
        text(JSON.stringify(key));
        byte(0x3a); // :
        yield* write(item);
        yield* full();
      }
      byte(0x7d); // }
    } else {
      text(JSON.stringify(v)); // strings, numbers, booleans, null, and objects with their own toJSON
    }
  }
  yield* write(value);
  return buf.subarray(0, pos);
}

/**
 * Sends `body` as JSON: whole with its Content-Length when it fits in one slice; otherwise in slices (chunked), the
 * event loop free between them, waiting while the client does not read, stopping when it goes away. When `stop` is
 * aborted (the server closes) an answer still being written is cut off: a client that stopped reading must not hold
 * up a shutdown.
 */
export async function sendJsonInSlices(res: ServerResponse, status: number, body: unknown, stop?: AbortSignal): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status, { "content-length": "0" });
    res.end();
    return;
  }
  const slices = jsonSlices(body);
  const first = slices.next();
  if (first.done) {
    res.writeHead(status, { "content-type": "application/json", "content-length": String(first.value.length) });
    res.end(first.value);
    return;
  }
  res.writeHead(status, { "content-type": "application/json" });
  try {
    let slice: IteratorResult<Buffer, Buffer> = first;
    while (!slice.done) {
      if (!res.write(slice.value)) await drainedOrClosed(res, stop);
      // A turn of the loop after every slice, drained or not: a write the socket takes at once emits 'drain' on the
      // next tick, and slice after slice would then run on ticks without the loop ever getting to other work.
      await nextTurn();
      if (stop?.aborted) res.destroy();
      if (res.destroyed) return void slices.return(Buffer.alloc(0));
      slice = slices.next();
    }
    res.end(slice.value);
  } catch (e) {
    res.destroy(e as Error); // half an answer must not read as a whole one
    throw e;
  }
}

function drainedOrClosed(res: ServerResponse, stop: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      stop?.removeEventListener("abort", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
    stop?.addEventListener("abort", done);
  });
}
