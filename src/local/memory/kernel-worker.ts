// A second core for the int8 pass: one worker thread scores part of the rows of a query while this thread scores the
// rest, on the same shared WebAssembly memories. The search path is synchronous (a query is answered in one turn of
// the event loop), so the hand-off is too: the job is written to a shared control array, the worker is woken with
// Atomics.notify, and this thread waits with Atomics.wait once its own share is done. A worker that does not answer
// in time is given up and its share scored here — a query is never lost to it.
//
// Written by hand because the pieces are particular: worker pools from npm hand out promises (the caller here cannot
// await), and the kernel's memories must be registered with the worker once, not sent with each query.
import { availableParallelism } from "node:os";
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { moduleBytes, type WebAssembly } from "./kernel.js";

/** A range of rows of one registered memory to score. */
export interface Segment {
  memory: WebAssembly.Memory;
  rowsOffset: number;
  rowBytes: number;
  first: number;
  count: number;
  queryOffset: number;
  scoresOffset: number;
}

const IDLE = 0;
const RUNNING = 1;
const DONE = 2;
const FAILED = 3;
/** ctrl: [state, ready, segments, then per segment: memory id, rowsOffset, rowBytes, first, count, queryOffset, scoresOffset] */
const HEADER = 3;
const FIELDS = 7;
const MAX_SEGMENTS = 4096;
/** Waiting longer than this for the worker means it is gone. */
const WAIT_MS = 10_000;

// CommonJS, evaluated as the worker's whole program (no file to find next to a bundle).
const WORKER_SOURCE = `
const { workerData, receiveMessageOnPort } = require("node:worker_threads");
const { ctrl: shared, port, bytes } = workerData;
const ctrl = new Int32Array(shared);
const module = new WebAssembly.Module(bytes);
const kernels = new Map();
const drain = () => {
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
    const { id, memory } = m.message;
    if (memory) kernels.set(id, new WebAssembly.Instance(module, { m: { mem: memory } }).exports.dot8);
    else kernels.delete(id);
  }
};
Atomics.store(ctrl, 1, 1);
for (;;) {
  Atomics.wait(ctrl, 0, ${IDLE});
  if (Atomics.load(ctrl, 0) !== ${RUNNING}) continue;
  drain();
  let state = ${DONE};
  const n = ctrl[2];
  for (let s = 0; s < n; s++) {
    const o = ${HEADER} + s * ${FIELDS};
    const dot8 = kernels.get(ctrl[o]);
    if (!dot8) { state = ${FAILED}; break; }
    const rowBytes = ctrl[o + 2], first = ctrl[o + 3];
    dot8(ctrl[o + 5], ctrl[o + 1] + first * rowBytes, ctrl[o + 4], rowBytes, ctrl[o + 6] + first * 4);
  }
  Atomics.store(ctrl, 0, state);
  Atomics.notify(ctrl, 0);
}
`;

class KernelWorker {
  private readonly ctrl = new Int32Array(new SharedArrayBuffer((HEADER + MAX_SEGMENTS * FIELDS) * 4));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private readonly ids = new WeakMap<WebAssembly.Memory, number>();
  private readonly forget = new FinalizationRegistry<number>((id) => this.port.postMessage({ id }));
  private nextId = 1;
  broken = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ctrl: this.ctrl.buffer, port: port2, bytes: moduleBytes() }, transferList: [port2] });
    this.worker.unref();
    this.port.unref();
    this.worker.on("error", () => (this.broken = true));
    this.worker.on("exit", () => (this.broken = true));
  }

  get ready(): boolean {
    return !this.broken && Atomics.load(this.ctrl, 1) === 1;
  }

  private idOf(memory: WebAssembly.Memory): number {
    let id = this.ids.get(memory);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(memory, id);
      this.port.postMessage({ id, memory });
      this.forget.register(memory, id);
    }
    return id;
  }

  /** Starts the worker on `segments` (at most MAX_SEGMENTS); `finish` waits for it. */
  start(segments: Segment[]): void {
    const c = this.ctrl;
    c[2] = segments.length;
    segments.forEach((s, i) => {
      const o = HEADER + i * FIELDS;
      c[o] = this.idOf(s.memory);
      c[o + 1] = s.rowsOffset;
      c[o + 2] = s.rowBytes;
      c[o + 3] = s.first;
      c[o + 4] = s.count;
      c[o + 5] = s.queryOffset;
      c[o + 6] = s.scoresOffset;
    });
    Atomics.store(c, 0, RUNNING);
    Atomics.notify(c, 0);
  }

  /** Whether the worker scored its segments; false means the caller must score them. */
  finish(): boolean {
    const c = this.ctrl;
    const outcome = Atomics.wait(c, 0, RUNNING, WAIT_MS);
    const state = Atomics.load(c, 0);
    Atomics.store(c, 0, IDLE);
    if (outcome === "timed-out" || state !== DONE) {
      if (outcome === "timed-out") {
        this.broken = true;
        void this.worker.terminate();
      }
      return false;
    }
    return true;
  }
}

let worker: KernelWorker | undefined;

/** The worker, started on first use; undefined on a single core, while it starts, or once it failed. */
export function kernelWorker(): KernelWorker | undefined {
  if (availableParallelism() < 2) return undefined;
  if (!worker) {
    try {
      worker = new KernelWorker();
    } catch {
      return undefined;
    }
  }
  return worker.ready ? worker : undefined;
}

export type { KernelWorker };
