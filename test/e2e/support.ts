// What the end-to-end tests need besides the MCP client: plain-HTTP calls to the local service (to set it up and to
// check what landed), and a small node:http proxy that counts requests and can answer with faults.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { reproveForProxy } from "../helpers/identity-reprove.js";
import type { RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";

const VERSION = "2026-04";

export async function api<T = any>(
  svc: { controlUrl: string; apiKey: string },
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const full = url.startsWith("http") ? url : `${svc.controlUrl}${url}`;
  const res = await fetch(full, {
    method,
    headers: { "Api-Key": svc.apiKey, "X-Pinecone-API-Version": VERSION, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // plain text
  }
  return { status: res.status, body: parsed as T };
}

export const serverless = { serverless: { cloud: "aws", region: "us-east-1" } };
export const pod = { pod: { environment: "us-east1-gcp", pod_type: "p1.x1", pods: 1, replicas: 1, shards: 1 } };

export async function createIndex(
  svc: RunningService,
  body: { name: string; dimension?: number; metric?: string; spec: unknown; vector_type?: string },
): Promise<{ name: string; host: string }> {
  const res = await api(svc, "POST", "/indexes", { metric: "cosine", ...body });
  if (res.status !== 201) throw new Error(`create index ${body.name}: ${res.status} ${JSON.stringify(res.body)}`);
  for (let i = 0; i < 200; i++) {
    const d = await api(svc, "GET", `/indexes/${body.name}`);
    if (d.body?.status?.ready) return d.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`index ${body.name} never became ready`);
}

export function dataUrl(host: string): string {
  return `http://${host}`;
}

export async function indexStats(svc: RunningService, host: string): Promise<{ totalVectorCount: number; namespaces: Record<string, { vectorCount: number }>; dimension?: number }> {
  const res = await api(svc, "POST", `${dataUrl(host)}/describe_index_stats`, {});
  if (res.status !== 200) throw new Error(`describe_index_stats: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function fetchVectors(svc: RunningService, host: string, ids: string[], namespace = ""): Promise<Record<string, any>> {
  const out: Record<string, any> = {};
  for (let i = 0; i < ids.length; i += 100) {
    const q = new URLSearchParams();
    for (const id of ids.slice(i, i + 100)) q.append("ids", id);
    if (namespace) q.set("namespace", namespace);
    const res = await api(svc, "GET", `${dataUrl(host)}/vectors/fetch?${q}`);
    if (res.status !== 200) throw new Error(`fetch: ${res.status} ${JSON.stringify(res.body)}`);
    Object.assign(out, res.body.vectors ?? {});
  }
  return out;
}

/** Rounds to float32, as the service stores values. */
export const f32 = (x: number) => Math.fround(x);

/** Writes `count` records of random `dimension`-long vectors (ids `${prefix}0` …, seeded by position) in requests of 100. */
export async function upsertRandomVectors(svc: { controlUrl: string; apiKey: string }, host: string, count: number, dimension: number, prefix: string): Promise<void> {
  for (let start = 0; start < count; start += 100) {
    const vectors = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({ id: `${prefix}${start + i}`, values: randomVector(dimension, start + i + 1) }));
    const r = await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { vectors, namespace: "" });
    if (r.status !== 200) throw new Error(`upsert of ${prefix}${start}… answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
}

export function randomVector(dim: number, seed: number): number[] {
  let s = seed >>> 0 || 1;
  const v = new Array<number>(dim);
  for (let i = 0; i < dim; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    v[i] = ((s >>> 0) / 4294967296) * 2 - 1;
  }
  return v;
}

/**
 * `{ holdMs }`: forwarded like "pass", after that long (what the client does meanwhile reaches the server first);
 * `{ until }`: forwarded once that promise settles (the test decides when).
 */
export type Fault =
  | "pass"
  | "drop"
  | "stall"
  | { holdMs: number }
  | { until: Promise<unknown> }
  | { status: number; headers?: Record<string, string>; body?: string };

export interface Proxy {
  url: string;
  /** "127.0.0.1:PORT", as an index host. */
  host: string;
  requests: { method: string; path: string; status: number | "dropped" | "stalled" | "closed by client" }[];
  close(): Promise<void>;
}

/**
 * A forwarding proxy to `target` (an origin). `fault(req, n)` decides each request's fate (n counts from 0);
 * `rewrite` may change a forwarded response body (e.g. point index hosts at another proxy).
 */
export async function startProxy(opts: {
  target: string;
  fault?: (req: IncomingMessage, n: number) => Fault;
  rewrite?: (body: string) => string;
  /** Sees each request's body (identity checks aside) before its fate. */
  onBody?: (req: IncomingMessage, body: Buffer) => void;
}): Promise<Proxy> {
  const requests: Proxy["requests"] = [];
  let n = 0;
  const target = new URL(opts.target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // The client's loopback identity check (src/api/loopback-identity.ts) passes through, neither faulted nor counted.
      const identity = req.url?.startsWith("/_vecdb/identity") === true;
      if (!identity) opts.onBody?.(req, Buffer.concat(chunks));
      const fate = identity ? "pass" : (opts.fault?.(req, n++) ?? "pass");
      const entry: Proxy["requests"][number] = { method: req.method ?? "", path: req.url ?? "", status: 0 };
      if (!identity) requests.push(entry);
      if (fate === "drop") {
        entry.status = "dropped";
        req.socket.destroy();
        return;
      }
      if (fate === "stall") {
        entry.status = "stalled";
        res.on("close", () => (entry.status = "closed by client"));
        return;
      }
      if (fate !== "pass" && "status" in fate) {
        entry.status = fate.status;
        res.writeHead(fate.status, { "Content-Type": "application/json", ...fate.headers });
        res.end(fate.body ?? JSON.stringify({ code: 14, message: `injected ${fate.status}`, details: [] }));
        return;
      }
      const headers = { ...req.headers, host: target.host };
      const forward = () => {
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
          (up) => {
            const parts: Buffer[] = [];
            up.on("data", (c: Buffer) => parts.push(c));
            up.on("end", () => {
              entry.status = up.statusCode ?? 0;
              let body = Buffer.concat(parts).toString("utf8");
              if (identity) body = reproveForProxy(body, req.url!, Number(target.port), req.socket.localPort ?? 0);
              else if (opts.rewrite) body = opts.rewrite(body);
              const h = { ...up.headers };
              delete h["content-length"];
              delete h["transfer-encoding"];
              if (identity) h["content-length"] = String(Buffer.byteLength(body)); // the client reads the proof by its length
              res.writeHead(up.statusCode ?? 502, h);
              res.end(body);
            });
          },
        );
        upstream.on("error", () => {
          entry.status = "dropped";
          req.socket.destroy();
        });
        upstream.end(Buffer.concat(chunks));
      };
      if (fate === "pass") forward();
      else if ("until" in fate) void fate.until.finally(forward);
      else setTimeout(forward, fate.holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * An MCP server whose view of the index at `indexHost` goes through a data-plane proxy: the n-th upsert (a request
 * whose path `isUpsert` accepts) meets `fault(n)`, every other request passes. `env` adds to the server's environment.
 */
export async function mcpThroughFaults(
  svc: RunningService,
  indexHost: string,
  isUpsert: (path: string) => boolean,
  fault: (n: number) => Fault,
  env: Record<string, string> = {},
): Promise<{ mcp: McpSession; data: Proxy; close(): Promise<void> }> {
  let upserts = 0;
  const data = await startProxy({ target: `http://${indexHost}`, fault: (req) => (isUpsert(req.url ?? "") ? fault(upserts++) : "pass") });
  const control = await startProxy({ target: svc.controlUrl, rewrite: (body) => body.split(indexHost).join(data.host) });
  const mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url, ...env } });
  return {
    mcp,
    data,
    async close() {
      await mcp.close();
      await control.close();
      await data.close();
    },
  };
}
