// import_vectors through faults: the seeded fault proxy in front of the local service (control and data plane), the
// built server over stdio. 20,000 records through a storm land exactly once with the right values; a service that
// goes away mid-import and a cancelled import give exact accounting, and the startAt they give completes the import.
import { float32Double } from "../../../src/common/float32.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { mulberry32, startFaultProxy, type FaultProxy } from "../../helpers/fault-proxy.js";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { createIndex, fetchVectors, indexStats, serverless } from "../../e2e/support.js";

const DIM = 16;
let svc: RunningService;
let host = "";
let dir: string;
const open: { close(): Promise<void> }[] = [];

function records(n: number, prefix: string, seed: number) {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, values: Array.from({ length: DIM }, () => rnd() * 2 - 1) }));
}
function writeJsonl(name: string, recs: { id: string; values: number[] }[]): string {
  writeFileSync(join(dir, name), recs.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return join(dir, name);
}
async function count(ns: string): Promise<number> {
  return (await indexStats(svc, host)).namespaces[ns]?.vectorCount ?? 0;
}
/** The records of the given 1-based line ranges (one record per line in these files). */
const inRanges = <T>(recs: T[], ranges: { first: number; last: number }[]) => ranges.flatMap((r) => recs.slice(r.first - 1, r.last));

async function mcpThrough(proxy: FaultProxy, args: string[]): Promise<McpSession> {
  const mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: proxy.url }, args: ["--allow-dir", dir, ...args] });
  open.push(mcp);
  return mcp;
}

beforeAll(async () => {
  svc = await startServiceProcess();
  host = (await createIndex(svc, { name: "storm", dimension: DIM, spec: serverless })).host;
  dir = mkdtempSync(join(tmpdir(), "vecdb-import-faults-"));
});

afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => {});
  await svc?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("20,000 records through 429 ± Retry-After, 500, 503, resets, stalls and trickles: every id once, right values", async () => {
  const faults = { rate429: 0.04, rate429RetryAfter: 0.03, rate500: 0.04, rate503: 0.04, rateReset: 0.04, rateStall: 0.02, rateTrickle: 0.04 };
  // The first request is the control plane's describe_index: pick the first seed from 1 on whose first draw is a 503
  // (cumulative rates: 0.11 ≤ r < 0.15), so the control plane is faulted too, repeatably.
  let seed = 1;
  while (!((r) => r >= 0.11 && r < 0.15)(mulberry32(seed)())) seed++;
  const proxy = await startFaultProxy({ target: svc.controlUrl, seed, rewriteHosts: true, retryAfterSeconds: 1, stallMs: 2500, trickleDelayMs: 20, faults });
  open.push(proxy);
  const mcp = await mcpThrough(proxy, ["--timeout-ms", "1000", "--retries", "8"]);
  const recs = records(20_000, "s-", 42);
  const path = writeJsonl("storm.jsonl", recs);

  const r = await mcp.call("import_vectors", { index: "storm", namespace: "storm", path }, { progress: true, timeoutMs: 300_000 });
  expect(r.isError, r.text).toBe(false);
  expect(r.structured).toMatchObject({ records: 20_000, batches: 200, failed: 0, landed: [{ first: 1, last: 20_000 }], failures: [] });
  // a reset comes after the service acted: that batch is sent again and its upsertedCount counted twice
  expect(r.structured!.upserted as number).toBeGreaterThanOrEqual(20_000);
  expect(r.progress.at(-1)).toMatchObject({ progress: 20_000, total: 20_000 });

  const byKind = (kind: string, plane: string) => proxy.stats.events.filter((e) => e.fault === kind && e.plane === plane).length;
  expect(byKind("503", "control")).toBeGreaterThan(0);
  for (const kind of ["429", "429-retry-after", "500", "503", "reset", "stall", "trickle"]) expect(byKind(kind, "data"), kind).toBeGreaterThan(0);

  expect(await count("storm")).toBe(20_000);
  const got = await fetchVectors(svc, host, recs.map((x) => x.id), "storm");
  expect(Object.keys(got)).toHaveLength(20_000);
  for (const x of recs) expect(got[x.id].values).toEqual(x.values.map(float32Double));
});

