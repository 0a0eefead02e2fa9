// What a call leaves behind in the HTTP server, in this process: nothing. A 2026-07-28 call's McpServer (built for that
// one request) and an old-era session's McpServer (after DELETE, or after the idle timeout) become garbage once answered — even when the call
// opened a keep-alive connection of its own that outlives it, as the server's pooled connections to the service do.
// Checked by what is still reachable after full collections (WeakRef), not by a heap figure.
import { Agent, createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startHttpServer, type HttpMcpServer } from "../../../src/transports/http/server.js";
import type { Logger } from "../../../src/log.js";
import { until } from "../../helpers/until.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const quiet = { debug() {}, info() {}, warning() {}, error() {} } as unknown as Logger;
const MODERN = "2026-07-28";

let upstream: Server;
let http: HttpMcpServer;
/** Kept open between calls, like the server's pool of connections to the service. */
const pool = new Agent({ keepAlive: true, maxSockets: 1 });
const built: WeakRef<McpServer>[] = [];

/** A GET to the upstream server through the keep-alive pool: the call opens (or reuses) a connection that outlives it. */
function reachUpstream(): Promise<string> {
  const { port } = upstream.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get({ host: "127.0.0.1", port, agent: pool }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve(body));
    }).on("error", reject);
  });
}

/** An HTTP server whose every session (or new-era request) gets a fresh McpServer with the one tool, tracked in `built`. */
function serve(idleTimeoutMs: number): Promise<HttpMcpServer> {
  return startHttpServer({
    host: "127.0.0.1",
    port: 0,
    idleTimeoutMs,
    log: quiet,
    newServer() {
      const server = new McpServer({ name: "memory-test", version: "1" }, { capabilities: { tools: {} } });
      server.registerTool("reach_upstream", { description: "GETs the upstream server" }, async () => ({
        content: [{ type: "text", text: await reachUpstream() }],
      }));
      built.push(new WeakRef(server));
      return server;
    },
  });
}

beforeAll(async () => {
  upstream = createServer((_req, res) => res.end("upstream says hi"));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
  http = await serve(60_000);
});

afterAll(async () => {
  pool.destroy();
  await http?.close();
  await new Promise<void>((r) => upstream.close(() => r()));
});

async function post(body: object, headers: Record<string, string> = {}, url = http.url) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, session: res.headers.get("mcp-session-id"), text: await res.text() };
}

const modernCall = (id: number) =>
  post(
    {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "reach_upstream",
        arguments: {},
        _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} },
      },
    },
    { "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "reach_upstream" },
  );

/** Collects garbage until none of `refs` is reachable (or fails after a while). */
async function collected(refs: WeakRef<McpServer>[], what: string) {
  await until(() => {
    gc();
    return refs.every((r) => r.deref() === undefined);
  }, what, 5000);
}

test("a 2026-07-28 call's server is garbage once answered, though the connection it opened stays in the pool", async () => {
  const before = built.length;
  for (let id = 1; id <= 3; id++) {
    const r = await modernCall(id);
    expect(r.status).toBe(200);
    expect(r.text).toContain("upstream says hi");
  }
  const servers = built.slice(before);
  expect(servers).toHaveLength(3);
  expect(Object.values(pool.freeSockets).flat()).toHaveLength(1); // the connection the first call opened, still open
  await collected(servers, "the three calls' servers to be collected");
});

test("an old-era session's server is garbage once the session is closed (DELETE)", async () => {
  const before = built.length;
  const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  expect(init.status).toBe(200);
  const headers = { "Mcp-Session-Id": init.session!, "MCP-Protocol-Version": "2025-06-18" };
  expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  const call = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "reach_upstream", arguments: {} } }, headers);
  expect(call.text).toContain("upstream says hi");
  const deleted = await fetch(http.url, { method: "DELETE", headers });
  expect(deleted.status).toBe(200);
  expect(http.sessionCount()).toBe(0);
  expect(Object.values(pool.freeSockets).flat()).toHaveLength(1);
  await collected(built.slice(before), "the closed session's server to be collected");
});

test("an abandoned old-era session's server is garbage once the idle timeout closed it", async () => {
  const idle = await serve(300);
  try {
    const before = built.length;
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }, {}, idle.url);
    const headers = { "Mcp-Session-Id": init.session!, "MCP-Protocol-Version": "2025-06-18" };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers, idle.url);
    const call = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "reach_upstream", arguments: {} } }, headers, idle.url);
    expect(call.text).toContain("upstream says hi");
    // No DELETE: the client went away.
    await until(() => idle.sessionCount() === 0, "the idle timeout to close the session");
    await collected(built.slice(before), "the abandoned session's server to be collected");
  } finally {
    await idle.close();
  }
});
