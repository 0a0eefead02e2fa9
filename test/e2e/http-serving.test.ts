// Serving a team over HTTP (token, Host and Origin rules, limits), against the built server and the local service:
// a generated token, idle SDK sessions that really close, slow senders that hold no slot, calls that still answer
// when their session closes (SIGTERM, DELETE), 431 / 408, batches and ids in flight, the depth limit, the caps.
import { connect as netConnect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import {
  connect,
  INIT,
  openPost,
  raw,
  rpcError,
  sseMessages,
  startHttp as startHttpProcess,
  type HttpServerProcess,
} from "../helpers/http-server.js";
import { SHUTDOWN_DEADLINE_MS } from "../../src/shutdown.js";
import { createIndex, dataUrl, fetchVectors, indexStats, randomVector, serverless, startProxy, upsertRandomVectors } from "./support.js";
import { until } from "../helpers/until.js";

let svc: RunningService;
const running: HttpServerProcess[] = [];

async function startHttp(args: string[], env: Record<string, string> = {}): Promise<HttpServerProcess> {
  const p = await startHttpProcess({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, ...env }, args });
  running.push(p);
  return p;
}

beforeAll(async () => {
  svc = await startServiceProcess();
  await createIndex(svc, { name: "big", dimension: 64, metric: "cosine", spec: serverless });
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await svc?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TEAM_TOKEN = "team-token-0123456789abcdef";
const TEAM = { Authorization: `Bearer ${TEAM_TOKEN}` };

/** Initializes a raw session at `version`; returns its id. */
async function rawSession(url: string, version: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await raw(url, { headers, body: { ...INIT, params: { ...INIT.params, protocolVersion: version } } });
  expect(r.status).toBe(200);
  const id = r.headers["mcp-session-id"] as string;
  await raw(url, { headers: { ...headers, "Mcp-Session-Id": id, "Mcp-Protocol-Version": version }, body: { jsonrpc: "2.0", method: "notifications/initialized" } });
  return id;
}

async function indexHost(name: string): Promise<string> {
  const res = await fetch(`${svc.controlUrl}/indexes/${name}`, { headers: { "Api-Key": svc.apiKey, "X-Pinecone-API-Version": "2026-04" } });
  return ((await res.json()) as { host: string }).host;
}

async function clearIndex(host: string) {
  await fetch(`${dataUrl(host)}/vectors/delete`, {
    method: "POST",
    headers: { "Api-Key": svc.apiKey, "X-Pinecone-API-Version": "2026-04", "Content-Type": "application/json" },
    body: JSON.stringify({ deleteAll: true, namespace: "" }),
  });
}

describe("--http with no token given", () => {
  let p: HttpServerProcess;
  beforeAll(async () => {
    p = await startHttp([]);
  });

  test("a token is generated and shown once on stderr with how to use it; never on stdout", () => {
    const token = p.generatedToken!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.stderr()).toContain(`listening on ${p.url} (bearer token required)\n`);
    expect(p.stderr()).toContain(`vecdb-mcp:   Authorization: Bearer ${token}\n`);
    expect(p.stderr()).toContain(`"headers": { "Authorization": "Bearer ${token}" }`);
    expect(p.stdout()).toBe("");
  });

  test("a request without the token is refused with 401; the SDK client with it works", async () => {
    expect((await raw(p.url, { body: INIT })).status).toBe(401);
    const { client, transport } = await connect(p.url, { Authorization: `Bearer ${p.generatedToken}` });
    expect((await client.callTool({ name: "list_indexes", arguments: {} })).isError).toBeFalsy();
    await transport.terminateSession();
    await client.close();
  });

  test("each start generates a new token", async () => {
    const q = await startHttp([]);
    expect(q.generatedToken).toBeDefined();
    expect(q.generatedToken).not.toBe(p.generatedToken);
    await q.stop();
  });
});

describe("sessions of the SDK's own client", () => {
  test("idle SDK sessions (GET stream open) are closed after the timeout, and their places free up", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--idle-timeout-s", "3", "--max-sessions", "3"]);
    const clients = await Promise.all([connect(p.url), connect(p.url), connect(p.url)]);
    await expect(connect(p.url)).rejects.toThrow(/503|Too many sessions/);
    await sleep(5000);
    const fresh = await connect(p.url); // a place is free again
    expect((await fresh.client.listTools()).tools.length).toBeGreaterThan(0);
    await expect(clients[0].client.listTools()).rejects.toThrow(/404|Session not found/);
    await fresh.transport.terminateSession();
    for (const c of [...clients, fresh]) await c.client.close().catch(() => {});
  });

  test("a session in use is not closed while its calls keep coming", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--idle-timeout-s", "3"]);
    const { client, transport } = await connect(p.url);
    for (let i = 0; i < 5; i++) {
      await sleep(1000); // 5 s in all, each gap well under the timeout
      await client.listTools();
    }
    await transport.terminateSession();
    await client.close();
  });

  test("from one address at most --max-sessions-per-address sessions: 429 with Retry-After", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--max-sessions-per-address", "2"]);
    expect((await raw(p.url, { body: INIT })).status).toBe(200);
    expect((await raw(p.url, { body: INIT })).status).toBe(200);
    const over = await raw(p.url, { body: INIT });
    expect(over.status).toBe(429);
    expect(over.headers["retry-after"]).toBe("5");
    expect(rpcError(over.body).message).toBe("Too many sessions from your address (2); close one (HTTP DELETE) or retry later");
    // 127.0.0.2, 127.0.0.3 … are the same machine: one client, not one each
    expect((await raw(p.url, { body: INIT, localAddress: "127.0.0.2" })).status).toBe(429);
    expect((await raw(p.url, { body: INIT, localAddress: "127.0.0.3" })).status).toBe(429);
  });

  test("behind --trusted-proxies the caps count the forwarded client; a header from anyone else is not believed", async () => {
    const p = await startHttp(["--max-sessions-per-address", "2", "--trusted-proxies", "127.0.0.1"], { VECDB_HTTP_TOKEN: TEAM_TOKEN });
    const via = (client: string, localAddress = "127.0.0.1") => raw(p.url, { headers: { ...TEAM, "X-Forwarded-For": client }, body: INIT, localAddress });
    expect((await via("198.51.100.7")).status).toBe(200);
    expect((await via("198.51.100.7")).status).toBe(200);
    expect((await via("198.51.100.7")).status).toBe(429);
    expect((await via("198.51.100.8")).status).toBe(200); // another client behind the same proxy
    // From an address that is not the proxy, the header is the client's own claim: it counts as its address.
    expect((await via("203.0.113.1", "127.0.0.2")).status).toBe(200);
    expect((await via("203.0.113.2", "127.0.0.2")).status).toBe(200);
    expect((await via("203.0.113.3", "127.0.0.2")).status).toBe(429);
  });

  test("128 SDK sessions from one address (every client on loopback, or behind a proxy) all run, with the defaults", async () => {
    const p = await startHttp([], { VECDB_HTTP_TOKEN: TEAM_TOKEN });
    const clients = await Promise.all(Array.from({ length: 128 }, () => connect(p.url, TEAM)));
    // Each session is usable at once after its initialize, however many started together: none is left orphaned.
    const results = await Promise.all(clients.map((c) => c.client.callTool({ name: "list_indexes", arguments: {} }).then((r) => r.isError ?? false, (e: Error) => e.message)));
    expect(results.filter((r) => r !== false)).toEqual([]);
    await Promise.all(clients.map((c) => c.transport.terminateSession()));
    await Promise.all(clients.map((c) => c.client.close()));
    expect(p.stderr()).not.toMatch(/refused|vecdb-mcp error:/);
  }, 60_000);
});

