// A child of bench/approximate.ts: the resident memory one graph takes, measured in a process that holds nothing
// else that grows (the vectors in one Float32Array made before the first reading). Prints one JSON line.
//   BENCH_ANN_COUNT, BENCH_ANN_DIM, BENCH_ANN_METRIC as bench/approximate.ts; run with --expose-gc.
import { loadUsearch } from "../src/local/search/ann-library.js";
import { graphOptions } from "../src/local/search/approximate.js";
import type { Metric } from "../src/local/search/score.js";
import { mixture } from "./approximate.js";

const count = Number(process.env.BENCH_ANN_COUNT ?? 100_000);
const dim = Number(process.env.BENCH_ANN_DIM ?? 768);
const metric = (process.env.BENCH_ANN_METRIC ?? "cosine") as Metric;
const rows = new Float32Array(count * dim);
const next = mixture(count, dim, 11);
let maxNorm = 0;
for (let i = 0; i < count; i++) {
  const row = rows.subarray(i * dim, (i + 1) * dim);
  next(row);
  maxNorm = Math.max(maxNorm, Math.hypot(...row));
}
const library = await loadUsearch();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
gc();
const before = process.memoryUsage.rss();
const graph = library.create(graphOptions(metric, dim, maxNorm));
const batch = 1000;
for (let s = 0; s < count; s += batch) {
  const n = Math.min(batch, count - s);
  graph.add(BigUint64Array.from({ length: n }, (_, i) => BigInt(s + i)), rows.subarray(s * dim, (s + n) * dim), 2);
}
gc();
const bytes = process.memoryUsage.rss() - before;
process.stdout.write(`${JSON.stringify({ bytes, perRecord: bytes / count, size: graph.size() })}\n`);
