// An approximate index (an HNSW graph: search/ann-library.ts) for namespaces too large for exact search to answer
// quickly. Exact search (search/exact.ts) stays the rule; this answers instead only when all of these hold:
//   - the namespace has at least `above` records (`serve --approximate-above`),
//   - its graph is built and covers it: every record is in the graph as it is now, or among the few changed since
//     (those are scored exactly on every query until the background catches up),
//   - the query is dense only (a sparse part could lift a record the graph does not rank), not all zeros,
//     topK ≤ 1000, and any filter keeps at least half the namespace.
// The graph only proposes candidates — more than topK (CANDIDATES) — that are re-scored exactly (exact.ts's
// scoreEach) and ordered exactly as exact search orders them: every printed score is exact; only which records make
// the top K can differ from exact search (recall@10 ≥ 0.95 measured: README, bench/approximate.ts).
//
// The graph is built and kept in step in the background, a slice per turn of the event loop (each slice one native
// call sized to take about SLICE_MS), so reads and writes wait at most one slice. Writes only mark slots as changed
// (O(1) in the commit path); a slice then removes a changed slot's old vector from the graph and adds its new one.
// The native library loads on the first namespace that needs it; if it cannot load, a line on stderr says so once
// and search stays exact.
import { availableParallelism } from "node:os";
import { scoreEach, type Hit } from "./exact.js";
import { loadUsearch, type AnnGraph, type AnnLibrary, type AnnLoader, type AnnOptions } from "./ann-library.js";
import type { Metric, Query } from "./score.js";
import type { MemoryBudget, NamespaceVectors } from "./vectors.js";

/**
 * Namespaces from this many records on get a graph. Chosen by measurement (README, "The local service at scale"):
 * the size where the exact scan passes about 150 ms a query on a 2-core machine.
 */
export const DEFAULT_APPROXIMATE_ABOVE = 1_500_000;

/** HNSW parameters, chosen by measurement (bench/approximate.ts; README). */
const CONNECTIVITY = 16;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 64;
/** Candidates re-scored exactly for a top K: recall@10 0.999 at 40 on clustered 768-d data. */
const candidates = (topK: number) => topK + Math.max(30, topK);
const MAX_TOP_K = 1000;
/** A filter must keep at least this share of the namespace for the graph to answer. */
const FILTER_SHARE = 0.5;
/** More changed slots than this (not yet in the graph) and exact search answers until the background catches up. */
const CHANGED_MAX = 2048;
/** Each background slice (one native add) aims at about this long; on a busy machine one can take several times it. */
const SLICE_MS = 10;
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
  loader?: AnnLoader;
  log?: (line: string) => void;
  /** Native threads a build uses (default: the machine's cores, at most 4). */
  threads?: number;
}

/** One namespace's graph and how far it has got. */
class Graph {
  /** Slots below this were swept by the first pass (after it: all of them). */
  cursor = 0;
  built = false;
  /** Slots whose content changed since the graph last took them (the first pass's sweep or a catch-up). */
  readonly changed = new Set<number>();
  /** slot → 1 when the graph holds a vector for it. */
  inGraph = new Uint8Array(1024);
  /** Bytes taken from the memory budget, for `peak` records. */
  bytes = 0;
  peak = 0;
  /** Measured milliseconds a record in a native add (for sizing the next batch). */
  msPerRecord = 1;
  /** How long background slices took (the most recent 4096): what a request may wait for one. */
  readonly sliceMs = new Float64Array(4096);
  slices = 0;
  readonly started = performance.now();

  constructor(readonly graph: AnnGraph, readonly metric: Metric, readonly recordBytes: number, readonly name: string) {}

  mark(slot: number, v: 0 | 1): void {
    if (slot >= this.inGraph.length) {
      const grown = new Uint8Array(Math.max(slot + 1, this.inGraph.length * 2));
      grown.set(this.inGraph);
      this.inGraph = grown;
    }
    this.inGraph[slot] = v;
  }

  /** Whether it answers for the namespace now. */
  covers(): boolean {
    return this.built && this.changed.size <= CHANGED_MAX;
  }

  needsWork(): boolean {
    return !this.built || this.changed.size > 0;
  }
}

