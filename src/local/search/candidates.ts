// The one order of search answers (BestHits: every search — in memory, the lmdb scan, records search, BM25 — ranks
// with it), and what the dense first passes share (exact.ts's float32 kernel, quantized-search.ts's int8 one): a
// "goodness" per slot that bounds the exact score from above (higher is better for every metric: a distance is
// negated), the best C slots by it re-scored exactly, and a proof that no slot left out can reach the K-th exact
// score — else C grows.
import type { SparseVector } from "../storage/codec.js";
import { scoreParts, type Metric, type Query } from "./score.js";
import type { NamespaceVectors } from "../memory/vectors.js";

export interface Hit { slot: number; id: string; score: number }

const EMPTY = new Float32Array(0);

export function exactScore(nv: NamespaceVectors, metric: Metric, q: Query, slot: number): number {
  const values = nv.dimension > 0 ? nv.row(slot) : EMPTY;
  return scoreParts(metric, q, values, nv.dimension > 0 ? nv.norms[slot] : 0, nv.sparse[slot] as SparseVector | undefined);
}

/** The answer's order: by the score as a float32 (what the answer prints), better first, then by id. */
function order(metric: Metric): (a: Hit, b: Hit) => number {
  const sign = metric === "euclidean" ? 1 : -1;
  return (a, b) => sign * (Math.fround(a.score) - Math.fround(b.score)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The best K of hits offered one at a time, in the answer's order. `admits` says whether a score could still enter
 * (one worse than the K-th best so far cannot; a tie can, by its id), so a caller may skip building the hit.
 */
export class BestHits {
  private best: Hit[] = [];
  /** The K-th best score as printed, once known. */
  private bar = NaN;
  private readonly cmp: (a: Hit, b: Hit) => number;
  private readonly sign: number;

  constructor(metric: Metric, private readonly topK: number) {
    this.cmp = order(metric);
    this.sign = metric === "euclidean" ? 1 : -1;
  }

  admits(score: number): boolean {
    return !(this.sign * (Math.fround(score) - this.bar) > 0);
  }

  add(hit: Hit): void {
    this.best.push(hit);
    if (this.best.length >= 2 * this.topK + 64) {
      this.best = this.best.sort(this.cmp).slice(0, this.topK);
      this.bar = Math.fround(this.best[this.topK - 1].score);
    }
  }

  top(): Hit[] {
    return this.best.sort(this.cmp).slice(0, this.topK);
  }
}

/** Adds the query's sparse part to every candidate's goodness; returns the largest single product (for the slack). */
export function addSparse(nv: NamespaceVectors, q: Query, good: Float64Array): number {
  let largest = 0;
  if (!q.sparse) return largest;
  for (const [term, w] of q.sparse) {
    const list = nv.postings.get(term);
    if (!list) continue;
    for (const [slot, v] of list) {
      if (!Number.isNaN(good[slot])) good[slot] += w * v;
      largest = Math.max(largest, Math.abs(w * v));
    }
  }
  return largest;
}

/**
 * The top K, given `good[slot]` ≥ the exact goodness − `margin` for every candidate slot (NaN: not a candidate).
 * Undefined when proving it would take re-scoring more than `most` slots (the caller then tries a tighter pass).
 */
export function confirmTop(
  nv: NamespaceVectors, metric: Metric, q: Query, topK: number, good: Float64Array, eligible: number, margin: number, sparseLargest: number, most = Infinity,
): Hit[] | undefined {
  const euclidean = metric === "euclidean";
  const cmp = order(metric);
  for (let c = topK + Math.max(32, topK); ; c *= 4) {
    if (c > most && c < eligible) return undefined;
    const { slots, cutoff } = bestBy(good, Math.min(c, eligible));
    const hits: Hit[] = [];
    for (const slot of slots) hits.push({ slot, id: nv.ids[slot]!, score: exactScore(nv, metric, q, slot) });
    hits.sort(cmp);
    const top = hits.slice(0, topK);
    if (slots.length >= eligible) return top;
    // the goodness sums themselves are rounded: a slack far above double rounding, far below any real gap
    const eps = margin + 1e-9 * (1 + Math.abs(cutoff) + (q.sparse ? q.sparse.size * sparseLargest : 0));
    const kth = Math.fround(top[topK - 1].score);
    // every slot left out has goodness ≤ cutoff, so its exact goodness is at most cutoff + eps
    if (euclidean ? Math.fround(-cutoff - eps) > kth : Math.fround(cutoff + eps) < kth) return top;
  }
}

/** The `count` slots of highest goodness (NaN skipped), and the lowest goodness among them. */
function bestBy(good: Float64Array, count: number): { slots: number[]; cutoff: number } {
  // a min-heap of (goodness, slot) of size `count`
  const heapG = new Float64Array(count);
  const heapS = new Int32Array(count);
  let size = 0;
  for (let slot = 0; slot < good.length; slot++) {
    const g = good[slot];
    if (Number.isNaN(g)) continue;
    if (size < count) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heapG[p] <= g) break;
        heapG[i] = heapG[p];
        heapS[i] = heapS[p];
        i = p;
      }
      heapG[i] = g;
      heapS[i] = slot;
    } else if (g > heapG[0]) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const m = r < size && heapG[r] < heapG[l] ? r : l;
        if (heapG[m] >= g) break;
        heapG[i] = heapG[m];
        heapS[i] = heapS[m];
        i = m;
      }
      heapG[i] = g;
      heapS[i] = slot;
    }
  }
  return { slots: Array.from(heapS.subarray(0, size)), cutoff: size > 0 ? heapG[0] : -Infinity };
}
