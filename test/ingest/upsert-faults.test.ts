// runUpsert through the seeded fault proxy (429 with and without Retry-After, 500, 503, resets, stalls, trickles)
// in front of the local service: every record lands exactly once with the right values.
import { float32Double } from "../../src/common/float32.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService, type Service } from "../../src/api/service.js";
import type { UpsertRecord } from "../../src/ingest/check.js";
import { runUpsert } from "../../src/ingest/upsert.js";
import { startFaultProxy, mulberry32, type FaultProxy } from "../helpers/fault-proxy.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";

let local: RunningService;
let direct: Service;

beforeAll(async () => {
  local = await startServiceProcess();
  direct = createService({ apiKey: local.apiKey, apiVersion: "2026-04", timeoutMs: 30_000, retries: 3, controllerUrl: local.controlUrl });
  await direct.http.request({
    url: `${local.controlUrl}/indexes`,
    method: "POST",
    body: { name: "faults", dimension: 8, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } },
  });
});

afterAll(async () => {
  await direct?.close();
  await local?.stop();
});

describe("runUpsert through faults", () => {
  let proxy: FaultProxy | undefined;
  afterAll(async () => proxy?.close());

  it("20,000 records land exactly once, with the right values, through a seeded storm of faults", async () => {
    proxy = await startFaultProxy({
      target: local.controlUrl,
      seed: 20261121,
      rewriteHosts: true,
      retryAfterSeconds: 0,
      stallMs: 3000,
      trickleDelayMs: 20,
      faults: { rate429: 0.05, rate429RetryAfter: 0.05, rate500: 0.04, rate503: 0.04, rateReset: 0.04, rateStall: 0.02, rateTrickle: 0.04 },
    });
    const service = createService({
      apiKey: local.apiKey,
      apiVersion: "2026-04",
      timeoutMs: 1000,
      retries: 8,
      backoffBaseMs: 20,
      backoffMaxMs: 200,
      controllerUrl: proxy.url,
    });
    const rnd = mulberry32(5);
    const records: UpsertRecord[] = Array.from({ length: 20_000 }, (_, i) => ({
      id: `f-${i}`,
      values: Array.from({ length: 8 }, () => rnd() * 2 - 1),
    }));
    try {
      const out = await runUpsert({ service, index: "faults", namespace: "storm", records, concurrency: 8 });
      expect(out).toMatchObject({ records: 20_000, batches: 200, failedIds: [], failures: [], landed: [{ start: 0, end: 20_000 }] });
      // a reset after the service acted is re-sent: upsertedCount may count such a batch twice
      expect(out.upserted).toBeGreaterThanOrEqual(20_000);
    } finally {
      await service.close();
    }
    const faults = proxy.stats.faults;
    for (const kind of ["429", "429-retry-after", "500", "503", "reset", "stall", "trickle"] as const) {
      expect(faults[kind], kind).toBeGreaterThan(0);
    }

    const model = await direct.hosts.resolve("faults");
    const stats = await direct.data.describeIndexStats(model.host);
    expect(stats.namespaces?.storm.vectorCount).toBe(20_000);
    for (let start = 0; start < records.length; start += 500) {
      const slice = records.slice(start, start + 500);
      const got = await direct.data.fetch(model.host, slice.map((r) => r.id), "storm");
      for (const r of slice) expect(got[r.id]?.values).toEqual(r.values!.map((x) => float32Double(x)));
    }
  });

  it("a service that goes away mid-run: what is reported landed is on the service, the rest is listed", async () => {
    const away = await startFaultProxy({ target: local.controlUrl, seed: 1, rewriteHosts: true, faults: {} });
    const service = createService({
      apiKey: local.apiKey,
      apiVersion: "2026-04",
      timeoutMs: 1000,
      retries: 2,
      backoffBaseMs: 10,
      backoffMaxMs: 50,
      controllerUrl: away.url,
    });
    const records: UpsertRecord[] = Array.from({ length: 5000 }, (_, i) => ({ id: `g-${i}`, values: new Array(8).fill(i / 5000) }));
    let landedBatches = 0;
    try {
      const out = await runUpsert({
        service,
        index: "faults",
        namespace: "away",
        records,
        concurrency: 4,
        onBatch: (b) => {
          if (b.ok && ++landedBatches === 10) away.setDown(true);
        },
      });
      expect(out.aborted).toBe(false);
      const landedIds = out.landed.flatMap((r) => records.slice(r.start, r.end).map((x) => x.id));
      expect(landedIds.length + out.failedIds.length).toBe(5000);
      expect(new Set([...landedIds, ...out.failedIds]).size).toBe(5000);
      expect(out.resumeAt).toBe(out.landed[0]?.start === 0 ? out.landed[0].end : 0);
      expect(out.failures.at(-1)?.message).toBe("not sent: stopped after a failed batch");

      const model = await direct.hosts.resolve("faults");
      const stats = await direct.data.describeIndexStats(model.host);
      const onService = stats.namespaces?.away?.vectorCount ?? 0;
      const got = await fetchAll(model.host, landedIds, "away");
      expect(got).toBe(landedIds.length); // everything reported landed is there
      // Batches cut off in flight may have landed without an answer; nothing that was never sent is there.
      const neverSent = out.failures.at(-1)!.ids;
      expect(await fetchAll(model.host, neverSent, "away")).toBe(0);
      expect(onService - landedIds.length).toBeLessThanOrEqual(4 * 100);
    } finally {
      await service.close();
      await away.close();
    }
  });
});

async function fetchAll(host: string, ids: string[], namespace: string): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += 500) {
    n += Object.keys(await direct.data.fetch(host, ids.slice(i, i + 500), namespace)).length;
  }
  return n;
}