export class Approximate {
  /** undefined: not asked for yet; a promise: loading; null: cannot load here. */
  private library: AnnLibrary | Promise<void> | null | undefined;
  private readonly graphs = new Map<NamespaceVectors, Graph>();
  /** Namespaces past the threshold waiting for the library, with their metric and name. */
  private readonly waiting = new Map<NamespaceVectors, { metric: Metric; name: string }>();
  /** Namespaces that could not have a graph (memory limit, a native error): not tried again. */
  private readonly refused = new WeakSet<NamespaceVectors>();
  private running = false;
  private stopped = false;
  private readonly loader: AnnLoader;
  private readonly log: (line: string) => void;
  private readonly threads: number;

  constructor(private readonly options: ApproximateOptions) {
    this.loader = options.loader ?? loadUsearch;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism()));
  }

  get threshold(): number {
    return this.options.above;
  }

  /** The namespace's graph, for tests and the bench: whether it covers the namespace and its size. */
  state(nv: NamespaceVectors): { built: boolean; covers: boolean; changed: number; size: number; bytes: number; sliceMs: number[] } | undefined {
    const g = this.graphs.get(nv);
    if (!g) return undefined;
    const sliceMs = Array.from(g.sliceMs.subarray(0, Math.min(g.slices, g.sliceMs.length)));
    return { built: g.built, covers: g.covers(), changed: g.changed.size, size: g.graph.size(), bytes: g.bytes, sliceMs };
  }

  /** Starts a graph for the namespace if it has grown past the threshold; drops one it has shrunk well below. Cheap. */
  consider(nv: NamespaceVectors, metric: Metric, name: string): void {
    if (this.stopped || nv.dimension === 0 || this.options.above <= 0) return;
    const g = this.graphs.get(nv);
    if (g) {
      if (g.metric !== metric || nv.count < this.options.above / 2) this.forget(nv);
      return;
    }
    if (nv.count < this.options.above || this.refused.has(nv) || this.library === null) return;
    this.waiting.set(nv, { metric, name });
    if (this.library === undefined) this.library = this.loadLibrary();
    else if (!(this.library instanceof Promise)) this.startWaiting();
  }

  /** A slot of the namespace changed (a put or a remove, already applied to `nv`). O(1). */
  changed(nv: NamespaceVectors, slot: number): void {
    const g = this.graphs.get(nv);
    if (!g || slot >= g.cursor) return; // not swept yet: the first pass reads it as it will be
    g.changed.add(slot);
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
  }

  stop(): void {
    this.stopped = true;
    for (const nv of [...this.graphs.keys()]) this.forget(nv);
  }

  /**
   * The best topK by the graph's candidates re-scored exactly, or undefined when the graph does not answer this
   * query (exact search does). `allowed`: the slots a filter keeps.
   */
  search(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed: number[] | undefined, name: string): Hit[] | undefined {
    this.consider(nv, metric, name);
    const g = this.graphs.get(nv);
    if (!g || !g.covers() || g.metric !== metric || nv.count < this.options.above) return undefined;
    if (!q.dense || q.sparse || q.denseNorm === 0 || topK > MAX_TOP_K) return undefined;
    if (allowed && allowed.length < nv.count * FILTER_SHARE) return undefined;
    const want = candidates(topK);
    const k = allowed ? Math.ceil((want * nv.count) / Math.max(1, allowed.length)) : want;
    let mask: Uint8Array | undefined;
    if (allowed) {
      mask = new Uint8Array(nv.used);
      for (const s of allowed) mask[s] = 1;
    }
    const slots: number[] = [];
    for (const key of g.graph.search(q.dense, k)) {
      const slot = Number(key);
      // gone, or changed since the graph took it (scored below with its present vector)
      if (nv.ids[slot] === undefined || g.changed.has(slot)) continue;
      if (!mask || mask[slot] === 1) slots.push(slot);
    }
    // a filter that keeps few of what the graph found near the query: exact search answers instead
    if (mask && slots.length < Math.min(want, allowed!.length) / 2) return undefined;
    for (const slot of g.changed) if (nv.ids[slot] !== undefined && (!mask || mask[slot] === 1)) slots.push(slot);
    return scoreEach(nv, metric, q, topK, slots);
  }

  private async loadLibrary(): Promise<void> {
    try {
      this.library = await this.loader();
    } catch (e) {
      this.library = null;
      this.waiting.clear();
      this.log(`vecdb-mcp local service: no approximate index (${reason(e)}); search stays exact, which is slower past ${this.options.above} records`);
      return;
    }
    this.startWaiting();
  }

  private startWaiting(): void {
    const library = this.library as AnnLibrary;
    for (const [nv, { metric, name }] of this.waiting) {
      this.waiting.delete(nv);
      if (this.stopped || this.graphs.has(nv) || nv.count < this.options.above) continue;
      const options = graphOptions(metric, nv.dimension, nv.maxNorm);
      const scalar = options.quantization === "i8" ? 1 : options.quantization === "f16" ? 2 : 4;
      try {
        const graph = library.create(options);
        this.graphs.set(nv, new Graph(graph, metric, nv.dimension * scalar + NODE_BYTES, name));
        this.log(`vecdb-mcp local service: building an approximate index (${library.name}) for ${name}, ${nv.count} records, in the background`);
      } catch (e) {
        this.refuse(nv, name, e);
      }
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

  /** Background: a slice of work on one graph per turn of the event loop, until none has any. */
  private async run(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        let work: [NamespaceVectors, Graph] | undefined;
        for (const entry of this.graphs) if (entry[1].needsWork()) work = entry;
        if (!work) return;
        const [nv, g] = work;
        const t = performance.now();
        try {
          this.slice(nv, g);
        } catch (e) {
          this.refuse(nv, g.name, e);
        }
        g.sliceMs[g.slices++ % g.sliceMs.length] = performance.now() - t;
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      this.running = false;
    }
  }

  /** One batch, sized by the time records took so far: the first pass's next slots, or changed ones. */
  private slice(nv: NamespaceVectors, g: Graph): void {
    const batch = Math.max(1, Math.min(4096, Math.floor(SLICE_MS / g.msPerRecord)));
    if (!g.built) this.sweep(nv, g, batch);
    else if (g.changed.size > 0) this.catchUp(nv, g, batch);
  }

  private sweep(nv: NamespaceVectors, g: Graph, batch: number): void {
    const slots: number[] = [];
    let s = g.cursor;
    for (; s < nv.used && slots.length < batch; s++) if (this.belongs(nv, g, s)) slots.push(s);
    this.add(nv, g, slots);
    g.cursor = s;
    if (s >= nv.used) {
      g.built = true;
      g.cursor = Number.MAX_SAFE_INTEGER; // from now on every change is a change to catch up with
      const seconds = ((performance.now() - g.started) / 1000).toFixed(1);
      this.log(`vecdb-mcp local service: approximate index for ${g.name} built (${g.graph.size()} records, ${seconds} s)`);
    }
  }

  private catchUp(nv: NamespaceVectors, g: Graph, batch: number): void {
    const slots: number[] = [];
    for (const s of g.changed) {
      slots.push(s);
      if (slots.length >= batch) break;
    }
    const gone = slots.filter((s) => g.inGraph[s] === 1);
    if (gone.length > 0) {
      g.graph.remove(BigUint64Array.from(gone, BigInt));
      for (const s of gone) g.mark(s, 0);
    }
    this.add(nv, g, slots.filter((s) => this.belongs(nv, g, s)));
    for (const s of slots) g.changed.delete(s);
  }

  /** Whether the slot's record goes into the graph: every live one, but for cosine the all-zero vectors (which
   * have no direction; they score 0 exactly) are left out, so the graph never meets an undefined distance. */
  private belongs(nv: NamespaceVectors, g: Graph, slot: number): boolean {
    return nv.ids[slot] !== undefined && (g.metric !== "cosine" || nv.norms[slot] > 0);
  }

  private add(nv: NamespaceVectors, g: Graph, slots: number[]): void {
    if (slots.length === 0) return;
    const dim = nv.dimension;
    const rows = new Float32Array(slots.length * dim);
    for (let i = 0; i < slots.length; i++) rows.set(nv.row(slots[i]), i * dim);
    // the graph reuses a removed record's place: memory grows with its largest size, not with every add
    const size = g.graph.size() + slots.length;
    if (size > g.peak) {
      const bytes = (size - g.peak) * g.recordBytes;
      this.options.budget.take(bytes, `the approximate index of ${g.name}`);
      g.bytes += bytes;
      g.peak = size;
    }
    const t = performance.now();
    g.graph.add(BigUint64Array.from(slots, BigInt), rows, this.threads);
    g.msPerRecord = Math.max(0.005, 0.5 * g.msPerRecord + (0.5 * (performance.now() - t)) / slots.length);
    for (const s of slots) g.mark(s, 1);
  }
}

function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split("\n")[0].slice(0, 200);
}
