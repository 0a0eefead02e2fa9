import { float32Double } from "../../src/common/float32.js";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAULT_KINDS, startFaultProxy, type FaultProxy, type FaultRates } from "./fault-proxy.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A small upstream that counts what reached it. */
async function upstream(handler: Handler): Promise<{ url: string; host: string; received: string[] }> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      received.push(`${req.method} ${req.url} ${body}`);
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  cleanups.push(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, received };
}

async function proxy(opts: Parameters<typeof startFaultProxy>[0]): Promise<FaultProxy> {
  const p = await startFaultProxy(opts);
  cleanups.push(() => p.close());
  return p;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

interface Outcome { status?: number; retryAfter?: string | null; body?: string; error?: string; ms: number }

async function call(url: string, init?: RequestInit): Promise<Outcome> {
  const t0 = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
    const body = await res.text();
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body, ms: Date.now() - t0 };
  } catch (e) {
    return { error: (e as Error).name, ms: Date.now() - t0 };
  }
}

const ALL: FaultRates = {
  rate429: 0.1, rate429RetryAfter: 0.1, rate500: 0.1, rate503: 0.1, rateDrop: 0.05, rateReset: 0.1, rateStall: 0.05, stallMs: 60, rateTrickle: 0.1,
};

describe("fault proxy", () => {
  it("injects every fault kind, the same sequence for the same seed, another for another seed", async () => {
    const up = await upstream((req, body, res) => json(res, 200, { ok: true, echo: body, padding: "x".repeat(400) }));
    const run = async (seed: number) => {
      const p = await proxy({ target: up.url, seed, faults: ALL, trickleDelayMs: 10 });
      const outcomes: Outcome[] = [];
      for (let i = 0; i < 120; i++) outcomes.push(await call(`${p.url}/vectors/upsert`, { method: "POST", body: `{"n":${i}}` }));
      return { p, outcomes, faults: p.stats.events.map((e) => e.fault) };
    };
    const a = await run(7);
    const b = await run(7);
    const c = await run(8);
    expect(b.faults).toEqual(a.faults);
    expect(c.faults).not.toEqual(a.faults);
    expect(a.faults.length).toBe(120);
    for (const kind of FAULT_KINDS) expect(a.p.stats.faults[kind], kind).toBeGreaterThan(0);

    // what a client sees for each kind
    a.faults.forEach((fault, i) => {
      const o = a.outcomes[i];
      const ok = { status: 200, body: JSON.stringify({ ok: true, echo: `{"n":${i}}`, padding: "x".repeat(400) }) };
      if (fault === "none") expect(o).toMatchObject({ ...ok, retryAfter: null });
      if (fault === "429") expect(o).toMatchObject({ status: 429, retryAfter: null });
      if (fault === "429-retry-after") expect(o).toMatchObject({ status: 429, retryAfter: "1" });
      if (fault === "500" || fault === "503") {
        expect(o.status).toBe(Number(fault));
        // the target is the control listener, so its errors have the control-plane shape
        expect(JSON.parse(o.body!)).toEqual({ status: Number(fault), error: { code: fault === "500" ? "INTERNAL" : "UNAVAILABLE", message: expect.stringContaining("injected by the fault proxy") } });
      }
      if (fault === "reset" || fault === "drop") expect(o.error).toBe("TypeError"); // fetch failed: no or a cut-off answer
      if (fault === "stall") expect(o).toMatchObject(ok), expect(o.ms).toBeGreaterThanOrEqual(55);
      if (fault === "trickle") expect(o).toMatchObject(ok), expect(o.ms).toBeGreaterThanOrEqual(60);
    });
    // faults before forwarding never reach the service; a reset one did (the write landed)
    const reached = a.faults.filter((f) => !["429", "429-retry-after", "500", "503", "drop"].includes(f)).length;
    expect(a.p.stats.forwarded).toBe(reached);
    const resetIndex = a.faults.indexOf("reset");
    expect(up.received).toContain(`POST /vectors/upsert {"n":${resetIndex}}`);
    for (const kind of ["500", "drop"] as const) {
      const refusedIndex = a.faults.indexOf(kind);
      expect(up.received).not.toContain(`POST /vectors/upsert {"n":${refusedIndex}}`);
    }
  });

  it("control-plane faults use the control-plane error shape; planes limits where faults apply", async () => {
    const up = await upstream((_req, _body, res) => json(res, 200, { indexes: [] }));
    const p = await proxy({ target: up.url, seed: 1, faults: { rate503: 1 } });
    const o = await call(`${p.url}/indexes`);
    expect(o.status).toBe(503);
    expect(JSON.parse(o.body!)).toEqual({ status: 503, error: { code: "UNAVAILABLE", message: "Service unavailable (injected by the fault proxy)" } });
    const q = await proxy({ target: up.url, seed: 1, faults: { rate503: 1 }, planes: ["data"] });
    expect(await call(`${q.url}/indexes`)).toMatchObject({ status: 200, body: '{"indexes":[]}' });
  });

  it("a stalled request the client gave up on is never forwarded", async () => {
    const up = await upstream((_req, _body, res) => json(res, 200, {}));
    const p = await proxy({ target: up.url, seed: 3, faults: { rateStall: 1, stallMs: 400 } });
    const t0 = Date.now();
    const res = await fetch(`${p.url}/x`, { signal: AbortSignal.timeout(100) }).catch((e: Error) => e.name);
    expect(res).toBe("TimeoutError");
    expect(Date.now() - t0).toBeLessThan(350);
    await new Promise((r) => setTimeout(r, 500));
    expect(up.received).toEqual([]);
    expect(p.stats.forwarded).toBe(0);
  });

  it("setDown(true) fails every request at the connection level; setDown(false) restores", async () => {
    const up = await upstream((_req, _body, res) => json(res, 200, { ok: true }));
    const p = await proxy({ target: up.url, seed: 1, faults: {} });
    expect(await call(`${p.url}/a`)).toMatchObject({ status: 200 });
    p.setDown(true);
    expect(await call(`${p.url}/b`)).toMatchObject({ error: "TypeError" });
    expect(await call(`${p.url}/c`)).toMatchObject({ error: "TypeError" });
    p.setDown(false);
    expect(await call(`${p.url}/d`)).toMatchObject({ status: 200 });
    expect(up.received.map((r) => r.split(" ")[1])).toEqual(["/a", "/d"]);
  });

  it("rewriteHosts routes the data plane through its own listeners, with faults there too", async () => {
    const data = await upstream((req, _body, res) => json(res, 200, { upsertedCount: 1 }));
    const control = await upstream((_req, _body, res) =>
      json(res, 200, { indexes: [{ name: "a", host: data.host, spec: { serverless: { cloud: "aws" } } }, { name: "b", host: "example.com" }] }),
    );
    const plain = await proxy({ target: control.url, seed: 1, faults: {} });
    expect(JSON.parse((await call(`${plain.url}/indexes`)).body!).indexes[0].host).toBe(data.host);

    const p = await proxy({ target: control.url, seed: 5, faults: { rate429: 0.5 }, rewriteHosts: true, planes: ["data"] });
    const listed = JSON.parse((await call(`${p.url}/indexes`)).body!);
    const host: string = listed.indexes[0].host;
    expect(host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(host).not.toBe(data.host);
    expect(listed.indexes[1].host).toBe("example.com");
    expect(listed.indexes[0].spec).toEqual({ serverless: { cloud: "aws" } });
    // the same upstream host maps to the same listener
    expect(JSON.parse((await call(`${p.url}/indexes`)).body!).indexes[0].host).toBe(host);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await call(`http://${host}/vectors/upsert`, { method: "POST", body: "{}" })).status!);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    expect(data.received.length).toBe(statuses.filter((s) => s === 200).length);
    expect(p.stats.events.filter((e) => e.plane === "data").length).toBe(20);
    expect(p.stats.events.filter((e) => e.plane === "control").map((e) => e.fault)).toEqual(["none", "none"]);
  });

  it("works in front of the real local service: both planes, and a reset upsert did land", async () => {
    const { startLocalService } = await import("../../src/local/index.js");
    const dataDir = await mkdtemp(join(tmpdir(), "vecdb-proxy-"));
    const service = await startLocalService({ dataDir, apiKey: "test-key", log: () => {} });
    cleanups.push(async () => { await service.close(); await rm(dataDir, { recursive: true, force: true }); });
    const headers = { "Api-Key": "test-key", "X-Pinecone-API-Version": "2025-04", "content-type": "application/json" };

    const p = await proxy({ target: service.controlUrl, seed: 11, faults: { rateReset: 1 }, rewriteHosts: true, planes: ["data"] });
    const created = await call(`${p.url}/indexes`, {
      method: "POST", headers,
      body: JSON.stringify({ name: "proxied", dimension: 2, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } }),
    });
    expect(created.status).toBe(201);
    const proxiedHost: string = JSON.parse(created.body!).host;
    const direct = JSON.parse((await call(`${service.controlUrl}/indexes/proxied`, { headers })).body!);
    expect(proxiedHost).not.toBe(direct.host);

    const upsert = await call(`http://${proxiedHost}/vectors/upsert`, {
      method: "POST", headers, body: JSON.stringify({ vectors: [{ id: "v1", values: [0.25, 0.5] }] }),
    });
    expect(upsert.error).toBe("TypeError"); // the client saw the connection die mid-answer…
    const fetched = await call(`http://${direct.host}/vectors/fetch?ids=v1`, { headers });
    expect(JSON.parse(fetched.body!).vectors.v1.values).toEqual([0.25, 0.5]); // …but the write landed
    expect(p.stats).toMatchObject({ forwarded: 2, faults: { reset: 1 } });
  });
});

