// runUpsert against the project's own local service (a real child process on a free port).
import { float32Double } from "../../src/common/float32.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService, type Service } from "../../src/api/service.js";
import type { UpsertRecord } from "../../src/ingest/check.js";
import { runUpsert } from "../../src/ingest/upsert.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startProxy } from "../e2e/support.js";

let local: RunningService;
let service: Service;

beforeAll(async () => {
  local = await startServiceProcess();
  service = createService({ apiKey: local.apiKey, apiVersion: "2026-04", timeoutMs: 30_000, retries: 3, controllerUrl: local.controlUrl });
  await service.http.request({
    url: `${local.controlUrl}/indexes`,
    method: "POST",
    body: { name: "docs", dimension: 1536, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } },
  });
  for (let i = 0; i < 100; i++) {
    const m = await service.control.describeIndex("docs");
    if (m.status.ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  await service?.close();
  await local?.stop();
});

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("runUpsert on the local service", () => {
  it("1,000 records of dimension 1536 land exactly as 32-bit floats", async () => {
    const rnd = seeded(42);
    const records: UpsertRecord[] = Array.from({ length: 1000 }, (_, i) => ({
      id: `doc-${i}`,
      values: Array.from({ length: 1536 }, () => rnd() * 2 - 1),
      metadata: { n: i, tags: ["a", `t${i % 5}`] },
    }));
    const progress: number[] = [];
    const out = await runUpsert({ service, index: "docs", namespace: "ns", records, concurrency: 8, onProgress: (d) => progress.push(d) });
    expect(out).toMatchObject({ records: 1000, batches: 10, upserted: 1000, failedIds: [], aborted: false, resumeAt: 1000 });
    expect(Math.max(...progress)).toBe(1000);

    const stats = await service.data.describeIndexStats(out.host);
    expect(stats.namespaces?.ns.vectorCount).toBe(1000);

    for (let start = 0; start < 1000; start += 100) {
      const slice = records.slice(start, start + 100);
      const got = await service.data.fetch(out.host, slice.map((r) => r.id), "ns");
      for (const r of slice) {
        const v = got[r.id];
        expect(v.values).toEqual(r.values!.map((x) => float32Double(x)));
        expect(v.metadata).toEqual(r.metadata);
      }
    }
  });

  it("ten runs against one index cost one control-plane call", async () => {
    // A counting pass-through in front of the control plane (it proves itself for its own port, as the client asks).
    const proxy = await startProxy({ target: local.controlUrl });
    const proxied = createService({ apiKey: local.apiKey, apiVersion: "2026-04", timeoutMs: 30_000, retries: 3, controllerUrl: proxy.url });
    try {
      for (let k = 0; k < 10; k++) {
        const out = await runUpsert({
          service: proxied,
          index: "docs",
          records: [{ id: `again-${k}`, values: new Array(1536).fill(k / 10) }],
          concurrency: 2,
        });
        expect(out.upserted).toBe(1);
      }
      expect(proxy.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /indexes/docs"]);
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });
});
