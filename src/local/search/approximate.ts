// An approximate index (an HNSW graph: search/ann-library.ts) for namespaces too large for exact search to answer
// quickly. Exact search (search/exact.ts) stays the rule; this answers instead only when all of these hold:
//   - the namespace has at least `above` records (`serve --approximate-above`),
//   - its graph is built and covers it: every record is in the graph as it is now, or among the few changed since
//     (those are scored exactly on every query until the background catches up),
//   - the query is dense only (a sparse part could lift a record the graph does not rank), not all zeros,
//     topK ≤ 1000, and any filter keeps at least half the namespace.
// The graph only proposes candidates — more than topK (CANDIDATES) — that are re-scored exactly (exact.ts's
// scoreEach) and ordered exactly as exact search orders them: every printed score is exact; only which records make
// the top K can differ from exact search (recall@10 ≥ 0.95 measured: docs/local-service.md, bench/approximate.ts).
//
// The graphs live in a worker thread (search/ann-thread.ts, ann-worker.ts): the native adds, tens of milliseconds a
// batch, never hold up the event loop, which only copies each batch's rows. The graph is built and kept in step in
// the background, one batch in flight at a time, each sized to take about SLICE_MS in the worker (a search queued
// behind it waits that long). Writes only mark slots as changed (O(1) in the commit path); a batch then removes a
// changed slot's old vector from the graph and adds its new one, and until the worker has done so the slot counts
// as changed: search scores it exactly. The worker and its native library start on the first namespace that needs
// them; if they cannot, a line on stderr says so once and search stays exact.
import { availableParallelism } from "node:os";
import { scoreEach, type Hit } from "./exact.js";
import type { AnnOptions } from "./ann-library.js";
import { startGraphThread, type GraphThread, type GraphThreadLoader } from "./ann-thread.js";
import type { Metric, Query } from "./score.js";
import type { MemoryBudget, NamespaceVectors } from "../memory/vectors.js";

/**
 * Namespaces from this many records on get a graph. Chosen by measurement (docs/local-service.md, "Search at scale"):
 * the size where the exact scan passes about 150 ms a query on a 2-core machine.
 */
export const DEFAULT_APPROXIMATE_ABOVE = 1_500_000;

/** HNSW parameters, chosen by measurement (bench/approximate.ts; docs/local-service.md). */
const CONNECTIVITY = 16;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 128;
/** Candidates re-scored exactly for a top K: recall@10 0.999 at 40 on clustered 768-d data up to 200,000 records. */
const candidates = (topK: number) => topK + Math.max(30, topK);
/**
 * How many candidates the graph is asked for (its search breadth; all of them are re-scored exactly) in a namespace
 * of `count` records: a greedy search strands more queries in the wrong cluster as the graph grows, so the breadth
 * doubles with the size — 128 up to 250,000 records, 512 at 1,000,000, at most 1,024. Measured on clustered 768-d
 * data at 1,000,000 (docs/local-service.md): breadth 128 gave recall@10 0.884–0.926 with queries finding none of their top 10,
 * 256 gave 0.953 (still one at 0/10), 512 gave 0.983 (the worst 8/10) at 4 ms, 1,024 no better (0.984) at 6.7 ms.
 */
const MAX_BREADTH = 1024;
export function searchBreadth(count: number): number {
  let breadth = EXPANSION_SEARCH;
  for (let size = 250_000; size < count && breadth < MAX_BREADTH; size *= 2) breadth *= 2;
  return breadth;
}
const MAX_TOP_K = 1000;
/** A filter must keep at least this share of the namespace for the graph to answer. */
const FILTER_SHARE = 0.5;
/** More changed slots than this (not yet in the graph) and exact search answers until the background catches up. */
const CHANGED_MAX = 2048;
/** Each batch sent to the worker aims at about this long in the native add (a search waits behind at most one). */
const SLICE_MS = 10;
/** Records a batch at most (its rows are copied on the event loop: 1,024 × 768 floats ≈ 1 ms). */
const MAX_BATCH = 1024;
/** The graph's bytes a record beyond its quantized vector (links and bookkeeping; measured ≈ 230 at connectivity 16). */
const NODE_BYTES = 256;

