// upsert_vectors through the MCP server over stdio (the client serialising the call and the server parsing it
// included) against the official client's hand-written loop, on the same local service in the same run: 10,000
// records of dimension 768, sent as valuesBase64 (base64 of little-endian float32, how embedding APIs hand vectors
// out) and as numbers, in one call and in 10 calls of 1,000. The reference always sends numbers, 100 a request,
// 8 at a time. Each round measures the reference and then the four cases (in a rotating order, each on a fresh
// index); a case's ratio is its best round against the reference's best round, and every round's own ratio (ours
// against the reference of the same round) is printed with their median for the spread. On a shared machine wall time mostly measures who else is running, so each case also
// counts the CPU time of all three processes (this one, the MCP server, the local service) against the reference's.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectServer, createIndex, makeRecords, officialClientLoop, ratioLine, withService, type BenchRecord } from "./lib.js";

const COUNT = Number(process.env.BENCH_COUNT ?? 10_000);
const CALL = Number(process.env.BENCH_CALL ?? 1_000); // records per call of the mid-size cases
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DIMENSION = 768;

type Encoding = "valuesBase64" | "numbers";
interface Case {
  label: string;
  encoding: Encoding;
  perCall: number;
  target: string;
}

const CASES: Case[] = [
  { label: "valuesBase64, one call", encoding: "valuesBase64", perCall: COUNT, target: "≥ 1.2×" },
  { label: "numbers, one call", encoding: "numbers", perCall: COUNT, target: "none; see bench/README.md" },
  { label: `valuesBase64, ${Math.ceil(COUNT / CALL)} calls of ${CALL}`, encoding: "valuesBase64", perCall: CALL, target: "none" },
  { label: `numbers, ${Math.ceil(COUNT / CALL)} calls of ${CALL}`, encoding: "numbers", perCall: CALL, target: "none" },
];

/** Base64 of little-endian float32, as a client holding float32 embeddings has them (this machine is little-endian). */
function base64Records(records: BenchRecord[]) {
  return records.map(({ id, values, metadata }) => ({ id, valuesBase64: Buffer.from(Float32Array.from(values).buffer).toString("base64"), metadata }));
}

/**
 * What any stdio MCP client and server pay for the one JSON-RPC message of the call, whatever the server does next:
 * the client's JSON.stringify and the server's JSON.parse of it (measured here, in this process).
 */
function messageCost(records: unknown[]): { mb: number; stringifyMs: number; parseMs: number } {
  let start = performance.now();
  const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "upsert_vectors", arguments: { index: "x", vectors: records } } });
  const stringifyMs = performance.now() - start;
  start = performance.now();
  JSON.parse(text);
  return { mb: Math.round(text.length / 1e6), stringifyMs, parseMs: performance.now() - start };
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** CPU milliseconds (user + system) a process has used so far; undefined where /proc cannot tell (not Linux). */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  }
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

async function upsertCalls(client: Client, index: string, vectors: unknown[], perCall: number): Promise<void> {
  for (let from = 0; from < vectors.length; from += perCall) {
    const result = await client.callTool(
      { name: "upsert_vectors", arguments: { index, vectors: vectors.slice(from, from + perCall) } },
      undefined,
      { timeout: 600_000 },
    );
    if (result.isError) throw new Error(`upsert_vectors failed: ${JSON.stringify(result.content).slice(0, 500)}`);
  }
}

