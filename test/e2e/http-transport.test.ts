// `vecdb-mcp --http`: the built server over the SDK's Streamable HTTP transport against the local service —
// sessions, the bearer token, Host/Origin checks, malformed requests, shutdown.
import { spawn, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { CLI, serverEnv } from "../helpers/mcp-client.js";
import { connect, INIT, raw, rpcError, startHttp as startHttpProcess, type HttpServerProcess } from "../helpers/http-server.js";
import { createIndex, indexStats, randomVector, serverless } from "./support.js";

const running: HttpServerProcess[] = [];

async function startHttp(opts: { args?: string[]; env?: Record<string, string> } = {}): Promise<HttpServerProcess> {
  const p = await startHttpProcess({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, ...opts.env }, args: opts.args });
  running.push(p);
  return p;
}

let svc: RunningService;
let open: HttpServerProcess;

beforeAll(async () => {
  svc = await startServiceProcess();
  await createIndex(svc, { name: "docs", dimension: 256, metric: "cosine", spec: serverless });
  open = await startHttp({ args: ["--insecure-http-no-token"] });
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await svc?.stop();
});

describe("bound to loopback with --insecure-http-no-token", () => {
  test("one stderr line with the URL of the /mcp endpoint, saying there is no token", () => {
    expect(open.url).toBe(`http://127.0.0.1:${open.port}/mcp`);
    expect(open.stderr()).toContain(
      `vecdb-mcp: MCP (Streamable HTTP) listening on ${open.url} (NO TOKEN: every local user and process can call it)\n`,
    );
  });

  test("tools/list and list_indexes work over the SDK's StreamableHTTPClientTransport", async () => {
    const { client, transport } = await connect(open.url);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_indexes", "list_collections", "create_collection", "upsert_vectors"]));
    const r = await client.callTool({ name: "list_indexes", arguments: {} });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { indexes: { name: string; dimension: number }[] }).indexes).toMatchObject([{ name: "docs", dimension: 256 }]);
    expect((r.content as { text: string }[])[0].text).toMatch(/^1 index:\n\n\| name \|.*\n.*\n\| docs \| serverless \| 256 \| cosine \|/);
    await transport.terminateSession();
    await client.close();
  });

  test("two sessions at once: distinct ids, both work, closing one leaves the other", async () => {
    const a = await connect(open.url);
    const b = await connect(open.url);
    expect(a.transport.sessionId).toBeDefined();
    expect(b.transport.sessionId).toBeDefined();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    const [ra, rb] = await Promise.all([
      a.client.callTool({ name: "list_indexes", arguments: {} }),
      b.client.callTool({ name: "list_collections", arguments: {} }),
    ]);
    expect(ra.isError).toBeFalsy();
    expect(rb.structuredContent).toEqual({ collections: [] });

    const closedId = a.transport.sessionId!;
    await a.transport.terminateSession(); // HTTP DELETE
    await a.client.close();
    const gone = await raw(open.url, {
      headers: { "Mcp-Session-Id": closedId, "Mcp-Protocol-Version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
    });
    expect(gone.status).toBe(404);
    expect(rpcError(gone.body)).toEqual({ code: -32001, message: "Session not found: it was closed or has expired; initialize a new session" });

    const again = await b.client.callTool({ name: "list_indexes", arguments: {} });
    expect((again.structuredContent as { indexes: { name: string }[] }).indexes.map((i) => i.name)).toEqual(["docs"]);
    await b.transport.terminateSession();
    await b.client.close();
  });

  test("a bulk upsert larger than the SDK's 4 MiB default body limit lands", async () => {
    const vectors = Array.from({ length: 2000 }, (_, i) => ({ id: `v${i}`, values: randomVector(256, i + 1) }));
    expect(JSON.stringify(vectors).length).toBeGreaterThan(8 * 1024 * 1024);
    const { client, transport } = await connect(open.url);
    const r = await client.callTool({ name: "upsert_vectors", arguments: { index: "docs", vectors } }, undefined, { timeout: 120_000 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ records: 2000, upserted: 2000, failedIds: [] });
    await transport.terminateSession();
    await client.close();
  });

  test("the records of the bulk upsert are in the index", async () => {
    const res = await fetch(`${svc.controlUrl}/indexes/docs`, { headers: { "Api-Key": svc.apiKey, "X-Pinecone-API-Version": "2026-04" } });
    const { host } = (await res.json()) as { host: string };
    expect((await indexStats(svc, host)).totalVectorCount).toBe(2000);
  });

  test("localhost and 127.0.0.1 are this server's names; its own origin may call it", async () => {
    for (const host of [`127.0.0.1:${open.port}`, `localhost:${open.port}`, `[::1]:${open.port}`]) {
      const r = await raw(open.url, { headers: { Host: host, Origin: `http://${host}` }, body: INIT });
      expect(r.status, host).toBe(200);
      expect(r.headers["mcp-session-id"]).toBeDefined();
    }
  });

  test("a foreign Origin is refused with 403", async () => {
    const r = await raw(open.url, { headers: { Origin: "http://evil.example" }, body: INIT });
    expect(r.status).toBe(403);
    expect(rpcError(r.body)).toEqual({ code: -32000, message: 'Forbidden: Origin "http://evil.example" may not call this server' });
    const nullOrigin = await raw(open.url, { headers: { Origin: "null" }, body: INIT });
    expect(nullOrigin.status).toBe(403);
  });

  test("a Host header that is not this server (DNS rebinding) is refused with 403", async () => {
    for (const host of [`evil.example:${open.port}`, "127.0.0.1:1", "localhost"]) {
      const r = await raw(open.url, { headers: { Host: host }, body: INIT });
      expect(r.status, host).toBe(403);
      expect(rpcError(r.body).message).toBe(`Forbidden: Host header ${JSON.stringify(host)} is not an address of this server`);
    }
  });

  test("malformed requests get JSON-RPC errors and the server stays up", async () => {
    const badJson = await raw(open.url, { body: "{not json" });
    expect(badJson.status).toBe(400);
    expect(rpcError(badJson.body)).toEqual({ code: -32700, message: "Parse error: Invalid JSON" });

    const notRpc = await raw(open.url, { body: { hello: "world" } });
    expect(notRpc.status).toBe(400);
    expect(rpcError(notRpc.body)).toEqual({ code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" });

    const noSession = await raw(open.url, { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(noSession.status).toBe(400);
    expect(rpcError(noSession.body).code).toBe(-32000);

    const getNoSession = await raw(open.url, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(getNoSession.status).toBe(400);
    expect(rpcError(getNoSession.body)).toEqual({ code: -32000, message: "Bad Request: Mcp-Session-Id header is required" });

    const unknown = await raw(open.url, { headers: { "Mcp-Session-Id": "no-such-session" }, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(unknown.status).toBe(404);

    const elsewhere = await raw(open.url.replace(/\/mcp$/, "/other"), { body: INIT });
    expect(elsewhere.status).toBe(404);
    expect(rpcError(elsewhere.body).message).toBe("Not Found: the MCP endpoint is /mcp");

    const put = await raw(open.url, { method: "PUT", body: INIT });
    expect(put.status).toBe(405);

    // Declared over the limit: answered before any of the body is read.
    const tooLarge = await raw(open.url, { headers: { "Content-Length": String(257 * 1024 * 1024) }, body: "" });
    expect(tooLarge.status).toBe(413);
    expect(rpcError(tooLarge.body).message).toBe("Payload Too Large: Request body must not exceed 268435456 bytes");

    const { client, transport } = await connect(open.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await transport.terminateSession();
    await client.close();
  });
});

describe("with VECDB_HTTP_TOKEN", () => {
  const token = "tok-0123456789abcdef-secret";
  let guarded: HttpServerProcess;
  beforeAll(async () => {
    guarded = await startHttp({ env: { VECDB_HTTP_TOKEN: token }, args: ["--log-level", "debug"] });
  });

  test("the listening line says a token is required", () => {
    expect(guarded.stderr()).toContain(`listening on ${guarded.url} (bearer token required)\n`);
  });

  test("a missing token is refused with 401 and WWW-Authenticate: Bearer", async () => {
    const r = await raw(guarded.url, { body: INIT });
    expect(r.status).toBe(401);
    expect(r.headers["www-authenticate"]).toBe('Bearer realm="vecdb-mcp"');
    expect(rpcError(r.body)).toEqual({
      code: -32000,
      message: "Unauthorized: send the server's token (VECDB_HTTP_TOKEN) as Authorization: Bearer <token>",
    });
  });

  test("a wrong token is refused with 401, also for the SDK client", async () => {
    for (const auth of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Basic ${token}`, token]) {
      const r = await raw(guarded.url, { headers: { Authorization: auth }, body: INIT });
      expect(r.status, auth).toBe(401);
      expect(r.headers["www-authenticate"]).toBe('Bearer realm="vecdb-mcp", error="invalid_token"');
    }
    await expect(connect(guarded.url, { Authorization: "Bearer not-the-token" })).rejects.toThrow(/401|Unauthorized/);
  });

  test("the right token works; a token is required on every request of the session", async () => {
    const { client, transport } = await connect(guarded.url, { Authorization: `Bearer ${token}` });
    const r = await client.callTool({ name: "list_indexes", arguments: {} });
    expect(r.isError).toBeFalsy();
    const withoutToken = await raw(guarded.url, {
      headers: { "Mcp-Session-Id": transport.sessionId!, "Mcp-Protocol-Version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 9, method: "tools/list" },
    });
    expect(withoutToken.status).toBe(401);
    await transport.terminateSession();
    await client.close();
  });

  test("a foreign Origin is refused with 403 even with the right token", async () => {
    const r = await raw(guarded.url, { headers: { Authorization: `Bearer ${token}`, Origin: "https://evil.example" }, body: INIT });
    expect(r.status).toBe(403);
  });

  test("the token appears nowhere in the logs", () => {
    expect(guarded.stderr()).toContain("refused POST /mcp");
    expect(guarded.stderr()).not.toContain(token);
    expect(guarded.stderr()).not.toContain(token.slice(0, 12));
  });
});

describe("starting", () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI, ...args], { env: serverEnv({ PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, ...env }), encoding: "utf8", timeout: 20_000 });

  test("--insecure-http-no-token on a non-loopback address: refused, one line, exit code 2", () => {
    const r = run(["--http", "--insecure-http-no-token", "--host", "0.0.0.0", "--port", "0"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "vecdb-mcp: --insecure-http-no-token is refused on 0.0.0.0, which is not a loopback address: leave it out and a token is generated (or set VECDB_HTTP_TOKEN)\n",
    );
  });

  test("--insecure-http-no-token with VECDB_HTTP_TOKEN: refused as a contradiction", () => {
    const r = run(["--http", "--insecure-http-no-token", "--port", "0"], { VECDB_HTTP_TOKEN: "tok-0123456789abcdef-secret" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("vecdb-mcp: --insecure-http-no-token and VECDB_HTTP_TOKEN contradict each other: give one of them\n");
  });

  test("--insecure-http-no-token with --allowed-hosts or --trusted-proxies (reached through a proxy): refused, naming both", () => {
    for (const [flag, value] of [["--allowed-hosts", "mcp.example.internal"], ["--trusted-proxies", "10.0.0.5"]]) {
      const r = run(["--http", "--insecure-http-no-token", flag, value, "--port", "0"]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `vecdb-mcp: --insecure-http-no-token is refused together with ${flag}: a server reached through another name or a proxy is open to everyone who reaches that; leave --insecure-http-no-token out and a token is generated (or set VECDB_HTTP_TOKEN)\n`,
      );
    }
  });

  test("a token shorter than 16 characters is refused without echoing it", () => {
    const r = run(["--http", "--port", "0"], { VECDB_HTTP_TOKEN: "short-secret" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("vecdb-mcp: VECDB_HTTP_TOKEN must be at least 16 characters\n");
  });

  test("--port without --http is refused", () => {
    const r = run(["--port", "0"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("vecdb-mcp: --port needs --http (the HTTP transport)\n");
  });

  test("a port already in use: one line, exit code 1", async () => {
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, "--http", "--port", String(open.port)], {
        env: serverEnv({ PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }),
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
      child.once("exit", (status) => resolve({ status, stderr }));
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^vecdb-mcp: cannot listen on 127\\.0\\.0\\.1 port ${open.port}: .*EADDRINUSE.*\\n$`));
  });
});

test("the safe modes apply to every HTTP session (--read-only: no write tool is listed)", async () => {
  const p = await startHttp({ args: ["--read-only", "--insecure-http-no-token"] });
  const { client, transport } = await connect(p.url);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain("list_indexes");
  expect(names).not.toContain("upsert_vectors");
  await transport.terminateSession();
  await client.close();
  expect(await p.stop()).toBe(0);
});

describe("limits and extra names", () => {
  let p: HttpServerProcess;
  const token = "limits-token-0123456789abcdef";
  const auth = { Authorization: `Bearer ${token}` };
  beforeAll(async () => {
    p = await startHttp({ args: ["--allowed-hosts", "mcp.test.internal", "--max-sessions", "40", "--max-sessions-per-address", "1000"], env: { VECDB_HTTP_TOKEN: token } });
  });

  test("--allowed-hosts: a name the server is reached by (DNS name, proxy) is accepted in Host and Origin", async () => {
    const r = await raw(p.url, { headers: { ...auth, Host: "mcp.test.internal", Origin: "https://mcp.test.internal" }, body: INIT });
    expect(r.status).toBe(200);
    expect((await raw(p.url, { headers: { ...auth, Host: "other.test.internal" }, body: INIT })).status).toBe(403);
  });

  test("at most --max-sessions sessions: the next initialize gets 503 with Retry-After; DELETE frees a place", async () => {
    const ids: string[] = [];
    for (let i = 0; ids.length < 39; i++) {
      const batch = await Promise.all(Array.from({ length: Math.min(32, 39 - ids.length) }, () => raw(p.url, { headers: auth, body: INIT })));
      for (const r of batch) {
        expect(r.status).toBe(200);
        ids.push(r.headers["mcp-session-id"] as string);
      }
    }
    // 39 here + 1 from the test above
    const over = await raw(p.url, { headers: auth, body: INIT });
    expect(over.status).toBe(503);
    expect(over.headers["retry-after"]).toBe("5");
    expect(rpcError(over.body).message).toBe("Too many sessions (40); close one (HTTP DELETE) or retry later");
    const del = await raw(p.url, { method: "DELETE", headers: { ...auth, "Mcp-Session-Id": ids[0] } });
    expect(del.status).toBe(200);
    expect((await raw(p.url, { headers: auth, body: INIT })).status).toBe(200);
  });
});

describe("sessions end", () => {
  test("an idle session is closed after --idle-timeout-s", async () => {
    const p = await startHttp({ args: ["--idle-timeout-s", "1", "--insecure-http-no-token"] });
    const init = await raw(p.url, { body: INIT });
    const id = init.headers["mcp-session-id"] as string;
    const call = () =>
      raw(p.url, {
        headers: { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" },
        body: { jsonrpc: "2.0", method: "notifications/initialized" },
      });
    expect((await call()).status).toBe(202);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await call()).status).toBe(404);
    expect(await p.stop()).toBe(0);
  });

  test("SIGTERM with clients connected closes cleanly (exit code 0); stdout stayed empty", async () => {
    const p = await startHttp({ args: ["--insecure-http-no-token"] });
    const a = await connect(p.url);
    const b = await connect(p.url);
    await a.client.listTools();
    await b.client.listTools();
    const started = Date.now();
    expect(await p.stop()).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    await a.client.close().catch(() => {});
    await b.client.close().catch(() => {});
    expect(p.stdout()).toBe("");
  });

  test("no server wrote anything on stdout (stdout is never used in HTTP mode)", async () => {
    await open.stop();
    for (const p of running) expect(p.stdout()).toBe("");
  });
});
