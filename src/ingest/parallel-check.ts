// The check pass of a large JSONL file on every core: the file is cut into byte ranges at line boundaries, one
// worker thread checks each (range-check.ts, the same per-record rules as file-check.ts) while streaming it, and
// the main thread merges what they found. The result is exactly the one-thread result of file-check.ts:
// - line numbers: each worker numbers its lines from 1 and says how many it read; ranges are merged in file order;
// - the first bad records: each range's first `maxShown`, concatenated in file order, cut to `maxShown`;
// - duplicate ids: the workers send their id-hash tables; a hash that repeats inside a range or across ranges
//   makes a second pass (as in one thread), in which the records with a repeated hash come back unsettled and the
//   main thread settles them in file order with the exact id strings. Where one thread would stop re-checking
//   exactly (past MAX_SUSPECTS repeated hashes), this returns undefined and the caller checks in one thread.
import { existsSync, fstat, read } from "node:fs";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { IndexModel } from "../api/records.js";
import type { BadRecord, FileCheck } from "./file-check-result.js";
import { hashKey, IdHashSet } from "./id-hashes.js";
import type { RangeResult, RangeTask } from "./range-check.js";
import type { Descriptor } from "./sources/lines.js";

export interface ParallelOptions {
  workers: number;
  /** Files (from startAt on) smaller than this are checked in one thread: starting a worker costs ~50 ms. */
  minBytes: number;
  /** The worker's entry; default check-worker.js next to this module (in the bundle: dist/bundle/check-worker.js). */
  workerUrl?: URL;
}

const NL = 10;
const SCAN_BYTES = 1024 * 1024;
// Positional reads through the file's one descriptor (shared with the workers): nothing here reopens the file.
const readAt = promisify(read);
const fstatOf = promisify(fstat);

/** The worker entry to use, or undefined when there is none (running from the .ts sources): then one thread. */
function defaultWorkerUrl(): URL | undefined {
  const url = new URL("./check-worker.js", import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : undefined;
}

/** Byte offset where line `startAt` begins, or undefined when the file has fewer lines. */
async function lineOffset(fd: number, startAt: number): Promise<number | undefined> {
  if (startAt <= 1) return 0;
  const buf = Buffer.allocUnsafe(SCAN_BYTES);
  let line = 1;
  for (let base = 0; ; ) {
    const { bytesRead } = await readAt(fd, buf, 0, buf.length, base);
    if (bytesRead === 0) return undefined;
    let pos = 0;
    for (;;) {
      const nl = buf.indexOf(NL, pos);
      if (nl === -1 || nl >= bytesRead) break;
      line++;
      if (line === startAt) return base + nl + 1;
      pos = nl + 1;
    }
    base += bytesRead;
  }
}

/** Cuts [from, size) into about `parts` ranges, each ending just past a newline (the last at the file's end). */
async function cut(fd: number, from: number, size: number, parts: number): Promise<[number, number][]> {
  const buf = Buffer.allocUnsafe(64 * 1024);
  const bounds = [from];
  for (let i = 1; i < parts; i++) {
    let at = Math.max(from + Math.floor(((size - from) * i) / parts), bounds[bounds.length - 1]);
    let found = -1;
    while (found === -1 && at < size) {
      const { bytesRead } = await readAt(fd, buf, 0, buf.length, at);
      if (bytesRead === 0) break;
      const nl = buf.subarray(0, bytesRead).indexOf(NL);
      if (nl !== -1) found = at + nl + 1;
      else at += bytesRead;
    }
    if (found === -1 || found >= size) break;
    if (found > bounds[bounds.length - 1]) bounds.push(found);
  }
  bounds.push(size);
  const ranges: [number, number][] = [];
  for (let i = 0; i + 1 < bounds.length; i++) ranges.push([bounds[i], bounds[i + 1]]);
  return ranges;
}

function runWorker(url: URL, task: RangeTask, signal: AbortSignal | undefined, workers: Set<Worker>, all: Set<Worker>): Promise<RangeResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: task });
    workers.add(worker);
    all.add(worker);
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      workers.delete(worker);
      fn();
    };
    worker.on("message", (m: { result?: RangeResult; error?: string }) =>
      done(() => (m.result ? resolve(m.result) : reject(new Error(m.error ?? "the check worker failed")))),
    );
    worker.on("error", (err) => done(() => reject(err)));
    worker.on("exit", (code) => done(() => reject(signal?.aborted ? signal.reason : new Error(`the check worker stopped (exit code ${code})`))));
  });
}