export async function benchUpsertTool(): Promise<{ ours: number; reference: number }> {
  const records = makeRecords(COUNT, DIMENSION);
  const inputs: Record<Encoding, unknown[]> = { numbers: records, valuesBase64: base64Records(records) };
  return withService(async (service) => {
    let reference = 0;
    const referenceRounds: number[] = [];
    const best = CASES.map(() => 0);
    const rounds: number[][] = CASES.map(() => []);
    let stdioLegMs = 0;
    const { client, pid, close } = await connectServer(service);
    // CPU of the three processes, summed, before and after each run.
    const cpuNow = () => {
      const all = [cpuMs(undefined), cpuMs(pid), cpuMs(service.child.pid)];
      return all.some((x) => x === undefined) ? undefined : (all as number[]).reduce((a, b) => a + b, 0);
    };
    const cpuSince = (from: number | undefined) => {
      const to = cpuNow();
      return from === undefined || to === undefined ? Number.NaN : to - from;
    };
    const referenceCpu: number[] = [];
    const cpu: number[][] = CASES.map(() => []);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const refIndex = `ref-${round}`;
        const refHost = await createIndex(service, refIndex, DIMENSION);
        let cpuStart = cpuNow();
        let start = performance.now();
        await officialClientLoop(service, refIndex, refHost, records);
        const ref = COUNT / ((performance.now() - start) / 1000);
        referenceCpu.push(cpuSince(cpuStart));
        referenceRounds.push(ref);
        reference = Math.max(reference, ref);

        for (let k = 0; k < CASES.length; k++) {
          const c = (k + round) % CASES.length;
          const index = `ours-${round}-${c}`;
          await createIndex(service, index, DIMENSION);
          cpuStart = cpuNow();
          start = performance.now();
          await upsertCalls(client, index, inputs[CASES[c].encoding], CASES[c].perCall);
          const ours = COUNT / ((performance.now() - start) / 1000);
          cpu[c].push(cpuSince(cpuStart));
          best[c] = Math.max(best[c], ours);
          rounds[c].push(ours / ref);
        }
      }
      // Where the time goes with numbers: the same call to an index that does not exist costs the stdio leg alone
      // (the client serialises the message, the pipe, the server parses it and checks the arguments) plus one
      // control-plane call.
      const start = performance.now();
      const missing = await client.callTool({ name: "upsert_vectors", arguments: { index: "no-such-index", vectors: records } }, undefined, { timeout: 600_000 });
      stdioLegMs = performance.now() - start;
      if (!missing.isError) throw new Error("upsert_vectors to a missing index did not fail");
    } finally {
      await close();
    }
    const rate = (n: number) => n.toFixed(0);
    for (let c = 0; c < CASES.length; c++) {
      const line = ratioLine(`upsert_vectors ${COUNT}×${DIMENSION} ${CASES[c].label}`, best[c], reference, "vectors/s", CASES[c].target);
      // CPU ratio: the reference's least CPU over this case's least, both summed over the three processes.
      const cpuRatio = Math.min(...referenceCpu) / Math.min(...cpu[c]);
      process.stdout.write(
        `${line}; rounds ${rounds[c].map((r) => `${r.toFixed(2)}×`).join(" ")} (median ${median(rounds[c]).toFixed(2)}×); CPU ${cpu[c].map((ms) => ms.toFixed(0)).join(", ")} ms against ` +
          `the reference's ${referenceCpu.map((ms) => ms.toFixed(0)).join(", ")} ms, CPU ratio ${cpuRatio.toFixed(2)}×\n`,
      );
    }
    const numbers = messageCost(records);
    const base64 = messageCost(inputs.valuesBase64);
    process.stdout.write(
      `upsert_vectors reference rounds ${referenceRounds.map(rate).join(", ")} vectors/s (${((COUNT / reference) * 1000).toFixed(0)} ms at best); ` +
        `numbers: stdio leg alone ${stdioLegMs.toFixed(0)} ms, the ${numbers.mb} MB message costs JSON.stringify ${numbers.stringifyMs.toFixed(0)} ms + JSON.parse ${numbers.parseMs.toFixed(0)} ms; ` +
        `valuesBase64: the ${base64.mb} MB message costs JSON.stringify ${base64.stringifyMs.toFixed(0)} ms + JSON.parse ${base64.parseMs.toFixed(0)} ms\n`,
    );
    return { ours: best[0], reference };
  });
}