/** The graph for a namespace of this metric and dimension whose largest vector norm is `maxNorm`. */
export function graphOptions(metric: Metric, dimensions: number, maxNorm: number): AnnOptions {
  // cosine: 1 byte a dimension (usearch scales each vector to unit length, which cosine ignores); dot products and
  // distances depend on the scale, so 2 bytes (float16), or 4 for values float16 cannot hold
  const quantization = metric === "cosine" ? "i8" : maxNorm < 30000 ? "f16" : "f32";
  return { dimensions, metric, quantization, connectivity: CONNECTIVITY, expansionAdd: EXPANSION_ADD, expansionSearch: EXPANSION_SEARCH };
}

export interface ApproximateOptions {
  /** Namespaces with at least this many records get a graph (0: never). */
  above: number;
  /** The memory limit the graph's bytes count against (the mirror's). */
  budget: MemoryBudget;
  /** Starts the worker that holds the graphs (tests make it fail, or wrap it). */
  loader?: GraphThreadLoader;
  log?: (line: string) => void;
  /** Native threads a build uses (default: the machine's cores, at most 4). */
  threads?: number;
}

/** One namespace's graph (in the worker) and how far it has got. */
class Graph {
  /** Slots below this were sent by the first pass (after it: all of them). */
  cursor = 0;
  /** The first pass has sent every slot; `built`: and the worker has added them all. */
  sent = false;
  built = false;
  /** Slots whose content changed since the graph last took them, with the change's number. */
  readonly changed = new Map<number, number>();
  /** Counts every change to the namespace (a filtered search checks that none landed while it waited). */
  version = 0;
  /** slot → 1 when the graph holds (or has been sent) a vector for it. */
  inGraph = new Uint8Array(1024);
  /** Records held (as sent), the most ever held, and the bytes taken from the memory budget for them. */
  count = 0;
  peak = 0;
  bytes = 0;
  size = 0;
  busy = false;
  /** Measured milliseconds a record in a native add (for sizing the next batch). */
  msPerRecord = 1;
  /** How long the native work of recent batches took (the last 4096): what a search queued behind one waits. */
  readonly sliceMs = new Float64Array(4096);
  slices = 0;
  readonly started = performance.now();

  constructor(readonly id: number, readonly metric: Metric, readonly recordBytes: number, readonly name: string) {}

  mark(slot: number, v: 0 | 1): void {
    if (slot >= this.inGraph.length) {
      const grown = new Uint8Array(Math.max(slot + 1, this.inGraph.length * 2));
      grown.set(this.inGraph);
      this.inGraph = grown;
    }
    if (this.inGraph[slot] !== v) this.count += v ? 1 : -1;
    this.inGraph[slot] = v;
  }

  /** Whether it answers for the namespace now. */
  covers(): boolean {
    return this.built && this.changed.size <= CHANGED_MAX;
  }

  needsWork(): boolean {
    return !this.busy && (!this.sent || this.changed.size > 0);
  }
}

export class Approximate {
  /** undefined: not asked for yet; a promise: starting; null: cannot start here. */
  private thread: GraphThread | Promise<void> | null | undefined;
  private readonly graphs = new Map<NamespaceVectors, Graph>();
  /** Namespaces past the threshold waiting for the worker, with their metric and name. */
  private readonly waiting = new Map<NamespaceVectors, { metric: Metric; name: string }>();
  /** Namespaces that could not have a graph (memory limit, a native error): not tried again. */
  private readonly refused = new WeakSet<NamespaceVectors>();
  private running = false;
  private stopped = false;
  private changes = 0;
  private readonly loader: GraphThreadLoader;
  private readonly log: (line: string) => void;
  private readonly threads: number;

