// Per-index data-plane ports: isolation between indexes, the Api-Key check, the 10 MiB body cap, and
// what deleting an index does to its port.
import { rmSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { call, controlClient } from "../http.js";

let svc: RunningService;
let api: ReturnType<typeof controlClient>;
const hosts: Record<string, string> = {};

const spec = { pod: { environment: "us-east1-gcp", pod_type: "p1.x1" } };

const data = (index: string, path: string, init: { method?: string; body?: unknown; apiKey?: string | null } = {}) =>
  call(`http://${hosts[index]}${path}`, { apiKey: svc.apiKey, ...init });

async function count(index: string): Promise<number> {
  const stats = await data(index, "/describe_index_stats", { method: "POST", body: {} });
  expect(stats.status).toBe(200);
  return (stats.body as { totalVectorCount: number }).totalVectorCount;
}

/** Streams `total` bytes with chunked encoding (no content-length) and returns the answer. */
function chunkedPost(url: string, total: number): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "Api-Key": svc.apiKey, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

beforeAll(async () => {
  svc = await startServiceProcess();
  api = controlClient(svc.controlUrl, svc.apiKey);
  for (const name of ["a", "b"]) {
    const created = await api("POST", "/indexes", { name, dimension: 2, spec });
    expect(created.status).toBe(201);
    hosts[name] = (created.body as { host: string }).host;
  }
});

afterAll(async () => {
  await svc?.stop();
  if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
});

describe("data-plane ports", () => {
  it("gives every index its own loopback port, and a request on one port only touches that index", async () => {
    expect(hosts.a).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(hosts.b).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(hosts.a).not.toBe(hosts.b);
    const up = await data("a", "/vectors/upsert", { method: "POST", body: { vectors: [{ id: "only-a", values: [1, 2] }] } });
    expect(up).toMatchObject({ status: 200, body: { upsertedCount: 1 } });
    expect(await count("a")).toBe(1);
    expect(await count("b")).toBe(0);
    const onB = await data("b", "/vectors/fetch?ids=only-a");
    expect(onB.status).toBe(200);
    expect((onB.body as { vectors: object }).vectors).toEqual({});
  });

  it("answers a missing or wrong Api-Key with 401 in the data-plane shape and writes nothing", async () => {
    for (const apiKey of [null, "wrong"]) {
      const answer = await data("a", "/vectors/upsert", { method: "POST", apiKey, body: { vectors: [{ id: "x", values: [1, 1] }] } });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 401,
        body: { code: 16, message: "Invalid API Key", details: [] },
      });
    }
    expect(await count("a")).toBe(1);
  });

  it("answers a body over 10 MiB with 413 (declared or streamed) and writes nothing", async () => {
    const tooLarge = { code: 3, message: "Request body is larger than the limit of 10485760 bytes.", details: [] };
    const declared = await data("a", "/vectors/upsert", { method: "POST", body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20) });
    expect({ status: declared.status, body: declared.body }).toEqual({ status: 413, body: tooLarge });
    const streamed = await chunkedPost(`http://${hosts.a}/vectors/upsert`, 12 * 1024 * 1024);
    expect(streamed).toEqual({ status: 413, body: tooLarge });
    expect(await count("a")).toBe(1);
  });

  it("hands every other request to the data plane, errors included", async () => {
    const unknown = await data("a", "/no-such-route");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: expect.any(Number), message: expect.any(String), details: [] });
    const bad = await data("a", "/vectors/upsert", { method: "POST", body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 3, details: [] });
  });

  it("closes the port of a deleted index and drops its records; a new index of that name starts empty", async () => {
    expect((await data("b", "/vectors/upsert", { method: "POST", body: { vectors: [{ id: "b1", values: [1, 0] }] } })).status).toBe(200);
    const oldHost = hosts.b;
    expect((await api("DELETE", "/indexes/b")).status).toBe(202);
    await expect(fetch(`http://${oldHost}/describe_index_stats`, { method: "POST", headers: { "Api-Key": svc.apiKey } })).rejects.toThrow();
    const again = await api("POST", "/indexes", { name: "b", dimension: 2, spec });
    expect(again.status).toBe(201);
    hosts.b = (again.body as { host: string }).host;
    expect(await count("b")).toBe(0);
    expect(await count("a")).toBe(1);
  });
});