describe("slow and half-sent requests", () => {
  test("256 trickling initializes hold no session slot and do not keep a real client out", async () => {
    const p = await startHttp(
      ["--max-sessions", "4", "--request-timeout-s", "5", "--max-connections-per-address", "64", "--trusted-proxies", "127.0.0.1"],
      { VECDB_HTTP_TOKEN: TEAM_TOKEN },
    );
    const body = JSON.stringify(INIT);
    const tricklers = Array.from({ length: 256 }, () => openPost(p.url, { ...TEAM, "Content-Length": String(body.length) }, "127.0.0.2"));
    const outcomes = tricklers.map((t) => t.response.then((r) => r.status, () => "reset"));
    let timedOut = 0; // the tricklers' 408s, which come at the deadline
    for (const o of outcomes) void o.then((status) => status === 408 && timedOut++);
    let sent = 1;
    // Each trickler's connection is open and its first byte sent (the write's callback) before the real client comes.
    const started = tricklers.map((t) => new Promise<void>((r) => t.req.write(body.slice(0, 1), () => r())));
    const drip = setInterval(() => {
      if (sent < body.length - 1) tricklers.forEach((t) => t.req.writable && t.req.write(body.slice(sent, sent + 1)));
      sent++;
    }, 500);
    try {
      await Promise.all(started);
      // A real client from another address (behind the trusted proxy) gets in at once, though only 4 sessions are allowed.
      const real = await connect(p.url, { ...TEAM, "X-Forwarded-For": "198.51.100.7" });
      expect((await real.client.callTool({ name: "list_indexes", arguments: {} })).isError).toBeFalsy();
      expect(timedOut).toBe(0); // it got in while every trickler still held its connection: it did not wait for them
      await real.transport.terminateSession();
      await real.client.close();
      // The senders get 408 at the deadline: the 64 within the connection cap and the 64 on probation past it (those
      // past twice the cap get 503 at once).
      const statuses = await Promise.all(outcomes);
      expect(statuses.filter((s) => s === 408).length).toBe(128);
      expect(statuses.every((s) => s === 408 || s === 503 || s === "reset")).toBe(true);
      // and then a client from their address gets in too
      const after = await connect(p.url, TEAM);
      await after.transport.terminateSession();
      await after.client.close();
    } finally {
      clearInterval(drip);
      tricklers.forEach((t) => t.req.destroy());
    }
    expect(p.stderr()).not.toMatch(/vecdb-mcp error:/);
  });

  test("headers over the limit get 431; headers that do not arrive in time get 408", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--request-timeout-s", "1"]);
    const rawSocket = (text: string, waitMs: number) =>
      new Promise<string>((resolve) => {
        const s = netConnect(p.port, "127.0.0.1");
        let got = "";
        s.on("data", (c) => (got += c.toString()));
        s.on("close", () => resolve(got));
        s.on("error", () => resolve(got));
        s.write(text);
        setTimeout(() => s.destroy(), waitMs);
      });
    const big = await rawSocket(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`, 5000);
    expect(big).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    const many = await rawSocket(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join("")}\r\n`, 5000);
    expect(many).toMatch(/^HTTP\/1\.1 431 /);
    const slow = await rawSocket(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\n`, 8000);
    expect(slow).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(p.stderr()).toMatch(/vecdb-mcp info: refused a request from .*431 Request Header Fields Too Large/);
    expect(p.stderr()).not.toMatch(/vecdb-mcp error:/);
  });

  test("bodies being received at once are bounded as their bytes arrive: past the budget 503 with Retry-After, then it frees", async () => {
    // A long deadline: on a loaded machine the half-sent first body must still be held when the probes arrive.
    const p = await startHttp(["--insecure-http-no-token", "--max-body-mb-in-flight", "1", "--request-timeout-s", "120"]);
    const first = openPost(p.url, { "Content-Length": String(800_000) });
    first.response.catch(() => {}); // it is cut off below
    const sentFirst = new Promise<void>((r) => first.req.write(" ".repeat(600_000), () => r()));
    await sentFirst;
    // Once the server holds the first body's 600,000 bytes, 800,000 more do not fit.
    let second!: Awaited<ReturnType<typeof raw>>;
    await until(async () => {
      second = await raw(p.url, { headers: { "Content-Length": String(800_000) }, body: " ".repeat(800_000) });
      return second.status === 503;
    }, "the first body's bytes to be held", 60_000);
    expect(second.headers["retry-after"]).toBe("2");
    expect(rpcError(second.body).message).toBe("Service Unavailable: 1 MiB of request bodies are in progress already; retry shortly");
    first.req.destroy(); // the client goes away mid-upload: its bytes are given back
    const wentAway = /vecdb-mcp info: POST from .* not answered: the client went away after \d+ of 800000 bytes of the body/;
    await until(() => wentAway.test(p.stderr()), "the server to see the client go");
    const third = await raw(p.url, { headers: { "Content-Length": String(800_000) }, body: " ".repeat(800_000) });
    expect(third.status).toBe(400); // read whole (and refused as not JSON), not 503: the budget is free again
    expect((await raw(p.url, { body: INIT })).status).toBe(200);
    expect(p.stderr()).not.toMatch(/Parse error|vecdb-mcp error:/);
  });

  test("a session's request declaring the whole body budget and sending a byte at a time holds nothing back, and gets 408 at the deadline", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--max-body-mb-in-flight", "1", "--request-timeout-s", "2"]);
    const sid = await rawSession(p.url, "2025-06-18");
    const session = { "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18" };
    const slow = openPost(p.url, { ...session, "Content-Length": String(1024 * 1024) });
    slow.response.catch(() => {});
    const drip = setInterval(() => slow.req.writable && slow.req.write("["), 200);
    try {
      await new Promise<void>((r) => slow.req.write("[", () => r()));
      // Another client's call, with a body of 60 kB: none of the budget would be left if the declared length were reserved.
      const other = await connect(p.url);
      const vectors = Array.from({ length: 50 }, (_, i) => ({ id: `trickle-${i}`, values: randomVector(64, i + 1) }));
      const call = await other.client.callTool({ name: "upsert_vectors", arguments: { index: "big", namespace: "trickle", vectors } });
      expect(call.isError).toBeFalsy();
      await other.transport.terminateSession();
      await other.client.close();
      const r = await slow.response;
      expect(r.status).toBe(408);
      expect(rpcError(r.body).message).toBe("Request Timeout: the body did not arrive in time (2 s, plus a second per MiB)");
    } finally {
      clearInterval(drip);
      slow.req.destroy();
    }
  });

  test("a 503 for the body budget during a large upload reaches the client (fetch) as the 503 with its message, not a reset", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--max-body-mb-in-flight", "8"]);
    const sid = await rawSession(p.url, "2025-06-18");
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18" };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping", params: { pad: "x".repeat(10_000_000) } });
    // One upload holds 7 MB of the 8 MiB budget; 8 more of 10 MB each at once are refused while they are still being sent
    // (far more than the sockets' buffers hold: the server answers long before it could have read them).
    const holder = openPost(p.url, { ...headers, "Content-Length": String(Buffer.byteLength(body)) });
    holder.response.catch(() => {});
    await new Promise<void>((r) => holder.req.write(body.slice(0, 7_000_000), () => r()));
    await until(async () => (await raw(p.url, { headers, body: " ".repeat(2_000_000) })).status === 503, "the holder's bytes to be held");
    const outcomes: { status: number; text: string }[] = [];
    for (let round = 0; round < 3; round++) {
      const sent = Array.from({ length: 8 }, () =>
        fetch(p.url, { method: "POST", headers, body }).then(
          async (r) => ({ status: r.status, text: await r.text() }),
          (e: Error) => ({ status: 0, text: `${e.message}: ${String((e.cause as Error | undefined)?.message)}` }),
        ),
      );
      outcomes.push(...(await Promise.all(sent)));
    }
    holder.req.destroy();
    const refused = outcomes.filter((o) => o.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) {
      expect(o).toEqual({ status: 503, text: expect.stringContaining("Service Unavailable: 8 MiB of request bodies are in progress already; retry shortly") });
    }
    expect(p.stderr()).toMatch(/refused POST \/mcp from .*: bodies in flight at the limit/);
  });
});

test("a large answer the client stops reading is dropped after --send-timeout-s; the server goes on", async () => {
  await createIndex(svc, { name: "wide", dimension: 768, metric: "cosine", spec: serverless });
  const host = await indexHost("wide");
  await upsertRandomVectors(svc, host, 1000, 768, "w");
  const p = await startHttp(["--insecure-http-no-token", "--send-timeout-s", "1", "--max-result-tokens", "100000"]);
  const sid = await rawSession(p.url, "2025-03-26");
  // Sixty calls in one batch: one answer stream of tens of MB (each result up to a budget of 100,000 tokens, in the
  // text and in structuredContent), more than the kernel's socket buffers hold.
  const call = JSON.stringify(
    Array.from({ length: 60 }, (_, k) => ({
      jsonrpc: "2.0",
      id: k + 2,
      method: "tools/call",
      params: { name: "fetch_vectors", arguments: { index: "wide", ids: Array.from({ length: 100 }, (_, i) => `w${(k * 100 + i) % 1000}`), includeValues: true } },
    })),
  );
  // A client that sends the calls and then reads nothing.
  const sock = netConnect(p.port, "127.0.0.1", () => {
    sock.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Mcp-Session-Id: ${sid}\r\nMcp-Protocol-Version: 2025-03-26\r\nContent-Length: ${Buffer.byteLength(call)}\r\n\r\n${call}`,
    );
    sock.pause();
  });
  sock.on("error", () => {});
  const closed = new Promise<void>((r) => sock.on("close", () => r()));
  await until(() => /dropped a response/.test(p.stderr()), "the server to drop the unread response", 50_000);
  expect(p.stderr()).toMatch(/vecdb-mcp info: dropped a response to 127\.0\.0\.1: \d+ bytes unread for 1 s/);
  // What the kernel held still arrives, then the connection ends: the answer never completes.
  let received = "";
  sock.on("data", (c: Buffer) => (received += c.toString("latin1")));
  sock.resume();
  await closed;
  expect(received.includes('"id":2,') && received.includes('"id":3,')).toBe(false);
  const ping = await raw(p.url, { headers: { "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26" }, body: { jsonrpc: "2.0", id: 5, method: "ping" } });
  expect(sseMessages(ping.body)[0]).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
}, 90_000);

