// runUpsert against small real HTTP servers: a controller and data hosts whose faults each test chooses.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { IndexNotReadyError, ServiceError } from "../../src/api/errors.js";
import { createService, type Service } from "../../src/api/service.js";
import { RecordCheckError, type UpsertRecord } from "../../src/ingest/check.js";
import { runUpsert, type BatchReport } from "../../src/ingest/upsert.js";
import { json, startFakeServer, type FakeServer } from "../api/fake-server.js";

const servers: FakeServer[] = [];
const services: Service[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type DataHandler = (req: IncomingMessage, res: ServerResponse, n: number, body: string) => void;

const ok: DataHandler = (_req, res, _n, body) => {
  json(res, 200, { upsertedCount: (JSON.parse(body) as { vectors: unknown[] }).vectors.length });
};

async function cluster(
  opts: { data?: DataHandler[]; state?: () => { ready: boolean; state: string }; dim?: number; gone?: () => boolean } = {},
) {
  const hosts: FakeServer[] = [];
  for (const h of opts.data ?? [ok]) {
    const s = await startFakeServer(h);
    servers.push(s);
    hosts.push(s);
  }
  let current = 0;
  const control = await startFakeServer((req, res) => {
    if (req.url === "/indexes/docs" && !opts.gone?.()) {
      json(res, 200, {
        name: "docs",
        dimension: opts.dim ?? 2,
        metric: "cosine",
        host: `127.0.0.1:${hosts[current].port}`,
        spec: { serverless: { cloud: "aws", region: "us-east-1" } },
        status: opts.state ? opts.state() : { ready: true, state: "Ready" },
      });
    } else json(res, 404, { status: 404, error: { code: "NOT_FOUND", message: `Index ${req.url} not found.` } });
  });
  servers.push(control);
  const service = createService({
    apiKey: "k",
    apiVersion: "2026-04",
    timeoutMs: 1000,
    retries: 3,
    backoffBaseMs: 5,
    backoffMaxMs: 20,
    controllerUrl: control.url,
  });
  services.push(service);
  return { hosts, control, service, moveTo: (i: number) => (current = i) };
}

const recs = (n: number, dim = 2): UpsertRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: `id-${i}`, values: Array.from({ length: dim }, (_, j) => i + j / 3) }));

/** Ids in the bodies the host answered 200 to. */
function landedIds(host: FakeServer, okStatuses: Set<number>): string[] {
  return host.received
    .filter((_, k) => okStatuses.has(k + 1))
    .flatMap((r) => (JSON.parse(r.body) as { vectors: { id: string }[] }).vectors.map((v) => v.id));
}

