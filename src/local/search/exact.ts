// Exact top-K over one namespace in memory: the same scores (search/score.ts) and order as scoring every record.
//
// Order: by the score as a float32 (what the answer prints), better first — higher, or lower for euclidean — then
// by id. Dense queries run the SIMD kernel (kernel.ts) over every row for approximate scores, re-score the best C
// of them exactly, and accept the top K only when a bound on the kernel's rounding proves that no other record can
// reach the K-th score; otherwise C grows (up to every record). Sparse queries walk the inverted index; a filter
// that keeps few records is scored record by record.
import type { SparseVector } from "../storage/codec.js";
import { intersect } from "./metadata-index.js";
import { scoreParts, type Metric, type Query } from "./score.js";
import type { NamespaceVectors } from "./vectors.js";

export interface Hit { slot: number; id: string; score: number }

/** A kept set this small (of the namespace) is scored record by record rather than by the kernel. */
const SMALL_SET = 1 / 16;
const EMPTY = new Float32Array(0);

export function searchNamespace(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed?: number[]): Hit[] {
  const eligible = allowed ? allowed.length : nv.count;
  if (eligible === 0) return [];
  if (q.dense && nv.dimension > 0 && (!allowed || allowed.length > Math.max(2048, nv.count * SMALL_SET))) {
    const hits = kernelSearch(nv, metric, q, topK, allowed);
    if (hits) return hits;
  }
  if (!q.dense && q.sparse) {
    const hits = sparseSearch(nv, metric, q, topK, allowed);
    if (hits) return hits;
  }
  return scoreEach(nv, metric, q, topK, allowed ?? nv.liveSlots());
}

function exactScore(nv: NamespaceVectors, metric: Metric, q: Query, slot: number): number {
  const values = nv.dimension > 0 ? nv.row(slot) : EMPTY;
  return scoreParts(metric, q, values, nv.dimension > 0 ? nv.norms[slot] : 0, nv.sparse[slot] as SparseVector | undefined);
}

function order(metric: Metric): (a: Hit, b: Hit) => number {
  const sign = metric === "euclidean" ? 1 : -1;
  return (a, b) => sign * (Math.fround(a.score) - Math.fround(b.score)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Every slot given, scored exactly. */
export function scoreEach(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, slots: ArrayLike<number>): Hit[] {
  const cmp = order(metric);
  let best: Hit[] = [];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i];
    best.push({ slot, id: nv.ids[slot]!, score: exactScore(nv, metric, q, slot) });
    if (best.length >= 2 * topK + 64) best = best.sort(cmp).slice(0, topK);
  }
  return best.sort(cmp).slice(0, topK);
}

/** Sparse-only query: records sharing no index with it score exactly 0, so only the others need scoring. */
function sparseSearch(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed?: number[]): Hit[] | undefined {
  const touched = new Set<number>();
  for (const term of q.sparse!.keys()) {
    const list = nv.postings.get(term);
    if (list) for (const slot of list.keys()) touched.add(slot);
  }
  let slots = Int32Array.from(touched).sort();
  if (allowed) slots = Int32Array.from(intersect(slots, allowed));
  const hits = scoreEach(nv, metric, q, topK, slots);
  // Records left out score 0 and would come next (by id): safe only when K hits score above 0.
  if (hits.length === topK && Math.fround(hits[topK - 1].score) > 0) return hits;
  return undefined;
}

function kernelSearch(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed?: number[]): Hit[] | undefined {
  const dense = q.dense!;
  const euclidean = metric === "euclidean";
  const n = nv.used;
  // goodness: higher is better for every metric (a distance is negated); NaN for slots that are not candidates
  const good = new Float64Array(n).fill(NaN);
  let mask: Uint8Array | undefined;
  if (allowed) {
    mask = new Uint8Array(n);
    for (const s of allowed) mask[s] = 1;
  }
  for (let b = 0; b < nv.blocks.length; b++) {
    const block = nv.blocks[b];
    const first = b * nv.blockSlots;
    const rows = Math.min(block.capacity, n - first);
    if (rows <= 0) break;
    if (!block.scoreAll(dense, rows, euclidean)) return undefined;
    const scores = block.scores;
    for (let j = 0; j < rows; j++) {
      const slot = first + j;
      if (nv.ids[slot] === undefined || (mask && mask[slot] === 0)) continue;
      let a = scores[j];
      if (metric === "cosine") {
        const vn = nv.norms[slot];
        a = q.denseNorm === 0 || vn === 0 ? 0 : a / (q.denseNorm * vn);
      }
      good[slot] = euclidean ? -a : a;
    }
  }
  let sparseMagnitude = 0;
  if (q.sparse) {
    for (const [term, w] of q.sparse) {
      const list = nv.postings.get(term);
      if (!list) continue;
      for (const [slot, v] of list) {
        if (!Number.isNaN(good[slot])) good[slot] += w * v;
        sparseMagnitude = Math.max(sparseMagnitude, Math.abs(w * v));
      }
    }
  }
  const eligible = allowed ? allowed.length : nv.count;
  // The kernel's float32 sums of `dimPad` products in 8 lanes differ from the exact double sums by far less than
  // dimPad · 2^-22 of the magnitudes involved (|q|·|v| for products, (|q|+|v|)² for squared distances).
  const gamma = nv.dimPad * 2 ** -22;
  const dense_eps =
    metric === "cosine" ? gamma : metric === "dotproduct" ? gamma * q.denseNorm * nv.maxNorm : gamma * (q.denseNorm + nv.maxNorm) ** 2;
  const cmp = order(metric);
  for (let c = topK + Math.max(32, topK); ; c *= 4) {
    const { slots, cutoff } = bestBy(good, Math.min(c, eligible));
    const hits: Hit[] = [];
    for (const slot of slots) hits.push({ slot, id: nv.ids[slot]!, score: exactScore(nv, metric, q, slot) });
    hits.sort(cmp);
    const top = hits.slice(0, topK);
    if (slots.length >= eligible) return top;
    const eps = dense_eps + 1e-9 * (1 + Math.abs(cutoff) + (q.sparse ? q.sparse.size * sparseMagnitude : 0));
    const kth = Math.fround(top[topK - 1].score);
    // every record left out has goodness ≤ cutoff, so its exact score is within eps of that
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
