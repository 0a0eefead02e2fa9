// The first pass of a dense query over the int8 rows (quantized-block.ts): a quarter of the bytes of the float32 rows,
// and a memory-bound scan, so about a quarter of the time. Each row's integer score is turned into an upper bound of
// its exact score — q·v = q̂·v̂ + q̂·(v − v̂) + (q − q̂)·v, so |q·v − q̂·v̂| ≤ (|q| + |q − q̂|)·|v − v̂| + |q − q̂|·|v| — and
// candidates.ts re-scores the best by that bound exactly until no row left out can reach the K-th score. The answer is
// therefore the exact one; when the bounds are too loose to prove it cheaply, the float32 pass (exact.ts) takes over.
import { addSparse, confirmTop, type Hit } from "./candidates.js";
import { kernelWorker } from "../memory/kernel-worker.js";
import { padToStep, quantizeQuery, type QuantizedBlock, type QuantizedQuery } from "../memory/quantized-block.js";
import type { Metric, Query } from "./score.js";
import type { NamespaceVectors } from "../memory/vectors.js";

/** Fewer rows than this are scored on this thread alone (waking the worker costs more than it saves). */
const SHARED_ABOVE = 16_384;
/** Re-scoring more than this share of the rows costs more than the float32 pass. */
const MOST_RESCORED = 1 / 8;

let scratch = new Float64Array(0);

export function quantizedSearch(nv: NamespaceVectors, metric: Metric, q: Query, topK: number, allowed?: number[]): Hit[] | undefined {
  const blocks = nv.quantized;
  if (nv.quantizedBelow !== Infinity || blocks.length !== nv.blocks.length || blocks.some((b) => b === undefined)) return undefined;
  const n = nv.used;
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, scratch.length * 2));
  const good = scratch.subarray(0, n).fill(NaN);
  let mask: Uint8Array | undefined;
  if (allowed) {
    mask = new Uint8Array(n);
    for (const s of allowed) mask[s] = 1;
  }
  const query = quantizeQuery(q.dense!, padToStep(nv.dimension));
  scoreBlocks(blocks as QuantizedBlock[], nv.blockSlots, n, query);
  const qNorm = q.denseNorm;
  const qLoss = query.loss;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const first = b * nv.blockSlots;
    const rows = Math.min(block.capacity, n - first);
    if (rows <= 0) break;
    const { scores, scale, loss } = block;
    for (let j = 0; j < rows; j++) {
      const slot = first + j;
      if (nv.ids[slot] === undefined || (mask && mask[slot] === 0)) continue;
      const vNorm = nv.norms[slot];
      const approx = query.scale * scale[j] * scores[j];
      const bound = (qNorm + qLoss) * loss[j] + qLoss * vNorm;
      good[slot] =
        metric === "dotproduct" ? approx + bound
        : metric === "cosine" ? (qNorm === 0 || vNorm === 0 ? 0 : (approx + bound) / (qNorm * vNorm))
        : 2 * (approx + bound) - qNorm * qNorm - vNorm * vNorm; // −|q − v|² = 2 q·v − |q|² − |v|²
    }
  }
  const sparseLargest = addSparse(nv, q, good);
  const eligible = allowed ? allowed.length : nv.count;
  // The bound is for exact arithmetic; the float64 sums here and in score.ts are each off by at most ~dimension · 2^-53
  // of the magnitudes involved.
  const gamma = (nv.dimPad + 8) * 2 ** -50;
  const margin = metric === "cosine" ? gamma : metric === "dotproduct" ? gamma * qNorm * nv.maxNorm : gamma * (qNorm + nv.maxNorm) ** 2;
  return confirmTop(nv, metric, q, topK, good, eligible, margin, sparseLargest, Math.max(4096, eligible * MOST_RESCORED));
}

/** Fills every block's scores for its rows below `n`: the first half of the rows here, the second on the worker. */
function scoreBlocks(blocks: QuantizedBlock[], blockSlots: number, n: number, query: QuantizedQuery): void {
  const parts: { block: QuantizedBlock; first: number; count: number }[] = [];
  for (let b = 0; b < blocks.length && b * blockSlots < n; b++) {
    blocks[b].setQuery(query);
    parts.push({ block: blocks[b], first: 0, count: Math.min(blocks[b].capacity, n - b * blockSlots) });
  }
  const worker = n >= SHARED_ABOVE ? kernelWorker() : undefined;
  if (!worker) {
    for (const p of parts) p.block.scoreRows(p.first, p.count);
    return;
  }
  const mine: typeof parts = [];
  const theirs: typeof parts = [];
  let left = Math.floor(n / 2);
  for (const p of parts) {
    const take = Math.min(left, p.count);
    if (take > 0) mine.push({ ...p, count: take });
    if (take < p.count) theirs.push({ block: p.block, first: p.first + take, count: p.count - take });
    left -= take;
  }
  worker.start(theirs.map((p) => p.block.segment(p.first, p.count)));
  for (const p of mine) p.block.scoreRows(p.first, p.count);
  if (!worker.finish()) for (const p of theirs) p.block.scoreRows(p.first, p.count);
}