/**
 * All ranges checked at once; on abort or the first failure every worker is stopped — and waited for, since they
 * read through the caller's descriptor, which the caller closes once this returns.
 */
async function runAll(url: URL, tasks: RangeTask[], signal: AbortSignal | undefined): Promise<RangeResult[]> {
  signal?.throwIfAborted();
  const workers = new Set<Worker>();
  const all = new Set<Worker>();
  let stopped: Promise<unknown> | undefined;
  const stop = () => (stopped ??= Promise.all([...all].map((w) => w.terminate())));
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const results = await Promise.all(tasks.map((t) => runWorker(url, t, signal, workers, all)));
    signal?.throwIfAborted();
    return results;
  } catch (err) {
    await stop();
    signal?.throwIfAborted();
    throw err;
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

export async function checkJsonlInParallel(
  file: Descriptor,
  index: IndexModel,
  o: { startAt: number; maxShown: number; maxLineBytes: number; unit: string; maxSuspects: number; signal?: AbortSignal; parallel: ParallelOptions },
): Promise<FileCheck | undefined> {
  const url = o.parallel.workerUrl ?? defaultWorkerUrl();
  if (url === undefined || o.parallel.workers < 2) return undefined;
  const fd = file.fd;
  const { size } = await fstatOf(fd);
  if (size < o.parallel.minBytes) return undefined;
  const from = await lineOffset(fd, o.startAt);
  if (from === undefined || size - from < o.parallel.minBytes) return undefined;
  const ranges = await cut(fd, from, size, o.parallel.workers);
  if (ranges.length < 2) return undefined;
  const base = { fd, maxLineBytes: o.maxLineBytes, index, maxShown: o.maxShown };

  // First pass: records checked, id hashes gathered.
  const first = await runAll(url, ranges.map(([start, end]) => ({ ...base, start, end, maxHits: o.maxSuspects })), o.signal);
  const offsets = lineOffsets(o.startAt, first);
  const hits = new Set<number>();
  const all = new IdHashSet();
  for (const r of first) {
    for (const key of r.hits!) hits.add(key);
    const t = r.hashes!;
    r.hashes = undefined;
    for (let i = 0; i < t.length; i += 2) {
      const hi = t[i];
      const lo = t[i + 1];
      if ((hi === 0 && lo === 0) || all.add(hi, lo)) continue;
      hits.add(hashKey(hi, lo));
      if (hi === 0 && lo === 1) hits.add(hashKey(0, 0)); // the table keeps a (0, 0) hash as (0, 1)
    }
    if (hits.size >= o.maxSuspects) return undefined; // one thread would stop confirming repeats one by one here
  }
  if (hits.size === 0) return { ...merge(first, offsets, [], o.maxShown), rescanned: false };

  // Second pass: the records whose hash repeats come back unsettled; settled here in file order.
  const suspects = [...hits];
  const second = await runAll(url, ranges.map(([start, end]) => ({ ...base, start, end, suspects })), o.signal);
  const firstSeen = new Map<string, number>();
  const settled: BadRecord[][] = second.map((r, k) => {
    const bad: BadRecord[] = [];
    for (const p of r.pending!) {
      const position = offsets[k] + p.position;
      const earlier = firstSeen.get(p.id);
      if (earlier === undefined) firstSeen.set(p.id, position);
      else p.problems.push(`id repeats the id of ${o.unit} ${earlier}; each id may appear once in the file`);
      if (p.problems.length > 0) bad.push({ position, id: p.id, problem: p.problems.join("; ") });
    }
    return bad;
  });
  void file.fd; // the caller's file (and so the descriptor the workers read) stays referenced until they are done
  return { ...merge(second, offsets, settled, o.maxShown), rescanned: true };
}

/** Line number before each range's first line. */
function lineOffsets(startAt: number, results: RangeResult[]): number[] {
  const offsets: number[] = [];
  let before = startAt - 1;
  for (const r of results) {
    offsets.push(before);
    before += r.lines;
  }
  return offsets;
}

function merge(results: RangeResult[], offsets: number[], settled: BadRecord[][], maxShown: number): Omit<FileCheck, "rescanned"> {
  let records = 0;
  let bad = 0;
  const shown: BadRecord[] = [];
  results.forEach((r, k) => {
    records += r.records;
    bad += r.bad + (settled[k]?.length ?? 0);
    const mine = r.shown.map((b) => ({ ...b, position: offsets[k] + b.position }));
    const all = settled[k]?.length ? [...mine, ...settled[k]].sort((a, b) => a.position - b.position) : mine;
    for (const b of all) if (shown.length < maxShown) shown.push(b);
  });
  return { records, bad, shown };
}