describe("JSON-RPC in front of the SDK", () => {
  let p: HttpServerProcess;
  beforeAll(async () => {
    p = await startHttp(["--insecure-http-no-token"]);
  });
  const post = (id: string, version: string, body: unknown) =>
    raw(p.url, { headers: { "Mcp-Session-Id": id, "Mcp-Protocol-Version": version }, body: typeof body === "string" ? body : JSON.stringify(body) });

  test("an empty batch gets -32600 (not 202 with no body)", async () => {
    const id = await rawSession(p.url, "2025-03-26");
    const r = await post(id, "2025-03-26", "[]");
    expect(r.status).toBe(400);
    expect(rpcError(r.body)).toEqual({ code: -32600, message: "Invalid Request: an empty batch" });
  });

  test("at 2025-03-26 a batch is answered; at 2025-06-18 it is refused with -32600", async () => {
    const old = await rawSession(p.url, "2025-03-26");
    const ok = await post(old, "2025-03-26", [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    expect(ok.status).toBe(200);
    expect(sseMessages(ok.body).map((m) => m.id).sort()).toEqual([1, 2]);

    const now = await rawSession(p.url, "2025-06-18");
    const refused = await post(now, "2025-06-18", [{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(refused.status).toBe(400);
    expect(rpcError(refused.body)).toEqual({
      code: -32600,
      message: "Invalid Request: this session is at protocol version 2025-06-18, which has no JSON-RPC batches; send each message in its own POST",
    });
  });

  test("the same id twice in one batch, or while a request with it is in flight: -32600, and the session still idles out", async () => {
    const old = await rawSession(p.url, "2025-03-26");
    const twice = await post(old, "2025-03-26", [1, 1, 1].map((id) => ({ jsonrpc: "2.0", id, method: "ping" })));
    expect(twice.status).toBe(400);
    expect(rpcError(twice.body)).toEqual({ code: -32600, message: "Invalid Request: id 1 is already used by a request in flight in this session" });

    // An upsert whose writes wait at a gate holds id 7 until the test opens it; a ping with id 7 meanwhile is refused.
    const host = await indexHost("big");
    await clearIndex(host);
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const data = await startProxy({ target: dataUrl(host), fault: (req) => (req.url?.startsWith("/vectors/upsert") ? { until: gate } : "pass") });
    const control = await startProxy({ target: svc.controlUrl, rewrite: (body) => body.split(host).join(data.host) });
    const gated = await startHttp(["--insecure-http-no-token"], { PINECONE_CONTROLLER_HOST: control.url });
    try {
      const vectors = Array.from({ length: 300 }, (_, i) => ({ id: `s${i}`, values: randomVector(64, i + 1) }));
      const sid = await rawSession(gated.url, "2025-06-18");
      const slow = openPost(gated.url, { "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18" });
      slow.req.end(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "upsert_vectors", arguments: { index: "big", vectors } } }));
      await until(() => data.requests.some((r) => r.path.startsWith("/vectors/upsert")), "the upsert to reach the service");
      const postTo = (body: unknown) => raw(gated.url, { headers: { "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18" }, body });
      const dup = await postTo({ jsonrpc: "2.0", id: 7, method: "ping" });
      expect(dup.status).toBe(400);
      expect(rpcError(dup.body).message).toBe("Invalid Request: id 7 is already used by a request in flight in this session");
      open();
      const done = sseMessages((await slow.response).body).find((m) => m.id === 7);
      expect(done.result.structuredContent).toMatchObject({ records: 300, upserted: 300 });
      // once answered, the id may be used again
      const again = await postTo({ jsonrpc: "2.0", id: 7, method: "ping" });
      expect(sseMessages(again.body)[0]).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    } finally {
      open();
      await data.close();
      await control.close();
    }
  });

  test("arguments nested 100,000 deep: -32602 with the limit; the server stays healthy", async () => {
    const sid = await rawSession(p.url, "2025-06-18");
    const deep = '{"$and":['.repeat(100_000) + "1" + "]}".repeat(100_000);
    const r = await post(sid, "2025-06-18", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"query_vectors","arguments":{"index":"big","topK":1,"filter":${deep}}}}`);
    const answer = sseMessages(r.body)[0];
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(/^Invalid params: nested deeper than 64 levels \(at params\.arguments\.filter\.\$and\[0\]/);
    const ping = await post(sid, "2025-06-18", { jsonrpc: "2.0", id: 4, method: "ping" });
    expect(sseMessages(ping.body)[0]).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
    expect(p.stderr()).not.toMatch(/vecdb-mcp error:/);
  });
});

describe("calls in flight when their session closes", () => {
  const N = 6000;
  const vectors = Array.from({ length: N }, (_, i) => ({ id: `r${i}`, values: randomVector(64, i + 7) }));

  /** Starts a slow upsert into `namespace` through the SDK client; resolves once its first batch has landed. */
  async function slowUpsert(url: string, namespace: string) {
    const c = await connect(url);
    let progressed!: () => void;
    const firstProgress = new Promise<void>((r) => (progressed = r));
    const call = c.client.callTool({ name: "upsert_vectors", arguments: { index: "big", namespace, vectors } }, undefined, {
      timeout: 60_000,
      onprogress: () => progressed(),
    });
    await firstProgress;
    return { ...c, call };
  }

  /** The service holds exactly the records the result says landed. */
  async function expectExactAccount(result: any, namespace: string) {
    const s = result.structuredContent as { records: number; upserted: number; failed: number; failedIds: string[] };
    expect(s.records).toBe(N);
    expect(s.upserted + s.failed).toBe(N);
    const host = await indexHost("big");
    expect((await indexStats(svc, host)).namespaces[namespace]?.vectorCount ?? 0).toBe(s.upserted);
    const notLanded = new Set(s.failedIds);
    const sample = [...vectors.slice(0, 50), ...vectors.slice(-50)].map((v) => v.id);
    const found = await fetchVectors(svc, host, sample, namespace);
    for (const id of sample) expect(id in found, id).toBe(!notLanded.has(id));
  }

  test("SIGTERM during a large upsert: past the grace period the client gets the exact landed / not-landed account", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--shutdown-grace-s", "0", "--concurrency", "1"]);
    const { call, client } = await slowUpsert(p.url, "sigterm-past-grace");
    p.child.kill("SIGTERM");
    const result = await call;
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0].text;
    expect(text).toMatch(/^\d+ of 6000 records were NOT written \(\d+ were\)\./);
    expect(text).toContain("the server stopped the call (it is shutting down, or the session was closed)");
    await expectExactAccount(result, "sigterm-past-grace");
    expect(await p.exited).toBe(0);
    await client.close().catch(() => {});
  });

  test("SIGTERM while a call's body is still arriving: the call is answered with its account, not cut off", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--shutdown-grace-s", "0", "--log-level", "debug"]);
    const sid = await rawSession(p.url, "2025-06-18");
    const body = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "upsert_vectors", arguments: { index: "big", namespace: "sigterm-uploading", vectors } } });
    const upload = openPost(p.url, { "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18", "Content-Length": String(Buffer.byteLength(body)) });
    await new Promise<void>((r) => upload.req.write(body.slice(0, 1000), () => r()));
    p.child.kill("SIGTERM");
    await until(() => /shutting down: stopping 1 session/.test(p.stderr()), "the server to wait for the call being received");
    upload.req.end(body.slice(1000));
    const result = sseMessages((await upload.response).body).find((m) => m.id === 4).result;
    expect(result.structuredContent).toMatchObject({ records: N, upserted: 0, failed: N });
    expect(result.content[0].text).toContain("the server stopped the call (it is shutting down, or the session was closed)");
    await expectExactAccount(result, "sigterm-uploading");
    expect(await p.exited).toBe(0);
  });

  test("SIGTERM within the grace period: the running call finishes whole, new requests are refused meanwhile", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--shutdown-grace-s", "60", "--log-level", "debug"]);
    const { call, client } = await slowUpsert(p.url, "sigterm-in-grace");
    p.child.kill("SIGTERM");
    await until(() => p.stderr().includes("shutting down (SIGTERM)"), "the server to take the signal");
    // No new session meanwhile: refused with 503, or not even connected once the listener is closed.
    const meanwhile = await raw(p.url, { body: INIT }).catch(() => undefined);
    if (meanwhile) expect(rpcError(meanwhile.body).message).toBe("Service Unavailable: the server is shutting down");
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ records: N, upserted: N, failed: 0 });
    expect(await p.exited).toBe(0);
    await client.close().catch(() => {});
  });

  test("SIGTERM while an upsert waits on the service past the 5 s step deadline: within the grace it finishes whole", async () => {
    // The batches wait at a gate until the old 5 s shutdown deadline has passed; the 8 s grace still covers them.
    const host = await indexHost("big");
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const data = await startProxy({ target: dataUrl(host), fault: (req) => (req.url?.startsWith("/vectors/upsert") ? { until: gate } : "pass") });
    const control = await startProxy({ target: svc.controlUrl, rewrite: (body) => body.split(host).join(data.host) });
    try {
      const p = await startHttp(["--insecure-http-no-token", "--shutdown-grace-s", "8", "--log-level", "debug"], { PINECONE_CONTROLLER_HOST: control.url });
      const c = await connect(p.url);
      const call = c.client.callTool({ name: "upsert_vectors", arguments: { index: "big", namespace: "sigterm-waiting", vectors: vectors.slice(0, 2000) } }, undefined, { timeout: 60_000 });
      await until(() => data.requests.some((r) => r.path.startsWith("/vectors/upsert")), "the upsert to reach the service");
      p.child.kill("SIGTERM");
      await until(() => p.stderr().includes("shutting down (SIGTERM)"), "the server to take the signal");
      await sleep(SHUTDOWN_DEADLINE_MS + 500); // the point of the test: time passes the step deadline
      open();
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ records: 2000, upserted: 2000, failed: 0 });
      expect((await indexStats(svc, host)).namespaces["sigterm-waiting"]?.vectorCount).toBe(2000);
      expect(await p.exited).toBe(0);
      expect(p.stderr()).not.toContain("ending the process now");
      await c.client.close().catch(() => {});
    } finally {
      open();
      await data.close();
      await control.close();
    }
  });

  test("DELETE of the session during a large upsert: the call answers with its account before the session goes", async () => {
    const p = await startHttp(["--insecure-http-no-token", "--concurrency", "1"]);
    const { call, client, transport } = await slowUpsert(p.url, "delete");
    const deleted = transport.terminateSession();
    const result = await call;
    await deleted;
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toContain("the server stopped the call");
    await expectExactAccount(result, "delete");
    await client.close().catch(() => {});
  });
});
