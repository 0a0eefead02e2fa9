// Cold start: spawn → `initialize` → `tools/list` answered, for our bin (with a key, so no local service) against the
// hosted service's own MCP server (@pinecone-database/mcp), alternating, the median of each.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { repoRoot, serverBin } from "./lib.js";

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const pineconeBin = path.join(repoRoot, "node_modules", "@pinecone-database", "mcp", "dist", "index.js");

/** Milliseconds from spawn to the `tools/list` response; also checks the answer lists at least `minTools` tools. */
export function timeToToolsList(bin: string, minTools = 1): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin], {
      // Any non-empty key: ours then talks to a (never called) hosted control plane and starts no local service.
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PINECONE_API_KEY: "bench-cold-start-key" },
      stdio: ["pipe", "pipe", "ignore"],
    });
    let buffered = "";
    let settled = false;
    const finish = (err: Error | undefined, ms?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      if (err) reject(err);
      else resolve(ms!);
    };
    const timer = setTimeout(() => finish(new Error(`${bin}: no tools/list answer within 30 s`)), 30_000);
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.on("error", (err) => finish(err));
    child.on("exit", (code) => finish(new Error(`${bin} exited with code ${code} before answering tools/list`)));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
        } else if (message.id === 2) {
          const ms = performance.now() - start;
          const count = message.result?.tools?.length ?? 0;
          if (count < minTools) finish(new Error(`${bin}: tools/list answered ${count} tools`));
          else finish(undefined, ms);
        }
      }
    });
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "vecdb-bench", version: "0.0.0" } },
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function benchColdStart(): Promise<{ ours: number; reference: number }> {
  const ours: number[] = [];
  const reference: number[] = [];
  // One unmeasured run each: the first spawn after a build pays for a cold page cache, which says nothing of either.
  await timeToToolsList(serverBin, 4);
  await timeToToolsList(pineconeBin);
  for (let i = 0; i < RUNS; i++) {
    // Alternate which goes first, so a burst of noise on the machine lands on both.
    if (i % 2 === 0) {
      ours.push(await timeToToolsList(serverBin, 4));
      reference.push(await timeToToolsList(pineconeBin));
    } else {
      reference.push(await timeToToolsList(pineconeBin));
      ours.push(await timeToToolsList(serverBin, 4));
    }
  }
  const result = { ours: median(ours), reference: median(reference) };
  const ratio = result.ours / result.reference;
  process.stdout.write(
    `cold start to tools/list (median of ${RUNS}): vecdb-mcp ${result.ours.toFixed(0)} ms, ` +
      `@pinecone-database/mcp ${result.reference.toFixed(0)} ms, ratio ${ratio.toFixed(2)}× (target ≤ 0.4×)\n`,
  );
  return result;
}
