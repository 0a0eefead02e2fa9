// A fault-injecting HTTP proxy for tests, in front of the local service (control and data plane).
// Every request draws one number from a seeded PRNG, in arrival order, so a seed gives a repeatable fault
// sequence. Faults before forwarding (429, 500, 503, drop, stall) never reach the service; faults after forwarding
// (reset mid-body, trickle) happen once the service has acted — a reset upsert DID land, as in real life.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { isIdentityQuestion, reproveForProxy } from "./identity-reprove.js";

export type FaultKind = "429" | "429-retry-after" | "500" | "503" | "drop" | "reset" | "stall" | "trickle";
export const FAULT_KINDS: readonly FaultKind[] = ["429", "429-retry-after", "500", "503", "drop", "reset", "stall", "trickle"];

export interface FaultRates {
  rate429?: number; // 429 without Retry-After
  rate429RetryAfter?: number; // 429 with Retry-After: retryAfterSeconds
  rate500?: number;
  rate503?: number;
  rateDrop?: number; // destroy the connection without forwarding: the write did NOT land
  rateReset?: number; // forward, then destroy the socket halfway through the response body
  rateStall?: number; // hold the request stallMs before forwarding (dropped if the client gives up first)
  stallMs?: number; // default 30000
  rateTrickle?: number; // forward, then send the response body in 8 pieces, trickleDelayMs apart
}

type Plane = "control" | "data";

export interface FaultProxyOptions {
  target: string; // http://127.0.0.1:PORT of the control plane (or any HTTP server)
  seed: number;
  faults: FaultRates;
  rewriteHosts?: boolean; // route data-plane traffic through the proxy too (see module comment)
  planes?: Plane[]; // where faults apply; default both (requests elsewhere still draw, to keep the sequence)
  retryAfterSeconds?: number; // default 1
  trickleDelayMs?: number; // default 50
}

interface FaultEvent { seq: number; plane: Plane; method: string; path: string; fault: FaultKind | "none" | "down" }

interface FaultProxyStats {
  requests: number;
  forwarded: number; // requests that reached the service
  faults: Record<FaultKind, number>;
  down: number; // requests refused while down
  upstreamErrors: number; // the service did not answer (then the client's socket is destroyed)
  events: FaultEvent[];
}

export interface FaultProxy {
  url: string; // the control-plane URL to give the client
  port: number;
  stats: FaultProxyStats;
  setDown(down: boolean): void; // true: every connection is destroyed at once, as if the service went away
  close(): Promise<void>;
}

