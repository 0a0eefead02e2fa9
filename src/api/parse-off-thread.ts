// Large answers are parsed on a worker thread. JSON.parse of a query of topK 1000 with the values of a 768-d index
// (~9 MB) takes 150–400 ms, and on the main thread every session of an --http server waits for it: a list_indexes
// beside a few such answers waited seconds. The worker gets the answer's bytes (moved, not copied), parses them, and
// sends the value back with each long list of numbers packed into one Float64Array (moved too); the main thread only
// puts the numbers back into arrays (a few ms for 768,000 values). What a tool gets is exactly JSON.parse's value.
//
// Why a hand-written pool of one or two workers and not a library (piscina, workerpool): a job is one message each
// way and the pool needs no queue policy, timeouts or task files; the worker is a few lines given as source (eval), so
// the bundle needs no second entry point.
import { availableParallelism } from "node:os";
import { setImmediate as nextTurn } from "node:timers/promises";
import { Worker } from "node:worker_threads";

/** Lists of at least this many numbers travel back packed. */
const PACKED_LENGTH = 16;

// The worker: bytes in; the value out, lists of numbers replaced by views of one Float64Array; or the parse error.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const decoder = new TextDecoder();
const isNumbers = (a) => { if (a.length < ${PACKED_LENGTH}) return false; for (let i = 0; i < a.length; i++) if (typeof a[i] !== "number") return false; return true; };
parentPort.on("message", ({ id, bytes }) => {
  let value;
  try { value = JSON.parse(decoder.decode(bytes)); } catch (e) { parentPort.postMessage({ id, error: String(e && e.message), bytes }, [bytes]); return; }
  const lists = [];
  let total = 0;
  const find = (v) => {
    if (Array.isArray(v)) { if (isNumbers(v)) { lists.push(v); total += v.length; } else for (const x of v) find(x); }
    else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) find(v[k]);
  };
  find(value);
  if (lists.length === 0) { parentPort.postMessage({ id, value }); return; }
  const numbers = new Float64Array(total);
  const views = new Map();
  let at = 0;
  for (const list of lists) { numbers.set(list, at); views.set(list, numbers.subarray(at, at + list.length)); at += list.length; }
  const swap = (v) => {
    if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) { const view = views.get(v[i]); if (view) v[i] = view; else swap(v[i]); } }
    else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) { const view = views.get(v[k]); if (view) Object.defineProperty(v, k, { value: view }); else swap(v[k]); }
  };
  swap(value);
  parentPort.postMessage({ id, value: views.get(value) ?? value }, [numbers.buffer]);
});
`;

interface Job {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Thrown when the bytes are not JSON (the message is JSON.parse's); the bytes come back with it. */
export class NotJsonError extends Error {
  constructor(
    message: string,
    readonly bytes: ArrayBuffer,
  ) {
    super(message);
  }
}

class ParserThread {
  private readonly worker: Worker;
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  broken = false;

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, stdout: false, stderr: false });
    this.worker.unref();
    this.worker.on("message", (m: { id: number; value?: unknown; error?: string; bytes?: ArrayBuffer }) => {
      const job = this.jobs.get(m.id);
      if (!job) return;
      this.jobs.delete(m.id);
      if (this.jobs.size === 0) this.worker.unref();
      if (m.error !== undefined) job.reject(new NotJsonError(m.error, m.bytes!));
      else job.resolve(m.value);
    });
    const fail = (e: Error) => {
      this.broken = true;
      for (const job of this.jobs.values()) job.reject(e);
      this.jobs.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`the JSON parser thread exited (code ${code})`)));
  }

  get pending(): number {
    return this.jobs.size;
  }

  parse(bytes: ArrayBuffer): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.jobs.set(id, { resolve, reject });
      this.worker.ref(); // a parse in progress keeps the process alive, an idle thread does not
      this.worker.postMessage({ id, bytes }, [bytes]);
    });
  }
}

const threads: ParserThread[] = [];
const THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));

/** The value of a JSON text of `bytes` (moved to the worker: unusable here afterwards), parsed on a worker thread. */
export async function parseOffThread(bytes: ArrayBuffer): Promise<unknown> {
  for (let i = threads.length - 1; i >= 0; i--) if (threads[i].broken) threads.splice(i, 1);
  let thread = threads.find((t) => t.pending === 0);
  if (!thread && threads.length < THREADS) threads.push((thread = new ParserThread()));
  thread ??= threads.reduce((a, b) => (b.pending < a.pending ? b : a));
  return unpack(await thread.parse(bytes));
}

/** How many numbers are put back into arrays between two turns of the event loop. */
const UNPACK_SLICE = 100_000;

/**
 * Puts the packed lists of numbers back into arrays (the worker's swap, undone), UNPACK_SLICE numbers a turn of the
 * loop, and returns on a turn of its own: what the caller then does with the value starts with the loop free.
 */
async function unpack(root: unknown): Promise<unknown> {
  if (root instanceof Float64Array) return numbersOf(root);
  const packed: { holder: Record<string, unknown> | unknown[]; key: string | number; view: Float64Array }[] = [];
  const find = (v: unknown) => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) (v[i] instanceof Float64Array ? packed.push({ holder: v, key: i, view: v[i] as Float64Array }) : find(v[i]));
    } else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) (o[k] instanceof Float64Array ? packed.push({ holder: o, key: k, view: o[k] as Float64Array }) : find(o[k]));
    }
  };
  find(root);
  let done = 0;
  for (const { holder, key, view } of packed) {
    // defineProperty: an own "__proto__" key stays a key (an assignment would set the prototype)
    if (Array.isArray(holder)) holder[key as number] = numbersOf(view);
    else Object.defineProperty(holder, key, { value: numbersOf(view), writable: true, enumerable: true, configurable: true });
    done += view.length;
    if (done >= UNPACK_SLICE) {
      done = 0;
      await nextTurn();
    }
  }
  await nextTurn();
  return root;
}

function numbersOf(view: Float64Array): number[] {
  const out = new Array<number>(view.length);
  for (let i = 0; i < view.length; i++) out[i] = view[i];
  return out;
}
