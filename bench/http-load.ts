// The HTTP transport under load: 1, 8, 32, 128 concurrent sessions of the SDK's own StreamableHTTPClientTransport,
// each making 50 mixed calls one after another (upsert_vectors of 10 records, query_vectors, fetch_vectors,
// describe_index_stats, list_indexes). Per level: calls/s, p50 / p99 latency, the server's peak RSS, errors, and every
// acknowledged record counted in the service afterwards (the level's namespace must hold exactly those).
// The reference in the same run is the 1-session level: the ratio says how throughput scales with sessions.
import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";
import { startHttp, connect } from "../test/helpers/http-server.js";
import { createIndex, makeRecords, mb, withService } from "./lib.js";

const LEVELS = (process.env.BENCH_LOAD_LEVELS ?? "1,8,32,128").split(",").map(Number);
const CALLS = Number(process.env.BENCH_LOAD_CALLS ?? 50);
const DIMENSION = Number(process.env.BENCH_LOAD_DIM ?? 768);
const TOKEN = "bench-token-0123456789abcdef";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function rssSampler(pid: number) {
  let peak = 0;
  const read = () => {
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      // the process is gone
    }
  };
  read();
  const timer = setInterval(read, 50);
  return { stop: () => (clearInterval(timer), read(), peak) };
}

export async function benchHttpLoad(): Promise<void> {
  await withService(async (service) => {
    const host = await createIndex(service, "load", DIMENSION);
    const server = await startHttp({
      env: { PINECONE_API_KEY: service.apiKey, PINECONE_CONTROLLER_HOST: service.controlUrl, VECDB_HTTP_TOKEN: TOKEN },
      args: ["--max-sessions-per-address", "1024", "--max-connections-per-address", "4096", "--max-sessions", "1024"],
    });
    const headers = { Authorization: `Bearer ${TOKEN}` };
    let reference: number | undefined;
    try {
      for (const sessions of LEVELS) {
        const namespace = `level-${sessions}`;
        const clients = await Promise.all(Array.from({ length: sessions }, () => connect(server.url, headers)));
        const latencies: number[] = [];
        let errors = 0;
        let acknowledged = 0;
        const rss = rssSampler(server.child.pid!);
        const started = performance.now();
        await Promise.all(
          clients.map(async ({ client }, s) => {
            const records = makeRecords(CALLS * 2, DIMENSION, s + 1, `${namespace}-s${s}`);
            let written = 0;
            for (let c = 0; c < CALLS; c++) {
              const kind = c % 5;
              const t = performance.now();
              let name: string;
              let args: Record<string, unknown>;
              if (kind === 0) {
                const batch = records.slice(written, written + 10);
                name = "upsert_vectors";
                args = { index: "load", namespace, vectors: batch };
              } else if (kind === 1) {
                name = "query_vectors";
                args = { index: "load", namespace, vector: records[c].values, topK: 5 };
              } else if (kind === 2) {
                name = "fetch_vectors";
                args = { index: "load", namespace, ids: records.slice(0, 5).map((r) => r.id) };
              } else if (kind === 3) {
                name = "describe_index_stats";
                args = { index: "load" };
              } else {
                name = "list_indexes";
                args = {};
              }
              try {
                const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
                if (r.isError) errors++;
                else if (kind === 0) {
                  acknowledged += (r.structuredContent as { upserted: number }).upserted;
                  written += 10;
                }
              } catch {
                errors++;
              }
              latencies.push(performance.now() - t);
            }
          }),
        );
        const seconds = (performance.now() - started) / 1000;
        const peak = rss.stop();
        await Promise.all(clients.map(async ({ client, transport }) => (await transport.terminateSession().catch(() => {}), await client.close())));
        const stats = (await (
          await fetch(`http://${host}/describe_index_stats`, {
            method: "POST",
            headers: { "Api-Key": service.apiKey, "X-Pinecone-API-Version": "2026-04", "Content-Type": "application/json" },
            body: "{}",
          })
        ).json()) as { namespaces?: Record<string, { vectorCount: number }> };
        const held = stats.namespaces?.[namespace]?.vectorCount ?? 0;
        latencies.sort((a, b) => a - b);
        const rate = latencies.length / seconds;
        reference ??= rate;
        process.stdout.write(
          `http load ${sessions} session(s) × ${CALLS} calls: ${rate.toFixed(0)} calls/s (${(rate / reference).toFixed(2)}× the 1-session level), ` +
            `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, server peak RSS ${mb(peak)}, ` +
            `errors ${errors}, records acknowledged ${acknowledged}, held by the service ${held}${held === acknowledged ? " (exact)" : " (MISMATCH)"}\n`,
        );
        if (held !== acknowledged) throw new Error(`the service holds ${held} records of ${namespace}, ${acknowledged} were acknowledged`);
      }
    } finally {
      await server.stop();
    }
  });
}
