// Shared pieces of the benchmarks: a local service per run, seeded data, the reference loop, an MCP client.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createReadStream, createWriteStream, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pinecone } from "@pinecone-database/pinecone";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServiceProcess, type RunningService } from "../test/helpers/local-service.js";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The shipped bin: the single-file bundle (scripts/bundle.mjs). */
export const serverBin = path.join(repoRoot, "dist", "vecdb-mcp.js");

export interface BenchRecord { id: string; values: number[]; metadata: Record<string, string | number> }

/** Deterministic records (mulberry32), so both contenders send the same data. */
export function makeRecords(count: number, dimension: number, seed = 42, prefix = "rec"): BenchRecord[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const records: BenchRecord[] = [];
  for (let i = 0; i < count; i++) {
    const values = new Array<number>(dimension);
    for (let d = 0; d < dimension; d++) values[d] = random() * 2 - 1;
    records.push({ id: `${prefix}-${i}`, values, metadata: { n: i, source: "bench" } });
  }
  return records;
}

export async function withService<T>(run: (service: RunningService) => Promise<T>): Promise<T> {
  const service = await startServiceProcess();
  try {
    return await run(service);
  } finally {
    await service.stop();
    await rm(service.dataDir, { recursive: true, force: true });
  }
}

export async function createIndex(service: RunningService, name: string, dimension: number): Promise<string> {
  const pc = new Pinecone({ apiKey: service.apiKey, controllerHostUrl: service.controlUrl });
  await pc.createIndex({ name, dimension, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
  // The client's own waitUntilReady polls every 5 s; poll faster.
  for (;;) {
    const described = await pc.describeIndex(name);
    if (described.status?.ready) return described.host;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The reference: the official client's best hand-written loop — chunks of 100, 8 requests at a time. */
export async function officialClientLoop(
  service: RunningService,
  index: string,
  host: string,
  records: Iterable<BenchRecord> | AsyncIterable<BenchRecord>,
  chunkSize = 100,
  concurrency = 8,
): Promise<number> {
  const pc = new Pinecone({ apiKey: service.apiKey, controllerHostUrl: service.controlUrl });
  const target = pc.index({ name: index, host: `http://${host}` });
  const inFlight = new Set<Promise<void>>();
  let chunk: BenchRecord[] = [];
  let sent = 0;
  const send = async (batch: BenchRecord[]) => {
    const p: Promise<void> = target.upsert({ records: batch }).then(() => {
      sent += batch.length;
      inFlight.delete(p);
    });
    inFlight.add(p);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  };
  for await (const record of records) {
    chunk.push(record);
    if (chunk.length === chunkSize) {
      await send(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) await send(chunk);
  await Promise.all(inFlight);
  return sent;
}

export async function connectServer(
  service: RunningService,
  extraEnv: Record<string, string> = {},
  args: string[] = [],
): Promise<{ client: Client; pid: number; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverBin, ...args],
    env: {
      PATH: process.env.PATH ?? "",
      PINECONE_API_KEY: service.apiKey,
      PINECONE_CONTROLLER_HOST: service.controlUrl,
      ...extraEnv,
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "vecdb-bench", version: "0.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid ?? 0, close: () => client.close() };
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

export function ratioLine(label: string, ours: number, reference: number, unit: string, target: string): string {
  return `${label}: vecdb-mcp ${ours.toFixed(0)} ${unit}, reference ${reference.toFixed(0)} ${unit}, ratio ${(ours / reference).toFixed(2)}× (target ${target})`;
}

/**
 * Writes `count` records (makeRecords' data, generated in slices) as JSONL. Values are written the way a dump of
 * 32-bit embeddings usually looks (`json.dumps(array.tolist())`): the float64 spelling of each float32, ~19 chars.
 * Returns the file's size in bytes.
 */
export async function writeJsonl(file: string, count: number, dimension: number, prefix = "rec"): Promise<number> {
  const out = createWriteStream(file);
  const SLICE = 1000;
  let bytes = 0;
  for (let from = 0; from < count; from += SLICE) {
    const records = makeRecords(Math.min(SLICE, count - from), dimension, 42 + from, prefix);
    let text = "";
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const values = r.values.map((v) => String(Math.fround(v))).join(",");
      text += `{"id":"${prefix}-${from + i}","values":[${values}],"metadata":{"n":${from + i},"source":"bench"}}\n`;
    }
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return bytes;
}

/** The reference's reader: the file line by line (node:readline), each line JSON.parse'd. */
export async function* readJsonlLines(file: string): AsyncGenerator<BenchRecord> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== "") yield JSON.parse(line) as BenchRecord;
}

/** Samples a process's resident memory until stopped; `peak()` is the kernel's high-water mark (VmHWM) when readable. */
export function watchRss(pid: number): { stop(): { peakBytes: number } } {
  let sampled = 0;
  const read = (field: string): number | undefined => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
      return match ? Number(match[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  };
  const timer = setInterval(() => (sampled = Math.max(sampled, read("VmRSS") ?? 0)), 50);
  return {
    stop() {
      clearInterval(timer);
      return { peakBytes: Math.max(sampled, read("VmHWM") ?? 0) };
    },
  };
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

/** The official client's createIndexForModel with local-bm25 on field "text", waited for until ready; its host. */
export async function createIndexForModel(pc: Pinecone, name: string): Promise<string> {
  await pc.createIndexForModel({ name, cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } });
  for (;;) {
    const d = await pc.describeIndex(name);
    if (d.status?.ready) return d.host;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The reference for text upserts: the official client's upsertRecords in batches of 96, 8 at a time. */
export async function upsertRecordsLoop(pc: Pinecone, name: string, host: string, namespace: string, records: Record<string, unknown>[]): Promise<void> {
  const ns = pc.index({ name, host: `http://${host}` }).namespace(namespace);
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < records.length; i += 96) {
    const p: Promise<void> = ns.upsertRecords({ records: records.slice(i, i + 96) as never }).then(() => void inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= 8) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}

/** A small seeded generator of numbers in [0, 1) (mulberry32): the same data in every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word ranks drawn with probability ∝ 1/rank (Zipf, s = 1), by inverting the cumulative distribution. */
export function zipf(n: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cumulative[r] = sum += 1 / (r + 1);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Pronounceable distinct words: the rank written in syllables. */
export function syllableWord(rank: number): string {
  const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "be", "du", "fa", "go", "hi", "ja", "pe", "zu"];
  let out = "";
  let n = rank + 16;
  while (n > 0) {
    out += syllables[n % 16];
    n = Math.floor(n / 16);
  }
  return out;
}