describe("fault proxy with the client's ingest path", () => {
  it("a streamed JSONL import through every fault lands every record exactly once with its values", async () => {
    const { writeFile } = await import("node:fs/promises");
    const { startLocalService } = await import("../../src/local/index.js");
    const { createService } = await import("../../src/api/service.js");
    const { runUpsert } = await import("../../src/ingest/upsert.js");
    const { openJsonl } = await import("../../src/ingest/sources/index.js");
    const dataDir = await mkdtemp(join(tmpdir(), "vecdb-proxy-"));
    const service = await startLocalService({ dataDir, apiKey: "k", log: () => {} });
    (await import("./local-service.js")).startedServiceKeys.add("k"); // the fault proxy proves itself under it
    cleanups.push(async () => { await service.close(); await rm(dataDir, { recursive: true, force: true }); });
    const headers = { "Api-Key": "k", "X-Pinecone-API-Version": "2025-04", "content-type": "application/json" };
    const created = await call(`${service.controlUrl}/indexes`, {
      method: "POST", headers,
      body: JSON.stringify({ name: "faulty", dimension: 4, metric: "euclidean", spec: { serverless: { cloud: "aws", region: "us-east-1" } } }),
    });
    const directHost: string = JSON.parse(created.body!).host;

    const N = 3000;
    const values = (i: number) => [i / 7, -(i + 1) / 3, 0.1 * i, 1 / (i + 1)];
    const file = join(dataDir, "in.jsonl");
    await writeFile(file, Array.from({ length: N }, (_, i) => JSON.stringify({ id: `r${i}`, values: values(i) })).join("\n") + "\n");

    const p = await proxy({
      target: service.controlUrl, seed: 2024, rewriteHosts: true, trickleDelayMs: 5,
      faults: { rate429: 0.07, rate429RetryAfter: 0.07, rate500: 0.07, rate503: 0.07, rateDrop: 0.07, rateReset: 0.07, rateStall: 0.07, stallMs: 1500, rateTrickle: 0.07 },
      retryAfterSeconds: 0,
    });
    const client = createService({ controllerUrl: p.url, apiKey: "k", apiVersion: "2025-04", timeoutMs: 400, retries: 12, backoffBaseMs: 5, backoffMaxMs: 50 });
    cleanups.push(() => client.close());
    const source = await openJsonl(file);
    cleanups.push(() => source.close());
    const records = (async function* () {
      for await (const item of source.records()) {
        if (!item.record) throw new Error(item.error);
        yield item.record;
      }
    })();
    const outcome = await runUpsert({ service: client, index: "faulty", records, concurrency: 4 });
    expect(outcome).toMatchObject({ records: N, failedIds: [] });
    process.stderr.write(`import through faults: ${JSON.stringify(p.stats.faults)}, ${p.stats.requests} requests\n`);
    for (const kind of FAULT_KINDS) expect(p.stats.faults[kind], kind).toBeGreaterThan(0);

    for (let start = 0; start < N; start += 500) {
      const ids = Array.from({ length: Math.min(500, N - start) }, (_, k) => `ids=r${start + k}`).join("&");
      const got = JSON.parse((await call(`http://${directHost}/vectors/fetch?${ids}`, { headers })).body!).vectors;
      for (let i = start; i < Math.min(N, start + 500); i++) expect(got[`r${i}`]?.values, `r${i}`).toEqual(values(i).map(float32Double));
    }
    const stats = JSON.parse((await call(`http://${directHost}/describe_index_stats`, { method: "POST", headers, body: "{}" })).body!);
    expect(stats.totalVectorCount).toBe(N);
  });
});
