// Concurrent heavy answers over --http: BENCH_HEAVY_CALLS query_vectors of topK 1000 with the values of a 768-d index
// (1,000 records), all sent at once from 8 sessions, while a ninth session calls list_indexes every 100 ms. Twice,
// each with a fresh server: with the default answer budget (--max-answer-mb-in-flight 256) and with none (65536, as
// before the budget). Per run: the server's peak RSS, how long the heavy calls took, and list_indexes p50 / max during
// them against list_indexes on the idle server (the reference, same run). Both processes carry the loop probe
// (bench/loop-probe.mjs): the worst delay of each one's event loop during the heavy calls says where a light call waits.
import { rm } from "node:fs/promises";
import { loadavg } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { connect } from "../test/helpers/http-server.js";
import { startServiceProcess, type RunningService } from "../test/helpers/local-service.js";
import { AUTH, percentile, startBenchServer } from "./http-lib.js";
import { createIndex, makeRecords, mb, repoRoot, watchRss } from "./lib.js";

const CALLS = Number(process.env.BENCH_HEAVY_CALLS ?? 32);
const DIMENSION = 768;

async function listLatencies(client: Awaited<ReturnType<typeof connect>>["client"], stop: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!stop()) {
    const t = performance.now();
    const r = await client.callTool({ name: "list_indexes", arguments: {} });
    if (r.isError) throw new Error("list_indexes failed");
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  return out.sort((a, b) => a - b);
}

// BENCH_CPU_PROF_DIR=<dir>: both processes also write a CPU profile there when they exit (bench/loop-probe.mjs).
const LOOP_PROBE = {
  NODE_OPTIONS: `--import=${path.join(repoRoot, "bench", "loop-probe.mjs")}`,
  ...(process.env.BENCH_CPU_PROF_DIR && { BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF_DIR }),
};

/** The loop probe's windows in [from, to] (epoch ms): the median of their p99 and the worst delay, in ms. */
function loopDelay(stderr: string, from: number, to: number): string {
  const windows = [...stderr.matchAll(/loop-probe: (\d+) ([\d.]+) ([\d.]+) ([\d.]+)/g)].map((m) => m.slice(1).map(Number)).filter(([at]) => at >= from && at <= to + 250);
  if (windows.length === 0) return "no probe windows";
  const p99 = windows.map((w) => w[2]).sort((a, b) => a - b);
  const worst = Math.max(...windows.map((w) => w[3]));
  return `p99 ${percentile(p99, 50).toFixed(0)} ms (median of ${windows.length} windows) / max ${worst.toFixed(0)} ms`;
}

async function heavyRun(service: RunningService, budgetMb: number, query: number[]): Promise<string> {
  const server = await startBenchServer(service, ["--max-answer-mb-in-flight", String(budgetMb)], { env: LOOP_PROBE });
  try {
    const heavy = await Promise.all(Array.from({ length: 8 }, () => connect(server.url, AUTH)));
    const light = await connect(server.url, AUTH);
    let idleDone = false;
    setTimeout(() => (idleDone = true), 2000);
    const idle = await listLatencies(light.client, () => idleDone);
    const rss = watchRss(server.child.pid!);
    let heavyDone = false;
    const during = listLatencies(light.client, () => heavyDone);
    const started = performance.now();
    const startedAt = Date.now();
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        heavy[i % heavy.length].client.callTool({ name: "query_vectors", arguments: { index: "heavy", vector: query, topK: 1000, includeValues: true } }, undefined, {
          timeout: 300_000,
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    heavyDone = true;
    const endedAt = Date.now();
    const busy = await during;
    const peak = rss.stop().peakBytes;
    const errors = results.filter((r) => r.isError).length;
    for (const c of [...heavy, light]) await c.client.close();
    const p50 = percentile(busy, 50);
    return (
      `budget ${budgetMb === 65536 ? "none" : `${budgetMb} MiB`}: server peak RSS ${mb(peak)}, ${CALLS} heavy calls in ${seconds.toFixed(1)} s (${errors} errors), ` +
      `list_indexes meanwhile p50 ${p50.toFixed(0)} ms / p95 ${percentile(busy, 95).toFixed(0)} ms / max ${busy[busy.length - 1].toFixed(0)} ms (${busy.length} calls) ` +
      `against ${percentile(idle, 50).toFixed(0)} ms idle (${(p50 / percentile(idle, 50)).toFixed(1)}×); event-loop delay meanwhile: ` +
      `server ${loopDelay(server.stderr(), startedAt, endedAt)}, service ${loopDelay(service.stderr(), startedAt, endedAt)}; ` +
      `load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`
    );
  } finally {
    await server.stop();
  }
}

export async function benchHttpHeavy(): Promise<void> {
  const service = await startServiceProcess({ env: LOOP_PROBE });
  try {
    const host = await createIndex(service, "heavy", DIMENSION);
    const records = makeRecords(1000, DIMENSION, 3, "h");
    for (let i = 0; i < records.length; i += 100) {
      const res = await fetch(`http://${host}/vectors/upsert`, {
        method: "POST",
        headers: { "Api-Key": service.apiKey, "X-Pinecone-API-Version": "2026-04", "Content-Type": "application/json" },
        body: JSON.stringify({ vectors: records.slice(i, i + 100), namespace: "" }),
      });
      if (!res.ok) throw new Error(`upsert: ${res.status}`);
    }
    for (const budget of (process.env.BENCH_HEAVY_BUDGETS ?? "256,65536").split(",").map(Number)) {
      process.stdout.write(`http heavy answers (${CALLS} × query_vectors topK 1000 with values, 768-d), ${await heavyRun(service, budget, records[0].values)}\n`);
    }
  } finally {
    await service.stop();
    await rm(service.dataDir, { recursive: true, force: true });
  }
}
