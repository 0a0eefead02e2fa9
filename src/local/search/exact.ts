// Exact top-K over one namespace in memory: the same scores (search/score.ts) and order as scoring every record.
//
// Order: by the score as a float32 (what the answer prints), better first — higher, or lower for euclidean — then
// by id. A dense query first runs the int8 pass (quantized-search.ts): integer scores over the int8 copy of the rows
// with a bound on what quantizing lost. If the bounds are too loose to settle the top K cheaply, the float32 pass
// runs the SIMD kernel (kernel.ts) over every row, with a bound on its rounding. Either way the best candidates are
// re-scored exactly and the top K accepted only once no record left out can reach the K-th score (candidates.ts).
// Sparse queries walk the inverted index; a filter that keeps few records is scored record by record.
import { addSparse, BestHits, confirmTop, exactScore, type Hit } from "./candidates.js";
import { intersect } from "../memory/metadata-index.js";
import { quantizedSearch } from "./quantized-search.js";
import type { Metric, Query } from "./score.js";
import type { NamespaceVectors } from "../memory/vectors.js";

export type { Hit } from "./candidates.js";

/** A kept set this small (of the namespace) is scored record by record rather than by the kernel. */
const SMALL_SET = 1 / 16;

export function searchNamespace(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed?: number[]): Hit[] {
  const eligible = allowed ? allowed.length : nv.count;
  if (eligible === 0) return [];
  if (q.dense && nv.dimension > 0 && (!allowed || allowed.length > Math.max(2048, nv.count * SMALL_SET))) {
    const hits = quantizedSearch(nv, metric, q, topK, allowed) ?? kernelSearch(nv, metric, q, topK, allowed);
    if (hits) return hits;
  }
  if (!q.dense && q.sparse) {
    const hits = sparseSearch(nv, metric, q, topK, allowed);
    if (hits) return hits;
  }
  return scoreEach(nv, metric, q, topK, allowed ?? nv.liveSlots());
}

/** Every slot given, scored exactly. */
export function scoreEach(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, slots: ArrayLike<number>): Hit[] {
  const best = new BestHits(metric, topK);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i];
    const score = exactScore(nv, metric, q, slot);
    if (best.admits(score)) best.add({ slot, id: nv.ids[slot]!, score });
  }
  return best.top();
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
  const sparseLargest = addSparse(nv, q, good);
  const eligible = allowed ? allowed.length : nv.count;
  // The kernel's float32 sums of `dimPad` products in 8 lanes differ from the exact double sums by far less than
  // dimPad · 2^-22 of the magnitudes involved (|q|·|v| for products, (|q|+|v|)² for squared distances).
  const gamma = nv.dimPad * 2 ** -22;
  const margin =
    metric === "cosine" ? gamma : metric === "dotproduct" ? gamma * q.denseNorm * nv.maxNorm : gamma * (q.denseNorm + nv.maxNorm) ** 2;
  return confirmTop(nv, metric, q, topK, good, eligible, margin, sparseLargest);
}
