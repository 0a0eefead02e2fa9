// The approximate index of large namespaces (src/local/search/approximate.ts), in process with the real parts: a
// namespace in memory (memory/vectors.ts) filled with clustered vectors, its graph built by the real background
// builder, then queries answered by the graph (candidates re-scored exactly) and by exact search (the reference, in
// the same run): build time and the longest the event loop waited for a slice, query p50 of both, recall@K of the
// graph against exact, the memory the graph adds, and an incremental round (1% of the records rewritten, 0.1%
// removed) with the recall after it.
//
// The data is like embeddings, not uniform noise: a mixture of Gaussians in two levels (N/2000 broad topics, N/100
// clusters around them, records around the clusters, each component's spread 0.8/√dim), queries drawn the same way.
//
//   BENCH_ANN_COUNT (default 100000) records × BENCH_ANN_DIM (768); BENCH_ANN_QUERIES (100); BENCH_ANN_METRIC
//   (cosine | dotproduct | euclidean); BENCH_ANN_TOPK (10); BENCH_ANN_THREADS (the build's native threads: default
//   the machine's cores, at most 4); BENCH_ANN_MEMORY=0 skips the memory child (a second build of the same size).
import { execFileSync } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Approximate } from "../src/local/search/approximate.js";
import { searchNamespace, type Hit } from "../src/local/search/exact.js";
import { makeQuery, type Metric } from "../src/local/search/score.js";
import { NamespaceVectors } from "../src/local/memory/vectors.js";
import { seededRandom as random } from "./lib.js";


/** Clustered vectors: `next()` fills a row with one more record (or query) of the mixture. */
export function mixture(count: number, dim: number, seed: number): (out: Float32Array) => void {
  const rnd = random(seed);
  const gauss = () => {
    let u = 0;
    while (u === 0) u = rnd();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
  };
  const unit = 1 / Math.sqrt(dim);
  const topics = Math.max(4, Math.round(count / 2000));
  const clusters = Math.max(10, Math.round(count / 100));
  const topic = Float32Array.from({ length: topics * dim }, () => gauss() * unit);
  const centre = new Float32Array(clusters * dim);
  for (let c = 0; c < clusters; c++) {
    const t = Math.floor(rnd() * topics) * dim;
    for (let j = 0; j < dim; j++) centre[c * dim + j] = topic[t + j] + 0.7 * gauss() * unit;
  }
  return (out) => {
    const c = Math.floor(rnd() * clusters) * dim;
    for (let j = 0; j < dim; j++) out[j] = centre[c + j] + 0.8 * gauss() * unit;
  };
}

