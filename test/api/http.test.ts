import { afterEach, describe, expect, it } from "vitest";
import { HttpClient, ResponseShapeError, ServiceError, UntrustedHostError, parseRetryAfter, type HttpSettings } from "../../src/api/http.js";
import { PACKAGE_VERSION } from "../../src/api/version.js";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closedPort, json, startFakeServer, type FakeServer } from "./fake-server.js";

const KEY = "pc-test-key-0123456789abcdef";
const servers: FakeServer[] = [];
const clients: HttpClient[] = [];

async function server(handler: Parameters<typeof startFakeServer>[0]): Promise<FakeServer> {
  const s = await startFakeServer(handler);
  servers.push(s);
  return s;
}

function client(url: string, overrides: Partial<HttpSettings> = {}): HttpClient {
  const c = new HttpClient({
    apiKey: KEY,
    apiVersion: "2026-04",
    timeoutMs: 2000,
    retries: 4,
    backoffBaseMs: 10,
    backoffMaxMs: 50,
    ...overrides,
  });
  c.trustOrigin(url);
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("HttpClient requests", () => {
  it("sends the key, version, content type and user agent, and the exact body", async () => {
    const s = await server((_req, res) => json(res, 200, { upsertedCount: 2 }));
    const c = client(s.url);
    const body = Buffer.from('{"vectors":[{"id":"a","values":[0.1]}]}');
    const answer = await c.request<{ upsertedCount: number }>({ url: `${s.url}/vectors/upsert`, method: "POST", body });
    expect(answer).toEqual({ upsertedCount: 2 });
    expect(s.received).toHaveLength(1);
    const r = s.received[0];
    expect(r.method).toBe("POST");
    expect(r.url).toBe("/vectors/upsert");
    expect(r.body).toBe('{"vectors":[{"id":"a","values":[0.1]}]}');
    expect(r.headers["api-key"]).toBe(KEY);
    expect(r.headers["x-pinecone-api-version"]).toBe("2026-04");
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers["user-agent"]).toBe(`vecdb-mcp/${PACKAGE_VERSION}`);
  });

  it("serialises a non-Buffer body as JSON", async () => {
    const s = await server((_req, res) => json(res, 201, { name: "c" }));
    const c = client(s.url);
    await c.request({ url: `${s.url}/collections`, method: "POST", body: { name: "c", source: "i" } });
    expect(s.received[0].body).toBe('{"name":"c","source":"i"}');
  });

  it("returns undefined for an empty 2xx body (e.g. 202 on delete)", async () => {
    const s = await server((_req, res) => {
      res.writeHead(202);
      res.end();
    });
    const c = client(s.url);
    expect(await c.request({ url: `${s.url}/indexes/x`, method: "DELETE" })).toBeUndefined();
  });

  it("the user agent's version is package.json's", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(PACKAGE_VERSION).toBe(pkg.version);
  });
});

