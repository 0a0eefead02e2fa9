// Cold start: spawn → `initialize` → `tools/list` answered, for our bin (with a key, so no local service) against the
// hosted service's own MCP server (@pinecone-database/mcp), alternating, the median of each. On a shared machine the
// times swing with the load (printed); where `perf` is installed, the CPU instructions each spends to the answer and
// its exit (all threads, user space) are counted too: they hardly move with the load, so their ratio is the steadier.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { repoRoot, serverBin } from "./lib.js";

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const pineconeBin = path.join(repoRoot, "node_modules", "@pinecone-database", "mcp", "dist", "index.js");

/** Milliseconds from spawn to the `tools/list` response; also checks the answer lists at least `minTools` tools. */
function timeToToolsList(bin: string, minTools = 1, env?: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin], {
      // Any non-empty key: ours then talks to a (never called) hosted control plane and starts no local service.
      env: env ?? { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PINECONE_API_KEY: "bench-cold-start-key" },
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

/** The instructions (user space, every thread) one start spends from exec to exit, asked initialize and tools/list and
 * then closing its stdin (`perf` must be on the PATH). */
function instructionsToToolsList(bin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("perf", ["stat", "-x,", "-e", "instructions:u", "--", process.execPath, bin], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PINECONE_API_KEY: "bench-cold-start-key" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let buffered = "";
    let stderr = "";
    let listed = false;
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffered.slice(0, newline)) as { id?: number };
        buffered = buffered.slice(newline + 1);
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
        } else if (message.id === 2) {
          listed = true;
          child.stdin.end();
        }
      }
    });
    child.on("exit", () => {
      clearTimeout(timer);
      const count = /^(\d+),,instructions/m.exec(stderr)?.[1];
      if (listed && count) resolve(Number(count));
      else reject(new Error(`${bin}: no instruction count (${listed ? "answered" : "no tools/list answer"}): ${stderr.slice(-300)}`));
    });
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "vecdb-bench", version: "0.0.0" } },
    });
  });
}

const hasPerf = () => spawnSync("perf", ["stat", "-x,", "-e", "instructions:u", "--", "true"], { stdio: "ignore" }).status === 0;

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function benchColdStart(): Promise<{ ours: number; reference: number }> {
  const loadBefore = load();
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
      `@pinecone-database/mcp ${result.reference.toFixed(0)} ms, ratio ${ratio.toFixed(2)}× (target ≤ 0.36×); ` +
      `load average ${loadBefore} before, ${load()} after\n`,
  );
  if (hasPerf()) {
    const counted = { ours: [] as number[], reference: [] as number[] };
    for (let i = 0; i < 5; i++) {
      counted.ours.push(await instructionsToToolsList(serverBin));
      counted.reference.push(await instructionsToToolsList(pineconeBin));
    }
    const [o, r] = [median(counted.ours) / 1e6, median(counted.reference) / 1e6];
    process.stdout.write(
      `cold start, CPU instructions from exec to tools/list and exit (perf stat, median of 5): vecdb-mcp ${o.toFixed(0)} M, ` +
        `@pinecone-database/mcp ${r.toFixed(0)} M, ratio ${(o / r).toFixed(2)}×\n`,
    );
  }
  return result;
}

/**
 * The shared local service: with no key, a server that finds its data dir's service already running must answer
 * tools/list as fast as one with a key (it looks for the service in the background). Ours with a key is the reference, same run.
 */
export async function benchColdStartShared(): Promise<{ shared: number; keyed: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "vecdb-bench-shared-"));
  const service = spawn(process.execPath, [serverBin, "serve", "--data-dir", dataDir, "--port", "0", "--local-idle-s", "600"], { stdio: "ignore" });
  try {
    const deadline = Date.now() + 20_000;
    while (!existsSync(path.join(dataDir, "service.json"))) {
      if (Date.now() > deadline) throw new Error("the local service did not start");
      await new Promise((r) => setTimeout(r, 20));
    }
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", VECDB_DATA_DIR: dataDir };
    const shared: number[] = [];
    const keyed: number[] = [];
    await timeToToolsList(serverBin, 4, env);
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        shared.push(await timeToToolsList(serverBin, 4, env));
        keyed.push(await timeToToolsList(serverBin, 4));
      } else {
        keyed.push(await timeToToolsList(serverBin, 4));
        shared.push(await timeToToolsList(serverBin, 4, env));
      }
    }
    const result = { shared: median(shared), keyed: median(keyed) };
    const pid = (JSON.parse(readFileSync(path.join(dataDir, "service.json"), "utf8")) as { pid: number }).pid;
    const one = pid === service.pid ? "every server used the one service" : `a different service (pid ${pid}) took over`;
    process.stdout.write(
      `cold start to tools/list, no key with the local service running (median of ${RUNS}): ${result.shared.toFixed(0)} ms, ` +
        `with a key ${result.keyed.toFixed(0)} ms, ratio ${(result.shared / result.keyed).toFixed(2)}× (target ≤ 1.1×; ${one})\n`,
    );
    return result;
  } finally {
    service.kill("SIGTERM");
    await new Promise((r) => service.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
