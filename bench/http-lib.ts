// What the HTTP benchmarks share: a server with a bearer token (optionally with the heap probe loaded), the mixed
// calls of one session, percentiles, the heap after GC, and the records the service holds in a namespace.
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { startHttp, type HttpServerProcess } from "../test/helpers/http-server.js";
import type { RunningService } from "../test/helpers/local-service.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { repoRoot, type BenchRecord } from "./lib.js";

const TOKEN = "bench-token-0123456789abcdef";
export const AUTH = { Authorization: `Bearer ${TOKEN}` };

export function startBenchServer(service: RunningService, args: string[] = [], opts: { heapProbe?: boolean; env?: Record<string, string> } = {}): Promise<HttpServerProcess> {
  return startHttp({
    env: {
      PINECONE_API_KEY: service.apiKey,
      PINECONE_CONTROLLER_HOST: service.controlUrl,
      VECDB_HTTP_TOKEN: TOKEN,
      ...(opts.heapProbe && heapProbeEnv()),
      ...opts.env,
    },
    args,
  });
}

/** What loads the heap probe into a process (and, with BENCH_HEAP_SNAPSHOTS set, has it write snapshots there). */
export function heapProbeEnv(): Record<string, string> {
  const snapshots = process.env.BENCH_HEAP_SNAPSHOTS;
  return { NODE_OPTIONS: `--import=${path.join(repoRoot, "bench", "heap-probe.mjs")}`, ...(snapshots && { BENCH_HEAP_SNAPSHOTS: snapshots }) };
}

/** A process's heap in use after two full collections (it needs the heap probe). */
export async function heapAfterGc(server: { child: ChildProcess; stderr(): string }): Promise<number> {
  const before = server.stderr().match(/heap-probe: \d+/g)?.length ?? 0;
  server.child.kill("SIGUSR2");
  for (;;) {
    const all = [...server.stderr().matchAll(/heap-probe: (\d+)/g)];
    if (all.length > before) return Number(all[all.length - 1][1]);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The records the service holds in a namespace of the index at `host`. */
export async function heldIn(service: RunningService, host: string, namespace: string): Promise<number> {
  const res = await fetch(`http://${host}/describe_index_stats`, {
    method: "POST",
    headers: { "Api-Key": service.apiKey, "X-Pinecone-API-Version": "2026-04", "Content-Type": "application/json" },
    body: "{}",
  });
  const stats = (await res.json()) as { namespaces?: Record<string, { vectorCount: number }> };
  return stats.namespaces?.[namespace]?.vectorCount ?? 0;
}

/**
 * Call `c` of a session's mix, one in five each: upsert_vectors of the next 10 records (cycling through `records`),
 * query_vectors, fetch_vectors, describe_index_stats, list_indexes. `writes`: the ids an upsert sends ([] for the others).
 */
export function mixedArgs(index: string, namespace: string, records: BenchRecord[], c: number): { name: string; args: Record<string, unknown>; writes: string[] } {
  const kind = c % 5;
  const from = (Math.floor(c / 5) * 10) % records.length;
  const batch = records.slice(from, from + 10);
  const [name, args]: [string, Record<string, unknown>] =
    kind === 0
      ? ["upsert_vectors", { index, namespace, vectors: batch }]
      : kind === 1
        ? ["query_vectors", { index, namespace, vector: records[c % records.length].values, topK: 5 }]
        : kind === 2
          ? ["fetch_vectors", { index, namespace, ids: records.slice(0, 5).map((r) => r.id) }]
          : kind === 3
            ? ["describe_index_stats", { index }]
            : ["list_indexes", {}];
  return { name, args, writes: kind === 0 ? batch.map((v) => v.id) : [] };
}

/** The ids an upsert's answer says were written (those it sent less its failedIds). */
export function written(writes: string[], structuredContent: unknown): string[] {
  if (writes.length === 0) return [];
  const { failedIds } = structuredContent as { failedIds: string[] };
  return writes.filter((id) => !failedIds.includes(id));
}

/** Call `c` of a session's mix (mixedArgs) through an SDK client: the ids it wrote, or undefined when it answered an error. */
export async function mixedCall(client: Client, index: string, namespace: string, records: BenchRecord[], c: number): Promise<string[] | undefined> {
  const { name, args, writes } = mixedArgs(index, namespace, records, c);
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
  if (r.isError) return undefined;
  return written(writes, r.structuredContent);
}