describe("retries", () => {
  it("honours Retry-After in seconds after a 429, then succeeds with the same body", async () => {
    const s = await server((_req, res, n) =>
      n === 1
        ? json(res, 429, { code: 8, message: "Too many requests", details: [] }, { "Retry-After": "1" })
        : json(res, 200, { upsertedCount: 1 }),
    );
    const c = client(s.url);
    const started = Date.now();
    const answer = await c.request({ url: `${s.url}/vectors/upsert`, method: "POST", body: Buffer.from('{"x":1}') });
    expect(answer).toEqual({ upsertedCount: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(s.received.map((r) => r.body)).toEqual(['{"x":1}', '{"x":1}']);
  });

  it("honours Retry-After as an HTTP date, capped by retryAfterMaxMs", async () => {
    const later = new Date(Date.now() + 60_000).toUTCString();
    const s = await server((_req, res, n) =>
      n === 1 ? json(res, 429, { message: "slow down" }, { "Retry-After": later }) : json(res, 200, {}),
    );
    const c = client(s.url, { retryAfterMaxMs: 300 });
    const started = Date.now();
    await c.request({ url: `${s.url}/x`, method: "GET" });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5000);
    expect(s.received).toHaveLength(2);
  });

  it("retries 500, 502 and 503 and returns the answer that finally came", async () => {
    const s = await server((_req, res, n) =>
      n <= 3 ? json(res, [500, 502, 503][n - 1], { message: "busy" }) : json(res, 200, { ok: true }),
    );
    const c = client(s.url);
    expect(await c.request({ url: `${s.url}/x`, method: "POST", body: Buffer.from("{}") })).toEqual({ ok: true });
    expect(s.received).toHaveLength(4);
  });

  it("gives up after `retries` retries with the last error", async () => {
    const s = await server((_req, res) => json(res, 503, { status: 503, error: { code: "UNAVAILABLE", message: "down" } }));
    const c = client(s.url, { retries: 2 });
    const err = await failure(c.request({ url: `${s.url}/indexes`, method: "GET" }));
    expect(s.received).toHaveLength(3);
    expect(err.status).toBe(503);
    expect(err.code).toBe("UNAVAILABLE");
    expect(err.serviceMessage).toBe("down");
    expect(err.attempts).toBe(3);
    expect(err.message).toBe(`HTTP 503 UNAVAILABLE: down (GET ${s.url}/indexes)`);
  });

  it("does not retry when retry is false", async () => {
    const s = await server((_req, res) => json(res, 503, { message: "down" }));
    const c = client(s.url);
    await failure(c.request({ url: `${s.url}/collections`, method: "POST", body: {}, retry: false }));
    expect(s.received).toHaveLength(1);
  });

  it("never retries a 4xx other than 429", async () => {
    for (const status of [400, 401, 403, 404, 409, 413, 422]) {
      const s = await server((_req, res) => json(res, status, { status, error: { code: "X", message: "no" } }));
      const c = client(s.url);
      const err = await failure(c.request({ url: `${s.url}/x`, method: "POST", body: Buffer.from("{}") }));
      expect(err.status).toBe(status);
      expect(s.received).toHaveLength(1);
    }
  });

  it("re-sends after the connection is destroyed in the middle of the answer", async () => {
    const s = await server((_req, res, n) => {
      if (n === 1) {
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
        res.write('{"upsertedCo');
        setTimeout(() => res.socket?.destroy(), 20);
      } else json(res, 200, { upsertedCount: 3 });
    });
    const c = client(s.url);
    const answer = await c.request({ url: `${s.url}/vectors/upsert`, method: "POST", body: Buffer.from('{"v":[1]}') });
    expect(answer).toEqual({ upsertedCount: 3 });
    expect(s.received.map((r) => r.body)).toEqual(['{"v":[1]}', '{"v":[1]}']);
  });

  it("re-sends after the connection is dropped before any answer", async () => {
    const s = await server((req, res, n) => {
      if (n === 1) req.socket.destroy();
      else json(res, 200, { ok: 1 });
    });
    const c = client(s.url);
    expect(await c.request({ url: `${s.url}/x`, method: "POST", body: Buffer.from("{}") })).toEqual({ ok: 1 });
    expect(s.received).toHaveLength(2);
  });

  it("times out a stalled attempt and retries it", async () => {
    const s = await server((_req, res, n) => {
      if (n > 1) json(res, 200, { ok: n });
      // n === 1: never answers
    });
    const c = client(s.url, { timeoutMs: 300 });
    const started = Date.now();
    expect(await c.request({ url: `${s.url}/x`, method: "GET" })).toEqual({ ok: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it("a server that always stalls ends in a TIMEOUT error with no status", async () => {
    const s = await server(() => {});
    const c = client(s.url, { timeoutMs: 200, retries: 1 });
    const err = await failure(c.request({ url: `${s.url}/indexes`, method: "GET" }));
    expect(err.status).toBeUndefined();
    expect(err.code).toBe("TIMEOUT");
    expect(err.serviceMessage).toBe("no answer within 200 ms");
    expect(err.message).toBe(`no answer TIMEOUT: no answer within 200 ms (GET ${s.url}/indexes)`);
    expect(s.received).toHaveLength(2);
  });

  it("a body that trickles past the timeout is a timeout too", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write("{");
      const t = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(t));
    });
    const c = client(s.url, { timeoutMs: 300, retries: 0 });
    const err = await failure(c.request({ url: `${s.url}/x`, method: "GET" }));
    expect(err.code).toBe("TIMEOUT");
  });

  it("retries a refused connection a bounded number of times", async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const c = client(url, { retries: 10 });
    const err = await failure(c.request({ url: `${url}/indexes`, method: "GET" }));
    expect(err.status).toBeUndefined();
    expect(err.code).toBe("ECONNREFUSED");
    expect(err.serviceMessage).toBe("connection refused");
    expect(err.attempts).toBe(4);
  });
});