it("a service that goes away mid-import: exact landed / not-landed accounting, and the startAt it gives completes the import", async () => {
  const proxy = await startFaultProxy({ target: svc.controlUrl, seed: 7, rewriteHosts: true, faults: {} });
  open.push(proxy);
  const mcp = await mcpThrough(proxy, ["--timeout-ms", "2000", "--retries", "1", "--concurrency", "4"]);
  const recs = records(5000, "a-", 7);
  const path = writeJsonl("away.jsonl", recs);

  const call = mcp.client.callTool({ name: "import_vectors", arguments: { index: "storm", namespace: "away", path } }, undefined, {
    timeout: 120_000,
    onprogress: (p) => {
      if (p.progress >= 1500) proxy.setDown(true);
    },
  });
  const result = (await call) as { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
  expect(result.isError).toBe(true);
  const s = result.structuredContent as { landed: { first: number; last: number }[]; failed: number; records: number; resumeStartAt: number };
  const text = result.content[0].text!;
  const landed = inRanges(recs, s.landed);
  expect(landed.length).toBeGreaterThanOrEqual(1500);
  expect(landed.length + s.failed).toBe(5000);
  expect(text).toMatch(new RegExp(`^The import stopped: ${s.failed} of 5000 records were NOT written \\(${landed.length} were\\)\\.\nLanded: lines 1–`));
  expect(text).toContain(`startAt: ${s.resumeStartAt} `);
  // "Why" accounts for every record not written: the failed requests and the records never sent
  const why = [...text.matchAll(/^- (\d+) records: (.*)$/gm)];
  expect(why.reduce((n, m) => n + Number(m[1]), 0)).toBe(s.failed);
  expect(why.at(-1)![2]).toBe("not sent, sending stops after a request fails for good");
  // resume where the first record did not land: nothing before it is missing
  expect(s.landed[0].first).toBe(1);
  expect(s.resumeStartAt).toBe(s.landed[0].last + 1);

  // Against the service: everything reported landed is there; beyond it only batches that were in flight when the
  // connections died (forwarded, answer lost: at most 4 batches of 100).
  const there = await fetchVectors(svc, host, landed.map((x) => x.id), "away");
  expect(Object.keys(there)).toHaveLength(landed.length);
  const onService = await count("away");
  expect(onService - landed.length).toBeGreaterThanOrEqual(0);
  expect(onService - landed.length).toBeLessThanOrEqual(400);
  const notLanded = recs.filter((_, i) => !s.landed.some((r) => i + 1 >= r.first && i + 1 <= r.last));
  const strays = Object.keys(await fetchVectors(svc, host, notLanded.map((x) => x.id), "away"));
  expect(strays.length).toBe(onService - landed.length);

  proxy.setDown(false);
  const resumed = await mcp.call("import_vectors", { index: "storm", namespace: "away", path, startAt: s.resumeStartAt });
  expect(resumed.isError, resumed.text).toBe(false);
  expect(resumed.structured).toMatchObject({ startAt: s.resumeStartAt, records: 5001 - s.resumeStartAt, failed: 0 });
  expect(await count("away")).toBe(5000);
  const all = await fetchVectors(svc, host, recs.map((x) => x.id), "away");
  for (const x of recs) expect(all[x.id].values).toEqual(x.values.map(float32Double));
});

it("cancelling stops at once; the log gives the landed lines and the startAt that completes the import", async () => {
  const proxy = await startFaultProxy({ target: svc.controlUrl, seed: 3, rewriteHosts: true, faults: {} });
  open.push(proxy);
  const mcp = await mcpThrough(proxy, ["--concurrency", "2"]);
  await mcp.client.setLoggingLevel("warning");
  const recs = records(5000, "c-", 3);
  const path = writeJsonl("cancel.jsonl", recs);

  const controller = new AbortController();
  const call = mcp.client.callTool({ name: "import_vectors", arguments: { index: "storm", namespace: "cancel", path } }, undefined, {
    signal: controller.signal,
    onprogress: (p) => {
      if (p.progress >= 1000) controller.abort("enough");
    },
  });
  await expect(call).rejects.toThrow();
  const stoppedAt = Date.now();
  let line = "";
  while (!line && Date.now() - stoppedAt < 5000) {
    line = mcp.logMessages.map((m) => String(m.data)).find((d) => d.startsWith("import_vectors of")) ?? "";
    await new Promise((r) => setTimeout(r, 20));
  }
  const m = /^import_vectors of (\S+) cancelled: (\d+) of 5000 records landed \(lines ([\d–, ]+)\); resume with startAt (\d+)$/.exec(line);
  expect(m, line).not.toBeNull();
  expect(m![1]).toBe(path);
  const ranges = m![3].split(", ").map((r) => r.split("–").map(Number));
  const landed = Number(m![2]);
  expect(ranges.reduce((n, [a, b = a]) => n + b - a + 1, 0)).toBe(landed);
  expect(ranges[0][0]).toBe(1);
  const startAt = Number(m![4]);
  expect(startAt).toBe(ranges[0][1] + 1);
  // nothing is sent after the cancel: the count holds still, at most the batches in flight landed beyond the report
  const soon = await count("cancel");
  await new Promise((r) => setTimeout(r, 300));
  expect(await count("cancel")).toBe(soon);
  expect(soon - landed).toBeLessThanOrEqual(200);
  expect(Object.keys(await fetchVectors(svc, host, recs.slice(0, startAt - 1).map((x) => x.id), "cancel"))).toHaveLength(startAt - 1);

  const resumed = await mcp.call("import_vectors", { index: "storm", namespace: "cancel", path, startAt: startAt });
  expect(resumed.isError, resumed.text).toBe(false);
  expect(await count("cancel")).toBe(5000);
});
