// Where the approximate indexes' graphs live: a worker thread (search/ann-worker.ts), so that building them never
// holds up the event loop. The service posts batches to add and searches to answer; the worker handles them in
// order and answers each. Started on the first namespace that needs a graph; if the worker or the native library in
// it cannot start, start() rejects with the reason (search/approximate.ts logs it once and stays exact).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { AnnOptions } from "./ann-library.js";

export type ToWorker =
  | { t: "create"; id: number; options: AnnOptions }
  | { t: "drop"; id: number }
  | { t: "update"; id: number; seq: number; remove: BigUint64Array; keys: BigUint64Array; rows: Float32Array; threads: number }
  | { t: "search"; id: number; seq: number; vector: Float32Array; k: number }
  | { t: "close" };

type FromWorker =
  | { t: "ready"; name: string }
  | { t: "failed"; message: string }
  | { t: "done"; seq: number; ms?: number; size?: number; keys?: BigUint64Array }
  | { t: "error"; seq: number; message: string };

export interface GraphThread {
  /** The native library, for the log ("usearch 2.25.3"). */
  readonly name: string;
  create(options: AnnOptions): number;
  /** Removes `remove`, then adds `keys` (rows of `dimensions` floats back to back); resolves with the native time.
   * The three arrays are moved to the worker: the caller must not use them afterwards. */
  update(id: number, remove: BigUint64Array, keys: BigUint64Array, rows: Float32Array, threads: number): Promise<{ ms: number; size: number }>;
  /** Up to k keys nearest to the vector, nearest first, after every update sent before it. */
  search(id: number, vector: Float32Array, k: number): Promise<BigUint64Array>;
  drop(id: number): void;
  /** Ends the worker once the native call it is in returns (resolves when it has). */
  close(): Promise<void>;
}

/**
 * How long close() waits for the worker to end by itself before terminating it. Terminating a worker inside a native
 * call is what close() avoids: the library's calls then fail to make their results, throw from C++, and abort the
 * whole process ("terminate called after throwing an instance of 'Napi::Error'"). A batch takes ~10 ms.
 */
const CLOSE_WAIT_MS = 10_000;

export type GraphThreadLoader = () => Promise<GraphThread>;

/** The worker's entry: next to this module when built (the bundle: dist/bundle/ann-worker.js), else the source. */
function workerFor(): Worker {
  const built = new URL("./ann-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built);
  // running from the TypeScript sources (tests, benches): the worker compiles its source with tsx as they do
  const source = new URL("./ann-worker.ts", import.meta.url).href;
  return new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`, { eval: true });
}

export const startGraphThread: GraphThreadLoader = () =>
  new Promise((resolve, reject) => {
    const worker = workerFor();
    // it keeps the process alive only while it owes an answer
    worker.unref();
    const waiting = new Map<number, { resolve: (m: FromWorker & { t: "done" }) => void; reject: (e: Error) => void }>();
    let seq = 0;
    let nextId = 0;
    let broken: Error | undefined;
    const fail = (e: Error) => {
      broken ??= e;
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
      reject(e); // (no effect once started)
    };
    worker.on("error", (e) => fail(e));
    worker.on("exit", (code) => fail(new Error(`the approximate index's worker stopped (exit code ${code})`)));
    const exited = new Promise<void>((done) => worker.once("exit", () => done())); // (also when it ended before close)
    let closing: Promise<void> | undefined;
    const ask = (message: ToWorker & { seq: number }, transfer: ArrayBuffer[] = []) =>
      new Promise<FromWorker & { t: "done" }>((res, rej) => {
        if (broken) return rej(broken);
        if (waiting.size === 0) worker.ref();
        waiting.set(message.seq, { resolve: res, reject: rej });
        worker.postMessage(message, transfer);
      });
    worker.on("message", (m: FromWorker) => {
      if (m.t === "failed") {
        void worker.terminate();
        reject(new Error(m.message));
        return;
      }
      if (m.t === "ready") {
        resolve({
          name: m.name,
          create(options) {
            const id = ++nextId;
            worker.postMessage({ t: "create", id, options } satisfies ToWorker);
            return id;
          },
          async update(id, remove, keys, rows, threads) {
            // the batch's arrays are the caller's to give away: moved, not copied
            const done = await ask({ t: "update", id, seq: ++seq, remove, keys, rows, threads }, [remove.buffer, keys.buffer, rows.buffer] as ArrayBuffer[]);
            return { ms: done.ms ?? 0, size: done.size ?? 0 };
          },
          async search(id, vector, k) {
            return (await ask({ t: "search", id, seq: ++seq, vector, k })).keys ?? new BigUint64Array(0);
          },
          drop(id) {
            if (!broken) worker.postMessage({ t: "drop", id } satisfies ToWorker);
          },
          close() {
            broken ??= new Error("closed");
            if (closing) return closing;
            worker.postMessage({ t: "close" } satisfies ToWorker); // handled after the message it is on
            const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
            timer.unref();
            return (closing = exited.finally(() => clearTimeout(timer)));
          },
        });
        return;
      }
      const w = waiting.get(m.seq);
      if (!w) return;
      waiting.delete(m.seq);
      if (waiting.size === 0) worker.unref();
      if (m.t === "error") w.reject(new Error(m.message));
      else w.resolve(m);
    });
  });