const unlimited = { take() {}, give() {} };
const rssMb = () => process.memoryUsage().rss / 1048576;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchApproximate(): Promise<void> {
  const count = Number(process.env.BENCH_ANN_COUNT ?? 100_000);
  const dim = Number(process.env.BENCH_ANN_DIM ?? 768);
  const queries = Number(process.env.BENCH_ANN_QUERIES ?? 100);
  const metric = (process.env.BENCH_ANN_METRIC ?? "cosine") as Metric;
  const topK = Number(process.env.BENCH_ANN_TOPK ?? 10);
  const threads = process.env.BENCH_ANN_THREADS ? Number(process.env.BENCH_ANN_THREADS) : undefined;
  // the graph's memory, measured alone in a child process (here the JavaScript heap's churn would blur it)
  const measureMemory = process.env.BENCH_ANN_MEMORY !== "0";
  const child = !measureMemory ? '{"bytes":null}' : execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(new URL("./approximate-memory.ts", import.meta.url))], {
    encoding: "utf8",
    env: { ...process.env, BENCH_ANN_COUNT: String(count), BENCH_ANN_DIM: String(dim), BENCH_ANN_METRIC: metric },
  });
  const graphBytes = (JSON.parse(child) as { bytes: number | null }).bytes ?? NaN;

  gc();
  const rss0 = rssMb();
  const nv = new NamespaceVectors(dim, unlimited, "bench");
  nv.reserve(count);
  const next = mixture(count, dim, 11);
  const row = new Float32Array(dim);
  for (let i = 0; i < count; i++) {
    next(row);
    nv.put(`rec-${i}`, row, undefined, undefined);
  }
  gc();
  const rssData = rssMb();

  const lines: string[] = [];
  const approximate = new Approximate({ above: Math.ceil(count / 2), budget: unlimited, log: (line) => lines.push(line), threads });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t0 = performance.now();
  approximate.consider(nv, metric, "bench");
  await until(() => approximate.state(nv)?.built === true || lines.some((l) => l.includes("no approximate index")));
  const buildS = (performance.now() - t0) / 1000;
  loop.disable();
  if (!approximate.state(nv)?.built) throw new Error(lines.join("; "));
  gc();
  const graphMb = graphBytes / 1048576;
  const slices = approximate.state(nv)!.sliceMs.sort((a, b) => a - b);
  const sliceAt = (p: number) => slices[Math.min(slices.length - 1, Math.floor(p * slices.length))].toFixed(0);

  const qs = Array.from({ length: queries }, () => {
    const q = new Float32Array(dim);
    next(q);
    return makeQuery(q, undefined);
  });
  const measure = async () => {
    const exactMs: number[] = [];
    const annMs: number[] = [];
    let found = 0;
    let worst = topK;
    for (const q of qs) {
      let t = performance.now();
      const exact = searchNamespace(nv, metric, q, topK);
      exactMs.push(performance.now() - t);
      t = performance.now();
      const ann = approximate.answers(nv, metric, q, topK, undefined, "bench") ? await approximate.search(nv, metric, q, topK, undefined) : undefined;
      annMs.push(performance.now() - t);
      if (!ann) throw new Error(`the approximate index did not answer: ${JSON.stringify(approximate.state(nv))} ${lines.join("; ")}`);
      const ids = new Set(exact.map((h: Hit) => h.id));
      const hit = ann.filter((h) => ids.has(h.id)).length;
      found += hit;
      worst = Math.min(worst, hit);
    }
    return { exact: p50(exactMs), ann: p50(annMs), recall: found / (queries * topK), worst };
  };
  const first = await measure();

  // incremental: rewrite 1% (a new vector each), remove 0.1%, and wait for the graph to catch up
  const rewrite = Math.max(1, Math.floor(count / 100));
  const removeN = Math.max(1, Math.floor(count / 1000));
  const t1 = performance.now();
  const pick = random(5);
  for (let i = 0; i < rewrite; i++) {
    const id = `rec-${Math.floor(pick() * count)}`;
    next(row);
    nv.put(id, row, undefined, undefined);
    approximate.changed(nv, nv.slotOf.get(id)!);
  }
  for (let i = 0; i < removeN; i++) {
    const id = `rec-${Math.floor(pick() * count)}`;
    const slot = nv.slotOf.get(id);
    if (slot === undefined) continue;
    nv.remove(id);
    approximate.changed(nv, slot);
  }
  await until(() => approximate.state(nv)?.changed === 0);
  const catchUpS = (performance.now() - t1) / 1000;
  const after = await measure();

  const state = approximate.state(nv)!;
  const vectorsMb = (count * dim * 4) / 1048576;
  process.stdout.write(
    `approximate index ${count}×${dim} ${metric}, clustered (mixture of Gaussians): build ${buildS.toFixed(1)} s ` +
      `(${((buildS * 1e6) / count).toFixed(0)} µs a record, ${threads ?? "default"} threads; batches in the worker (the last 4096): p50 ${sliceAt(0.5)} ms, p99 ${sliceAt(0.99)} ms, ` +
      `longest ${sliceAt(1)} ms; the event loop's longest wait ${(loop.max / 1e6).toFixed(0)} ms)\n` +
      `approximate index query top ${topK} (${queries} queries): p50 ${first.ann.toFixed(2)} ms, exact ${first.exact.toFixed(1)} ms ` +
      `(${(first.ann / first.exact).toFixed(3)}× its time; target ≤ 10 ms at 1,000,000); recall@${topK} against exact ${first.recall.toFixed(3)} (target ≥ 0.95; the worst query ${first.worst}/${topK})\n` +
      `approximate index memory: ${
        measureMemory
          ? `+${graphMb.toFixed(0)} MB resident for the graph (measured alone) (${((graphMb * 1048576) / count).toFixed(0)} bytes a record; ` +
            `${(graphMb / vectorsMb).toFixed(2)}× the ${vectorsMb.toFixed(0)} MB of raw float32 vectors; accounted ${(state.bytes / 1048576).toFixed(0)} MB); `
          : `the graph not measured (BENCH_ANN_MEMORY=0), accounted ${(state.bytes / 1048576).toFixed(0)} MB (${(state.bytes / (count * dim * 4)).toFixed(2)}× the raw float32 vectors); `
      }` +
      `the namespace itself +${(rssData - rss0).toFixed(0)} MB\n` +
      `approximate index after ${rewrite} rewrites and ${removeN} removals: caught up in ${catchUpS.toFixed(1)} s; ` +
      `p50 ${after.ann.toFixed(2)} ms, recall@${topK} ${after.recall.toFixed(3)}\n`,
  );
  await approximate.stop();
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 20));
}