describe("connections", () => {
  it("re-sends a large body whose upload was cut by a reset", async () => {
    let n = 0;
    const bodies: number[] = [];
    const raw = createServer((req, res) => {
      n++;
      if (n === 1) {
        req.once("data", () => req.socket.destroy());
        return;
      }
      let size = 0;
      req.on("data", (c: Buffer) => (size += c.length));
      req.on("end", () => {
        bodies.push(size);
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end('{"upsertedCount":100}');
      });
    });
    await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    try {
      const big = Buffer.alloc(1_900_000, 0x20);
      const c = client(url);
      expect(await c.request({ url: `${url}/vectors/upsert`, method: "POST", body: big })).toEqual({ upsertedCount: 100 });
      expect(bodies).toEqual([1_900_000]);
    } finally {
      raw.closeAllConnections();
      await new Promise((r) => raw.close(r));
    }
  });

  it("runs 16 requests at once over the one agent", async () => {
    // Each answer waits until `expected` requests are at the server at once: a client that held one back would hang
    // here (and time out) instead of passing on a quick machine.
    let expected = 16;
    let held: ServerResponse[] = [];
    let peak = 0;
    const s = await server((_req, res) => {
      held.push(res);
      peak = Math.max(peak, held.length);
      if (held.length < expected) return;
      for (const r of held) json(r, 200, {});
      held = [];
    });
    const c = client(s.url, { timeoutMs: 20_000 });
    await Promise.all(Array.from({ length: 16 }, () => c.request({ url: `${s.url}/x`, method: "POST", body: Buffer.from("{}") })));
    expect(peak).toBe(16);
    // The most --concurrency allows (64): none waits for a connection (its timeout would run while it waits).
    expected = 64;
    peak = 0;
    await Promise.all(Array.from({ length: 64 }, () => c.request({ url: `${s.url}/x`, method: "POST", body: Buffer.from("{}") })));
    expect(peak).toBe(64);
  });

  it("does not follow a redirect (the key would go along)", async () => {
    const other = await server((_req, res) => json(res, 200, {}));
    const s = await server((_req, res) => {
      res.writeHead(307, { Location: `${other.url}/stolen` });
      res.end();
    });
    const err = await failure(client(s.url).request({ url: `${s.url}/indexes`, method: "GET" }));
    expect(err.status).toBe(307);
    expect(other.received).toHaveLength(0);
  });
});