  constructor(private readonly options: ApproximateOptions) {
    this.loader = options.loader ?? startGraphThread;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism()));
  }

  get threshold(): number {
    return this.options.above;
  }

  /** The namespace's graph, for tests and the bench. */
  state(nv: NamespaceVectors): { built: boolean; covers: boolean; changed: number; size: number; bytes: number; sliceMs: number[] } | undefined {
    const g = this.graphs.get(nv);
    if (!g) return undefined;
    const sliceMs = Array.from(g.sliceMs.subarray(0, Math.min(g.slices, g.sliceMs.length)));
    return { built: g.built, covers: g.covers(), changed: g.changed.size, size: g.size, bytes: g.bytes, sliceMs };
  }

  /** Starts a graph for the namespace if it has grown past the threshold; drops one it has shrunk well below. Cheap. */
  consider(nv: NamespaceVectors, metric: Metric, name: string): void {
    if (this.stopped || nv.dimension === 0 || this.options.above <= 0) return;
    const g = this.graphs.get(nv);
    if (g) {
      if (g.metric !== metric || nv.count < this.options.above / 2) this.forget(nv);
      return;
    }
    if (nv.count < this.options.above || this.refused.has(nv) || this.thread === null) return;
    this.waiting.set(nv, { metric, name });
    if (this.thread === undefined) this.thread = this.startThread();
    else if (!(this.thread instanceof Promise)) this.startWaiting();
  }

  /** A slot of the namespace changed (a put or a remove, already applied to `nv`). O(1). */
  changed(nv: NamespaceVectors, slot: number): void {
    const g = this.graphs.get(nv);
    if (!g) return;
    g.version++;
    if (slot >= g.cursor) return; // not sent yet: the first pass reads it as it will be
    g.changed.set(slot, ++this.changes);
    this.schedule();
  }

  /** The namespace is gone (or will be loaded anew): its graph with it. */
  forget(nv: NamespaceVectors): void {
    this.waiting.delete(nv);
    const g = this.graphs.get(nv);
    if (!g) return;
    this.graphs.delete(nv);
    this.options.budget.give(g.bytes);
    g.bytes = 0;
    if (this.thread && !(this.thread instanceof Promise)) this.thread.drop(g.id);
  }

  /** Drops every graph and ends the worker (resolves once it has). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const nv of [...this.graphs.keys()]) this.forget(nv);
    if (this.thread && !(this.thread instanceof Promise)) await this.thread.close();
  }

  /**
   * Whether the graph answers this query (then call search()); false: exact search answers. `allowed`: the slots
   * a filter keeps. Also starts a graph for a namespace that needs one.
   */
  answers(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed: number[] | undefined, name: string): boolean {
    this.consider(nv, metric, name);
    const g = this.graphs.get(nv);
    if (!g || !g.covers() || g.metric !== metric || nv.count < this.options.above) return false;
    if (!q.dense || q.sparse || q.denseNorm === 0 || topK > MAX_TOP_K) return false;
    return !allowed || allowed.length >= nv.count * FILTER_SHARE;
  }

  /**
   * The best topK by the graph's candidates re-scored exactly, or undefined when the graph could not answer after
   * all (it was dropped or fell behind while the worker searched, or a filter's records changed meanwhile, or the
   * filter keeps few of the candidates): exact search answers then, from the namespace as it is by then.
   */
  async search(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed: number[] | undefined): Promise<Hit[] | undefined> {
    const g = this.graphs.get(nv);
    const thread = this.thread;
    if (!g || !thread || thread instanceof Promise || !q.dense) return undefined;
    const want = candidates(topK);
    const k = Math.max(searchBreadth(nv.count), allowed ? Math.ceil((want * nv.count) / Math.max(1, allowed.length)) : want);
    const version = g.version;
    let keys: BigUint64Array;
    try {
      keys = await thread.search(g.id, q.dense, k);
    } catch {
      return undefined;
    }
    // from here on synchronous: the namespace as it is now
    if (this.graphs.get(nv) !== g || !g.covers() || (allowed && g.version !== version)) return undefined;
    let mask: Uint8Array | undefined;
    if (allowed) {
      mask = new Uint8Array(nv.used);
      for (const s of allowed) mask[s] = 1;
    }
    const slots: number[] = [];
    for (const key of keys) {
      const slot = Number(key);
      // gone, or changed since the graph took it (scored below with its present vector)
      if (nv.ids[slot] === undefined || g.changed.has(slot)) continue;
      if (!mask || mask[slot] === 1) slots.push(slot);
    }
    // a filter that keeps few of what the graph found near the query: exact search answers instead
    if (mask && slots.length < Math.min(want, allowed!.length) / 2) return undefined;
    for (const slot of g.changed.keys()) if (nv.ids[slot] !== undefined && (!mask || mask[slot] === 1)) slots.push(slot);
    return scoreEach(nv, metric, q, topK, slots);
  }

  private async startThread(): Promise<void> {
    try {
      this.thread = await this.loader();
    } catch (e) {
      this.thread = null;
      this.waiting.clear();
      this.log(`vecdb-mcp local service: no approximate index (${reason(e)}); search stays exact, which is slower past ${this.options.above} records`);
      return;
    }
    if (this.stopped) void this.thread.close();
    else this.startWaiting();
  }

  private startWaiting(): void {
    const thread = this.thread as GraphThread;
    for (const [nv, { metric, name }] of this.waiting) {
      this.waiting.delete(nv);
      if (this.stopped || this.graphs.has(nv) || nv.count < this.options.above) continue;
      const options = graphOptions(metric, nv.dimension, nv.maxNorm);
      const scalar = options.quantization === "i8" ? 1 : options.quantization === "f16" ? 2 : 4;
      this.graphs.set(nv, new Graph(thread.create(options), metric, nv.dimension * scalar + NODE_BYTES, name));
      this.log(`vecdb-mcp local service: building an approximate index (${thread.name}) for ${name}, ${nv.count} records, in the background`);
    }
    this.schedule();
  }

  private refuse(nv: NamespaceVectors, name: string, e: unknown): void {
    this.forget(nv);
    this.refused.add(nv);
    this.log(`vecdb-mcp local service: no approximate index for ${name} (${reason(e)}); its search stays exact`);
  }

  private schedule(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    setImmediate(() => void this.run());
  }

  /** Background: one batch at a time to the worker, until no graph has work. */
  private async run(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        let work: [NamespaceVectors, Graph] | undefined;
        for (const entry of this.graphs) if (entry[1].needsWork()) work = entry;
        if (!work) return;
        const [nv, g] = work;
        try {
          await this.batch(nv, g);
        } catch (e) {
          if (this.graphs.get(nv) === g) this.refuse(nv, g.name, e);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Sends one batch — the first pass's next slots, or changed ones — and waits for the worker to add it. */
  private async batch(nv: NamespaceVectors, g: Graph): Promise<void> {
    const thread = this.thread as GraphThread;
    const size = Math.max(1, Math.min(MAX_BATCH, Math.floor(SLICE_MS / g.msPerRecord)));
    const remove: number[] = [];
    const add: number[] = [];
    const sentChanges: [number, number][] = [];
    let lastOfFirstPass = false;
    if (!g.sent) {
      let s = g.cursor;
      for (; s < nv.used && add.length < size; s++) if (this.belongs(nv, g, s)) add.push(s);
      g.cursor = s;
      if (s >= nv.used) {
        g.sent = lastOfFirstPass = true;
        g.cursor = Number.MAX_SAFE_INTEGER; // from now on every change is a change to catch up with
      }
    } else {
      for (const [slot, change] of g.changed) {
        sentChanges.push([slot, change]);
        if (g.inGraph[slot] === 1) remove.push(slot);
        if (this.belongs(nv, g, slot)) add.push(slot);
        if (sentChanges.length >= size) break;
      }
    }
    for (const s of remove) g.mark(s, 0);
    for (const s of add) g.mark(s, 1);
    // the graph reuses a removed record's place: memory grows with its largest size, not with every add
    if (g.count > g.peak) {
      const bytes = (g.count - g.peak) * g.recordBytes;
      this.options.budget.take(bytes, `the approximate index of ${g.name}`);
      g.bytes += bytes;
      g.peak = g.count;
    }
    const dim = nv.dimension;
    const rows = new Float32Array(add.length * dim);
    for (let i = 0; i < add.length; i++) rows.set(nv.row(add[i]), i * dim);
    g.busy = true;
    let done: { ms: number; size: number };
    try {
      done = await thread.update(g.id, BigUint64Array.from(remove, BigInt), BigUint64Array.from(add, BigInt), rows, this.threads);
    } finally {
      g.busy = false;
    }
    if (this.graphs.get(nv) !== g) return; // forgotten meanwhile
    g.size = done.size;
    g.sliceMs[g.slices++ % g.sliceMs.length] = done.ms;
    if (add.length > 0) g.msPerRecord = Math.max(0.005, 0.5 * g.msPerRecord + (0.5 * done.ms) / add.length);
    for (const [slot, change] of sentChanges) if (g.changed.get(slot) === change) g.changed.delete(slot);
    if (lastOfFirstPass) {
      g.built = true;
      const seconds = ((performance.now() - g.started) / 1000).toFixed(1);
      this.log(`vecdb-mcp local service: approximate index for ${g.name} built (${g.size} records, ${seconds} s)`);
    }
  }

  /** Whether the slot's record goes into the graph: every live one, but for cosine the all-zero vectors (which
   * have no direction; they score 0 exactly) are left out, so the graph never meets an undefined distance. */
  private belongs(nv: NamespaceVectors, g: Graph, slot: number): boolean {
    return nv.ids[slot] !== undefined && (g.metric !== "cosine" || nv.norms[slot] > 0);
  }
}

function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split("\n")[0].slice(0, 200);
}
