import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { dataUrlFor } from "../../src/api/index-url.js";
import { IndexNotReadyError, ResponseShapeError, UntrustedHostError } from "../../src/api/errors.js";
import { ServiceError } from "../../src/api/http.js";
import { createService, type Service } from "../../src/api/service.js";
import { json, startFakeServer, type FakeServer } from "./fake-server.js";

const KEY = "key-for-planes-test";
const servers: FakeServer[] = [];
const services: Service[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function indexModel(name: string, host: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    dimension: 3,
    metric: "cosine",
    host,
    spec: { serverless: { cloud: "aws", region: "us-east-1" } },
    status: { ready: true, state: "Ready" },
    vector_type: "dense",
    deletion_protection: "disabled",
    tags: null,
    future_field: { kept: true },
    ...extra,
  };
}

async function setup(opts: { ready?: () => boolean; host?: (dataPort: number) => string } = {}) {
  const data = await startFakeServer((_req, res, _n, body) => {
    const parsed = JSON.parse(body) as { vectors: unknown[] };
    json(res, 200, { upsertedCount: parsed.vectors.length });
  });
  servers.push(data);
  const hostOf = opts.host ?? ((p: number) => `127.0.0.1:${p}`);
  const control = await startFakeServer((req, res) => {
    const url = req.url ?? "";
    if (url === "/indexes") {
      json(res, 200, { indexes: [indexModel("docs", hostOf(data.port)), indexModel("pods", "pods-x.example.net", {
        spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x1", pods: 1, replicas: 1, shards: 1 } },
      })] });
    } else if (url === "/indexes/docs") {
      const ready = opts.ready ? opts.ready() : true;
      json(res, 200, indexModel("docs", hostOf(data.port), { status: { ready, state: ready ? "Ready" : "Initializing" } }));
    } else if (url === "/collections") {
      json(res, 200, { collections: [{ name: "c1", status: "Ready", environment: "us-east1-gcp", size: 1234567, dimension: 3, vector_count: 10 }] });
    } else if (url === "/indexes/broken") {
      json(res, 200, { name: "broken" });
    } else {
      json(res, 404, { status: 404, error: { code: "NOT_FOUND", message: `Resource ${url} not found` } });
    }
  });
  servers.push(control);
  const service = createService({ apiKey: KEY, apiVersion: "2026-04", timeoutMs: 2000, retries: 1, controllerUrl: control.url });
  services.push(service);
  return { data, control, service };
}

describe("dataUrlFor", () => {
  const cases: [string, string, string][] = [
    ["127.0.0.1:5081", "http://127.0.0.1:5080", "http://127.0.0.1:5081"],
    ["localhost:5081", "http://localhost:5080", "http://localhost:5081"],
    ["localhost", "http://localhost:5080", "http://localhost"],
    ["[::1]:5081", "http://[::1]:5080", "http://[::1]:5081"],
    ["::1", "http://127.0.0.1:5080", "http://[::1]"],
    ["127.0.0.1:5081", "https://api.pinecone.io", "https://127.0.0.1:5081"],
    ["docs-abc.svc.aped-4627-b74a.pinecone.io", "https://api.pinecone.io", "https://docs-abc.svc.aped-4627-b74a.pinecone.io"],
    ["docs-abc.svc.pinecone.io", "http://127.0.0.1:5080", "https://docs-abc.svc.pinecone.io"],
    ["http://docs.example.com", "http://127.0.0.1:5080", "https://docs.example.com"],
    ["http://127.0.0.1:5081/", "http://127.0.0.1:5080", "http://127.0.0.1:5081"],
    ["https://127.0.0.1:5081", "http://127.0.0.1:5080", "http://127.0.0.1:5081"],
    ["https://docs.example.com:8443/x", "https://api.pinecone.io", "https://docs.example.com:8443"],
    ["http://127.0.0.1:5081", "https://api.pinecone.io", "https://127.0.0.1:5081"],
  ];
  it.each(cases)("%s under %s → %s", (host, controller, expected) => {
    expect(dataUrlFor(host, controller)).toBe(expected);
  });
});

describe("ControlPlane", () => {
  it("lists indexes and keeps unknown fields", async () => {
    const { service, data } = await setup();
    const indexes = await service.control.listIndexes();
    expect(indexes.map((i) => i.name)).toEqual(["docs", "pods"]);
    expect(indexes[0].host).toBe(`127.0.0.1:${data.port}`);
    expect((indexes[0] as Record<string, unknown>).future_field).toEqual({ kept: true });
    expect(indexes[1].spec.pod?.pod_type).toBe("p1.x1");
  });

  it("lists collections", async () => {
    const { service, control } = await setup();
    const cols = await service.control.listCollections();
    expect(cols).toEqual([{ name: "c1", status: "Ready", environment: "us-east1-gcp", size: 1234567, dimension: 3, vector_count: 10 }]);
    expect(control.received[0].headers["api-key"]).toBe(KEY);
  });

  it("an unknown index is a ServiceError 404 NOT_FOUND", async () => {
    const { service } = await setup();
    const err = await service.control.describeIndex("nope").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(404);
    expect((err as ServiceError).code).toBe("NOT_FOUND");
  });

  it("a record missing required fields is a ResponseShapeError", async () => {
    const { service, control } = await setup();
    const err = await service.control.describeIndex("broken").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as Error).message).toMatch(new RegExp(`^Unexpected answer from ${control.url}/indexes/broken: `));
  });
});