describe("abort", () => {
  it("stops during a backoff sleep, with no further attempt", async () => {
    const ac = new AbortController();
    const s = await server((_req, res) => json(res, 429, { message: "wait" }, { "Retry-After": "10" }));
    // The client has read the whole 429 (undici reports its end on this channel); from there to its 10 s backoff sleep
    // is promise continuations only, all run before the next turn of the loop, where the abort comes.
    let answered = false;
    const onAnswerRead = (message: unknown) => {
      const { request } = message as { request: { origin: string; path: string } };
      if (request.origin !== s.url || request.path !== "/x") return;
      answered = true;
      setImmediate(() => ac.abort());
    };
    subscribe("undici:request:trailers", onAnswerRead);
    try {
      const c = client(s.url, { retryAfterMaxMs: 10_000 });
      const started = Date.now();
      const err = await c.request({ url: `${s.url}/x`, method: "GET", signal: ac.signal }).catch((e: unknown) => e);
      expect(answered).toBe(true);
      expect((err as Error).name).toBe("AbortError");
      expect(Date.now() - started).toBeLessThan(2000);
      // A later request through the same client is the barrier: an attempt still under way would reach the service first.
      await c.request({ url: `${s.url}/after`, method: "GET", retry: false }).catch(() => {});
      expect(s.received.map((r) => r.url)).toEqual(["/x", "/after"]);
    } finally {
      unsubscribe("undici:request:trailers", onAnswerRead);
    }
  });

  it("stops a request in flight", async () => {
    const ac = new AbortController();
    const s = await server(() => ac.abort()); // the request has reached the service and is never answered
    const c = client(s.url, { timeoutMs: 10_000 });
    const started = Date.now();
    const err = await c.request({ url: `${s.url}/x`, method: "GET", signal: ac.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.received).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const c = client(s.url);
    await expect(c.request({ url: `${s.url}/x`, method: "GET", signal: AbortSignal.abort() })).rejects.toThrow();
    expect(s.received).toHaveLength(0);
  });
});

describe("error bodies", () => {
  it("reads the control-plane shape", async () => {
    const s = await server((_req, res) =>
      json(res, 404, { status: 404, error: { code: "NOT_FOUND", message: "Index example-index not found." } }),
    );
    const err = await failure(client(s.url).request({ url: `${s.url}/indexes/example-index`, method: "GET" }));
    expect([err.status, err.code, err.serviceMessage]).toEqual([404, "NOT_FOUND", "Index example-index not found."]);
    expect(err.url).toBe(`${s.url}/indexes/example-index`);
    expect(err.message).toBe(`HTTP 404 NOT_FOUND: Index example-index not found. (GET ${s.url}/indexes/example-index)`);
  });

  it("reads the data-plane shape (numeric code as a string)", async () => {
    const s = await server((_req, res) =>
      json(res, 400, { code: 3, message: "Vector dimension 1536 does not match the dimension of the index 3072", details: [] }),
    );
    const err = await failure(client(s.url).request({ url: `${s.url}/vectors/upsert`, method: "POST", body: Buffer.from("{}") }));
    expect([err.status, err.code, err.serviceMessage]).toEqual([
      400,
      "3",
      "Vector dimension 1536 does not match the dimension of the index 3072",
    ]);
  });

  it("reads a plain-text body", async () => {
    const s = await server((_req, res) => {
      res.writeHead(403, { "Content-Type": "text/plain" });
      res.end("Forbidden: project suspended\n");
    });
    const err = await failure(client(s.url).request({ url: `${s.url}/indexes`, method: "GET" }));
    expect([err.status, err.code, err.serviceMessage]).toEqual([403, undefined, "Forbidden: project suspended"]);
  });

  it("names the status for an empty body", async () => {
    const s = await server((_req, res) => {
      res.writeHead(401);
      res.end();
    });
    const err = await failure(client(s.url).request({ url: `${s.url}/indexes`, method: "GET" }));
    expect([err.status, err.code, err.serviceMessage]).toEqual([401, undefined, "Unauthorized"]);
  });

  it("redacts the key when the service echoes it back", async () => {
    const s = await server((req, res) =>
      json(res, 401, {
        status: 401,
        error: { code: "UNAUTHENTICATED", message: `Invalid API key ${String(req.headers["api-key"])} (key=${encodeURIComponent(KEY)})` },
      }),
    );
    const err = await failure(client(s.url).request({ url: `${s.url}/indexes`, method: "GET" }));
    expect(err.serviceMessage).toBe("Invalid API key [redacted] (key=[redacted])");
    expect(err.message).not.toContain(KEY);
    expect(JSON.stringify(err)).not.toContain(KEY);
    expect(String(err.stack)).not.toContain(KEY);
  });

  it("redacts the key in a plain-text echo", async () => {
    const s = await server((req, res) => {
      res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(`bad key: ${String(req.headers["api-key"])}`);
    });
    const err = await failure(client(s.url, { retries: 0 }).request({ url: `${s.url}/indexes`, method: "GET" }));
    expect(err.serviceMessage).toBe("bad key: [redacted]");
  });

  it("a long message that ends in the key: no part of the key survives the shortening", async () => {
    const s = await server((req, res) => {
      if (req.url === "/plain") {
        res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(`${"z".repeat(995)}${String(req.headers["api-key"])}`);
      } else if (req.url === "/ok") {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end(`${"y".repeat(995)}${String(req.headers["api-key"])}`);
      } else json(res, 400, { error: { code: "INVALID", message: `${"x".repeat(990)}${String(req.headers["api-key"])}` } });
    });
    const c = client(s.url, { retries: 0 });
    for (const path of ["/json", "/plain"]) {
      const err = await failure(c.request({ url: `${s.url}${path}`, method: "GET" }));
      expect(err.serviceMessage).not.toContain(KEY.slice(0, 5));
    }
    const shape = await c.request({ url: `${s.url}/ok`, method: "GET" }).catch((e: unknown) => e);
    expect(shape).toBeInstanceOf(ResponseShapeError);
    expect((shape as Error).message).not.toContain(KEY.slice(0, 5));
  });

  it("partial echoes: a prefix of the key, and a JSON-escaped key cut by the 1,000-character shortening", async () => {
    const s = await server((req, res) => {
      const key = String(req.headers["api-key"]);
      if (req.url === "/prefix") json(res, 401, { error: { code: "UNAUTHENTICATED", message: `key ${key.slice(0, 10)}… is not valid` } });
      else {
        // every character of the key written as a \\u escape: invisible in the raw body, plain once parsed
        const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(`{"error":{"code":"INVALID","message":"${"x".repeat(985)}${escaped}"}}`);
      }
    });
    const c = client(s.url, { retries: 0 });
    const prefix = await failure(c.request({ url: `${s.url}/prefix`, method: "GET" }));
    expect(prefix.serviceMessage).toBe("key [redacted]… is not valid");
    const cut = await failure(c.request({ url: `${s.url}/escaped`, method: "GET" }));
    expect(cut.serviceMessage).toMatch(/^x{985}\[redacted\]/);
    for (let i = 0; i + 8 <= KEY.length; i++) expect(cut.serviceMessage).not.toContain(KEY.slice(i, i + 8));
  });

  it("a 2xx answer that is not JSON is a ResponseShapeError, not a crash", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`<html>proxy login ${KEY}</html>`);
    });
    const err = await client(s.url).request({ url: `${s.url}/indexes`, method: "GET" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as Error).message).toBe(
      `Unexpected answer from ${s.url}/indexes: HTTP 200 with a body that is not JSON: <html>proxy login [redacted]</html>`,
    );
    expect(s.received).toHaveLength(1);
  });
});