/** mulberry32: small, fast, good enough for test randomness; same seed, same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/;
const HOP_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "proxy-connection", "upgrade"]);

const ERRORS: Record<"429" | "500" | "503", { control: string; grpc: number; message: string }> = {
  "429": { control: "RESOURCE_EXHAUSTED", grpc: 8, message: "Too many requests, please retry later (injected by the fault proxy)" },
  "500": { control: "INTERNAL", grpc: 13, message: "Internal error (injected by the fault proxy)" },
  "503": { control: "UNAVAILABLE", grpc: 14, message: "Service unavailable (injected by the fault proxy)" },
};

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function rewriteHostsIn(value: unknown, map: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteHostsIn(v, map));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === "host" && typeof v === "string" && map.has(v) ? map.get(v) : rewriteHostsIn(v, map);
    }
    return out;
  }
  return value;
}

function collectHosts(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => collectHosts(v, into));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "host" && typeof v === "string" && LOOPBACK_HOST.test(v)) into.add(v);
      else collectHosts(v, into);
    }
  }
}

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const f = opts.faults;
  const table: [FaultKind, number][] = [
    ["429", f.rate429 ?? 0], ["429-retry-after", f.rate429RetryAfter ?? 0], ["500", f.rate500 ?? 0], ["503", f.rate503 ?? 0],
    ["drop", f.rateDrop ?? 0], ["reset", f.rateReset ?? 0], ["stall", f.rateStall ?? 0], ["trickle", f.rateTrickle ?? 0],
  ];
  const total = table.reduce((s, [, r]) => s + r, 0);
  if (table.some(([, r]) => r < 0) || total > 1 + 1e-9) throw new Error(`fault rates must be ≥ 0 and sum to ≤ 1 (got ${total})`);
  const stallMs = f.stallMs ?? 30_000;
  const retryAfter = opts.retryAfterSeconds ?? 1;
  const trickleDelayMs = opts.trickleDelayMs ?? 50;
  const planes = new Set<Plane>(opts.planes ?? ["control", "data"]);
  const random = mulberry32(opts.seed);
  const agent = new Agent({ keepAlive: true });
  const stats: FaultProxyStats = {
    requests: 0, forwarded: 0, down: 0, upstreamErrors: 0, events: [],
    faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
  };
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const dataListeners = new Map<string, Promise<string>>(); // upstream host → "127.0.0.1:PORT" of our listener
  let down = false;
  let closed = false;

  function pick(): FaultKind | "none" {
    const r = random();
    let acc = 0;
    for (const [kind, rate] of table) {
      acc += rate;
      if (r < acc) return kind;
    }
    return "none";
  }

  function sleep(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      if (res.destroyed) return resolve(false);
      const onClose = () => { clearTimeout(t); timers.delete(t); resolve(false); };
      const t = setTimeout(() => { timers.delete(t); res.off("close", onClose); resolve(!res.destroyed); }, ms);
      timers.add(t);
      res.once("close", onClose);
    });
  }

  function forward(upstream: URL, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) headers[k] = v;
      headers.host = upstream.host;
      if (body.length > 0 || req.method === "POST" || req.method === "PATCH" || req.method === "PUT") headers["content-length"] = String(body.length);
      const up = httpRequest(
        { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (res) => {
          readBody(res).then((b) => {
            const h: Record<string, string | string[]> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) h[k] = v;
            resolve({ status: res.statusCode ?? 502, headers: h, body: b });
          }, reject);
        },
      );
      up.on("error", reject);
      up.end(body);
    });
  }

  async function rewrite(body: Buffer, headers: Record<string, string | string[]>): Promise<Buffer> {
    const type = String(headers["content-type"] ?? "");
    if (!opts.rewriteHosts || !type.includes("json") || body.length === 0) return body;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return body;
    }
    const hosts = new Set<string>();
    collectHosts(parsed, hosts);
    if (hosts.size === 0) return body;
    const map = new Map<string, string>();
    for (const h of hosts) map.set(h, await dataListenerFor(h));
    return Buffer.from(JSON.stringify(rewriteHostsIn(parsed, map)));
  }

  function errorBody(kind: "429" | "500" | "503", plane: Plane): string {
    const e = ERRORS[kind];
    return plane === "control"
      ? JSON.stringify({ status: Number(kind), error: { code: e.control, message: e.message } })
      : JSON.stringify({ code: e.grpc, message: e.message, details: [] });
  }

  async function handle(upstream: URL, plane: Plane, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const seq = ++stats.requests;
    const event: FaultEvent = { seq, plane, method: req.method ?? "GET", path: req.url ?? "/", fault: "none" };
    stats.events.push(event);
    if (down) {
      event.fault = "down";
      stats.down++;
      req.socket.destroy();
      return;
    }
    const drawn = pick();
    const fault = planes.has(plane) ? drawn : "none";
    event.fault = fault;
    if (fault !== "none") stats.faults[fault]++;
    const body = await readBody(req);

    if (fault === "429" || fault === "429-retry-after" || fault === "500" || fault === "503") {
      const kind = fault === "429-retry-after" ? "429" : fault;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (fault === "429-retry-after") headers["retry-after"] = String(retryAfter);
      res.writeHead(Number(kind), headers).end(errorBody(kind, plane));
      return;
    }
    if (fault === "drop") {
      req.socket.destroy();
      return;
    }
    if (fault === "stall" && !(await sleep(stallMs, res))) return;
    if (down || closed) {
      req.socket.destroy();
      return;
    }
    let answer;
    try {
      answer = await forward(upstream, req, body);
      stats.forwarded++;
    } catch {
      stats.upstreamErrors++;
      req.socket.destroy();
      return;
    }
    const out = isIdentityQuestion(req.url)
      ? Buffer.from(reproveForProxy(answer.body.toString("utf8"), req.url!, Number(upstream.port), req.socket.localPort ?? 0))
      : await rewrite(answer.body, answer.headers);
    if (res.destroyed) return;
    res.writeHead(answer.status, { ...answer.headers, "content-length": String(out.length) });
    if (fault === "reset") {
      res.flushHeaders();
      if (out.length > 1) res.write(out.subarray(0, Math.floor(out.length / 2)));
      // let the headers and half the body reach the client before the connection dies
      setImmediate(() => req.socket.destroy());
      return;
    }
    if (fault === "trickle") {
      const piece = Math.max(1, Math.ceil(out.length / 8));
      for (let i = 0; i < out.length; i += piece) {
        if (i > 0 && !(await sleep(trickleDelayMs, res))) return;
        res.write(out.subarray(i, i + piece));
      }
      res.end();
      return;
    }
    res.end(out);
  }

  async function listenFor(upstream: URL, plane: Plane): Promise<number> {
    const server = createServer((req, res) => {
      handle(upstream, plane, req, res).catch(() => req.socket.destroy());
    });
    server.keepAliveTimeout = 5000;
    server.on("connection", (socket: Socket) => {
      if (down || closed) {
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const addr = server.address();
    if (addr === null || typeof addr === "string") throw new Error("fault proxy: no port");
    return addr.port;
  }

  function dataListenerFor(host: string): Promise<string> {
    let p = dataListeners.get(host);
    if (!p) {
      p = listenFor(new URL(`http://${host}`), "data").then((port) => `127.0.0.1:${port}`);
      dataListeners.set(host, p);
    }
    return p;
  }

  const port = await listenFor(new URL(opts.target), "control");
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    setDown(value: boolean) {
      down = value;
      if (value) for (const s of sockets) s.destroy();
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      agent.destroy();
    },
  };
}