describe("runUpsert", () => {
  it("sends ≤ 100 records per request, sums upsertedCount, reports progress per batch", async () => {
    const { service, hosts, control } = await cluster();
    const progress: [number, number | undefined][] = [];
    const out = await runUpsert({
      service,
      index: "docs",
      namespace: "ns",
      records: recs(250),
      concurrency: 4,
      onProgress: (d, t) => progress.push([d, t]),
    });
    expect(out).toMatchObject({
      records: 250,
      batches: 3,
      upserted: 250,
      failedIds: [],
      failures: [],
      aborted: false,
      landed: [{ start: 0, end: 250 }],
      resumeAt: 250,
      host: `127.0.0.1:${hosts[0].port}`,
    });
    expect(progress.map((p) => p[1])).toEqual([250, 250, 250]);
    expect(progress.map((p) => p[0]).sort((a, b) => a - b).at(-1)).toBe(250);
    const bodies = hosts[0].received.map((r) => JSON.parse(r.body) as { vectors: { id: string; values: number[] }[]; namespace: string });
    expect(bodies.every((b) => b.namespace === "ns" && b.vectors.length <= 100)).toBe(true);
    expect(bodies.flatMap((b) => b.vectors.map((v) => v.id)).sort()).toEqual(recs(250).map((r) => r.id).sort());
    expect(bodies[0].vectors[1]).toEqual({ id: "id-1", values: [1, 1.3333334] });
    expect(control.received).toHaveLength(1);
  });

  it("never has more than `concurrency` requests in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const slow: DataHandler = (req, res, n, body) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        ok(req, res, n, body);
      }, 20);
    };
    const { service } = await cluster({ data: [slow] });
    const out = await runUpsert({ service, index: "docs", records: recs(2000), concurrency: 3 });
    expect(out.upserted).toBe(2000);
    expect(peak).toBe(3);
  });

  it("64 workers waiting on one caller's signal: no MaxListenersExceededWarning on stderr", async () => {
    const { service } = await cluster();
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const out = await runUpsert({ service, index: "docs", records: recs(6400), concurrency: 64, signal: new AbortController().signal });
      expect(out.upserted).toBe(6400);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("lands every record through 429 + Retry-After, 503 and a dropped connection", async () => {
    const faults: DataHandler = (req, res, n, body) => {
      if (n === 1) return json(res, 429, { code: 8, message: "slow down", details: [] }, { "Retry-After": "0" });
      if (n === 2) return json(res, 503, { message: "busy" });
      if (n === 3) return void req.socket.destroy();
      ok(req, res, n, body);
    };
    const { service, hosts } = await cluster({ data: [faults] });
    const out = await runUpsert({ service, index: "docs", records: recs(500), concurrency: 1 });
    expect(out).toMatchObject({ upserted: 500, failedIds: [], batches: 5, landed: [{ start: 0, end: 500 }] });
    expect(new Set(landedIds(hosts[0], new Set([4, 5, 6, 7, 8]))).size).toBe(500);
  });

  it("a host that answers 404 is forgotten and the index resolved once more", async () => {
    const gone: DataHandler = (_req, res) => json(res, 404, { code: 5, message: "Not found", details: [] });
    const { service, hosts, control, moveTo } = await cluster({ data: [gone, ok] });
    await service.hosts.resolve("docs");
    moveTo(1);
    const out = await runUpsert({ service, index: "docs", records: recs(300), concurrency: 2 });
    expect(out.upserted).toBe(300);
    expect(out.failedIds).toEqual([]);
    expect(out.host).toBe(`127.0.0.1:${hosts[1].port}`);
    expect(control.received).toHaveLength(2);
    expect(hosts[1].received).toHaveLength(3);
  });

  it("a host that stays down: exact failed ids, nothing after the first failed batch", async () => {
    let calls = 0;
    const down: DataHandler = (req, res, n, body) => {
      calls++;
      if (calls <= 2) return ok(req, res, n, body);
      json(res, 503, { message: "down for maintenance" });
    };
    const { service } = await cluster({ data: [down] });
    const reports: BatchReport[] = [];
    const out = await runUpsert({ service, index: "docs", records: recs(700), concurrency: 1, onBatch: (r) => reports.push(r) });
    expect(out.upserted).toBe(200);
    expect(out.landed).toEqual([{ start: 0, end: 200 }]);
    expect(out.resumeAt).toBe(200);
    expect(out.failedIds).toEqual(recs(700).slice(200).map((r) => r.id));
    expect(out.failures.map((f) => [f.ids.length, f.message])).toEqual([
      [100, `HTTP 503: down for maintenance (POST ${service.data.dataUrl(out.host)}/vectors/upsert)`],
      [400, "not sent: stopped after a failed batch"],
    ]);
    expect(reports.map((r) => [r.firstPosition, r.count, r.ok])).toEqual([
      [0, 100, true],
      [100, 100, true],
      [200, 100, false],
    ]);
  });

  it("a 400 from the service is not retried and is reported with the service's message", async () => {
    const bad: DataHandler = (_req, res) => json(res, 400, { code: 3, message: "Vector dimension 2 does not match", details: [] });
    const { service, hosts } = await cluster({ data: [bad] });
    const out = await runUpsert({ service, index: "docs", records: recs(50), concurrency: 2 });
    expect(hosts[0].received).toHaveLength(1);
    expect(out.upserted).toBe(0);
    expect(out.failedIds).toHaveLength(50);
    expect(out.failures[0].message).toContain("HTTP 400: Vector dimension 2 does not match");
  });

  it("cancelling stops at once and says what landed", async () => {
    const ac = new AbortController();
    let served = 0;
    const slow: DataHandler = (req, res, n, body) => {
      served++;
      if (served === 3) setTimeout(() => ac.abort(), 10);
      setTimeout(() => ok(req, res, n, body), served <= 2 ? 0 : 5000);
    };
    const { service, hosts } = await cluster({ data: [slow] });
    const started = Date.now();
    const out = await runUpsert({ service, index: "docs", records: recs(1000), concurrency: 1, signal: ac.signal });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(out.aborted).toBe(true);
    expect(out.upserted).toBe(200);
    expect(out.landed).toEqual([{ start: 0, end: 200 }]);
    expect(out.resumeAt).toBe(200);
    expect(out.failedIds).toEqual(recs(1000).slice(200).map((r) => r.id));
    expect(out.failures.map((f) => [f.ids.length, f.message])).toEqual([
      [100, "cancelled while in flight"],
      [700, "not sent: the call was cancelled"],
    ]);
    expect(hosts[0].received).toHaveLength(3);
  });

  it("cancelling while the source is slow to yield stops at once", async () => {
    const { service } = await cluster();
    const ac = new AbortController();
    async function* stream() {
      yield* recs(150);
      setTimeout(() => ac.abort(), 20);
      await new Promise((r) => setTimeout(r, 10_000));
      yield* recs(10);
    }
    const started = Date.now();
    const out = await runUpsert({ service, index: "docs", records: stream(), concurrency: 2, signal: ac.signal });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(out).toMatchObject({ aborted: true, upserted: 100, landed: [{ start: 0, end: 100 }], resumeAt: 100 });
  });

  it("an index that is not ready is a typed error, and nothing is sent", async () => {
    const { service, hosts } = await cluster({ state: () => ({ ready: false, state: "Initializing" }) });
    const err = await runUpsert({ service, index: "docs", records: recs(3), concurrency: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IndexNotReadyError);
    expect((err as Error).message).toBe(
      "Index 'docs' is not ready (state Initializing). Wait until list_indexes shows it Ready, then try again.",
    );
    expect(hosts[0].received).toHaveLength(0);
  });

  it("an unknown index is the control plane's 404", async () => {
    const { service } = await cluster();
    const err = await runUpsert({ service, index: "nope", records: recs(3), concurrency: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe("NOT_FOUND");
  });

  it("an array that fails the checks is refused whole", async () => {
    const { service, hosts } = await cluster();
    const records = [...recs(5), { id: "bad", values: [1, 2, 3] }];
    const err = await runUpsert({ service, index: "docs", records, concurrency: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordCheckError);
    expect((err as RecordCheckError).problems).toEqual([
      { position: 5, id: "bad", field: "values", rule: "has 3 values but index 'docs' has dimension 2" },
    ]);
    expect(hosts[0].received).toHaveLength(0);
  });

  it("a stream that fails mid-way stops there and still accounts for what landed", async () => {
    const { service } = await cluster();
    async function* stream() {
      for (const r of recs(250)) {
        if (r.id === "id-230") throw new Error("line 231: not JSON");
        yield r;
      }
    }
    const out = await runUpsert({ service, index: "docs", records: stream(), concurrency: 1 });
    expect(out).toMatchObject({ upserted: 200, landed: [{ start: 0, end: 200 }], resumeAt: 200, inputError: "line 231: not JSON" });
    expect(out.failedIds).toEqual([]);
  });

  it("a record the encoder cannot write stops a stream with a check message", async () => {
    const { service } = await cluster();
    async function* stream() {
      yield* recs(120);
      yield { id: "nan", values: [Number.NaN, 1] };
    }
    const out = await runUpsert({ service, index: "docs", records: stream(), concurrency: 2 });
    expect(out.upserted).toBe(100);
    expect(out.resumeAt).toBe(100);
    expect(out.inputError).toBe('Record at position 120 (id "nan"): values[0] is NaN; every value must be a finite 32-bit number');
  });

  it("when the index is gone, the control plane's answer is the failure message", async () => {
    const gone: DataHandler = (_req, res) => json(res, 404, { code: 5, message: "Not found", details: [] });
    let deleted = false;
    const { service, control } = await cluster({ data: [gone], gone: () => deleted });
    await service.hosts.resolve("docs");
    deleted = true;
    const out = await runUpsert({ service, index: "docs", records: recs(10), concurrency: 1 });
    expect(out.upserted).toBe(0);
    expect(out.failedIds).toHaveLength(10);
    expect(out.failures.map((f) => f.message)).toEqual([`HTTP 404 NOT_FOUND: Index /indexes/docs not found. (GET ${control.url}/indexes/docs)`]);
    expect(control.received.map((r) => r.url)).toEqual(["/indexes/docs", "/indexes/docs"]);
  });

  it("streams an AsyncIterable with bounded read-ahead", async () => {
    let pulled = 0;
    let maxAhead = 0;
    let landedSoFar = 0;
    const slow: DataHandler = (req, res, n, body) => setTimeout(() => ok(req, res, n, body), 5);
    const { service } = await cluster({ data: [slow] });
    async function* stream() {
      for (const r of recs(3000)) {
        pulled++;
        maxAhead = Math.max(maxAhead, pulled - landedSoFar);
        yield r;
      }
    }
    const out = await runUpsert({
      service,
      index: "docs",
      records: stream(),
      concurrency: 4,
      onBatch: (r) => (landedSoFar += r.count),
    });
    expect(out).toMatchObject({ records: 3000, upserted: 3000, batches: 30, failedIds: [], landed: [{ start: 0, end: 3000 }] });
    // in flight (4 × 100) + the batch being filled (≤ 100) + the record that closed it
    expect(maxAhead).toBeLessThanOrEqual(4 * 100 + 101);
  });
});