describe("HostResolver", () => {
  it("shares one control-plane call among concurrent resolves and caches it", async () => {
    const { service, control } = await setup();
    const models = await Promise.all(Array.from({ length: 10 }, () => service.hosts.resolve("docs")));
    expect(new Set(models.map((m) => m.host)).size).toBe(1);
    await service.hosts.resolve("docs");
    expect(control.received.filter((r) => r.url === "/indexes/docs")).toHaveLength(1);
    service.hosts.forget("docs");
    await service.hosts.resolve("docs");
    expect(control.received.filter((r) => r.url === "/indexes/docs")).toHaveLength(2);
  });

  it("does not cache an index that is not ready", async () => {
    let ready = false;
    const { service, control } = await setup({ ready: () => ready });
    expect((await service.hosts.resolve("docs")).status.state).toBe("Initializing");
    ready = true;
    expect((await service.hosts.resolve("docs")).status.state).toBe("Ready");
    await service.hosts.resolve("docs");
    expect(control.received.filter((r) => r.url === "/indexes/docs")).toHaveLength(2);
  });

  it("IndexNotReadyError says what to do", () => {
    expect(new IndexNotReadyError("docs", "Initializing").message).toBe(
      "Index 'docs' is not ready (state Initializing). Wait until list_indexes shows it Ready, then try again.",
    );
  });
});

describe("DataPlane and where the key goes", () => {
  it("upserts to the host the control plane returned, with the key", async () => {
    const { service, data } = await setup();
    const model = await service.hosts.resolve("docs");
    const body = Buffer.from('{"vectors":[{"id":"a","values":[1,2,3]}],"namespace":"n"}');
    expect(await service.data.upsert(model.host, body)).toEqual({ upsertedCount: 1 });
    expect(data.received[0].url).toBe("/vectors/upsert");
    expect(data.received[0].headers["api-key"]).toBe(KEY);
    expect(data.received[0].body).toBe(body.toString());
  });

  it("refuses a host the control plane did not return, sending nothing", async () => {
    const { service, data } = await setup();
    const err = await service.data.upsert(`127.0.0.1:${data.port}`, Buffer.from("{}")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UntrustedHostError);
    expect(data.received).toHaveLength(0);
  });

  it("never calls a remote host over http, even when the control plane says http://", async () => {
    const { service } = await setup({ host: () => "http://evil.example.com:80" });
    const model = await service.hosts.resolve("docs");
    expect(service.data.dataUrl(model.host)).toBe("https://evil.example.com");
    expect(service.http.isTrusted("http://evil.example.com")).toBe(false);
  });
});

describe("where the key goes after a host is forgotten, or when a remote control plane names this machine", () => {
  it("a forgotten index's host is trusted no more", async () => {
    const { service, data } = await setup();
    await service.hosts.resolve("docs");
    const url = `http://127.0.0.1:${data.port}`;
    expect(service.http.isTrusted(url)).toBe(true);
    service.hosts.forget("docs");
    expect(service.http.isTrusted(url)).toBe(false);
    await expect(service.data.upsert(`127.0.0.1:${data.port}`, Buffer.from("{}"))).rejects.toBeInstanceOf(UntrustedHostError);
    expect(data.received).toHaveLength(0);
  });

  const lanIp = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === "IPv4")?.address;
  it.runIf(lanIp)("a control plane that is not on this machine cannot point the key at a loopback port", async () => {
    const squatter = await startFakeServer((_req, res) => json(res, 200, {}));
    servers.push(squatter);
    const control = createServer((_req, res) => json(res, 200, indexModel("docs", `127.0.0.1:${squatter.port}`)));
    await new Promise<void>((r) => control.listen(0, lanIp, () => r()));
    try {
      const service = createService({ apiKey: KEY, apiVersion: "2026-04", timeoutMs: 2000, retries: 0, controllerUrl: `http://${lanIp}:${(control.address() as AddressInfo).port}` });
      services.push(service);
      const model = await service.hosts.resolve("docs");
      await expect(service.data.upsert(model.host, Buffer.from("{}"))).rejects.toBeInstanceOf(UntrustedHostError);
      expect(squatter.received).toHaveLength(0);
    } finally {
      control.closeAllConnections();
      await new Promise((r) => control.close(r));
    }
  });
});