describe("close", () => {
  it("does not wait for a stalled request past the grace time", async () => {
    const s = await server(() => {});
    const c = new HttpClient({ apiKey: KEY, apiVersion: "2026-04", timeoutMs: 30_000, retries: 0 });
    c.trustOrigin(s.url);
    const pending = c.request({ url: `${s.url}/x`, method: "GET" }).catch((e: unknown) => e);
    while (s.received.length === 0) await new Promise((r) => setTimeout(r, 10)); // the request is at the service
    const started = Date.now();
    await c.close(100);
    expect(Date.now() - started).toBeLessThan(2000);
    const err = (await pending) as ServiceError;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err).toBeInstanceOf(ServiceError);
    expect([err.code, err.serviceMessage]).toEqual(["CLOSED", "the client was closed while waiting for the answer"]);
  });
});

describe("where the key may go", () => {
  it("refuses an origin that was never trusted, sending nothing", async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const c = new HttpClient({ apiKey: KEY, apiVersion: "2026-04", timeoutMs: 1000, retries: 0 });
    clients.push(c);
    c.trustOrigin("http://127.0.0.1:1");
    const err = await c.request({ url: `${s.url}/x`, method: "GET" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UntrustedHostError);
    expect((err as Error).message).toBe(
      `Refusing to send the API key to ${s.url}/x: it is neither the control-plane origin nor a host the control plane returned.`,
    );
    expect(s.received).toHaveLength(0);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(5000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", Date.parse("Wed, 21 Oct 2015 07:29:00 GMT"))).toBe(0);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
