// Both protocol eras on one HTTP endpoint: a 2025-era client gets a session (initialize, Mcp-Session-Id) as before; a
// 2026-07-28 client's requests each stand alone (no session), with the new era's small print: server/discover,
// resultType, cache hints, the Mcp-Method / Mcp-Name headers checked against the body, no batches, readable ids kept.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { connect, INIT, raw, sseMessages, startHttp, type HttpServerProcess } from "../helpers/http-server.js";
import { connectModernHttp, MODERN, modernRequest as modernRequestOf, type ModernSession } from "../helpers/mcp-modern.js";
import { api, createIndex, dataUrl, serverless } from "./support.js";

let svc: RunningService;
let http: HttpServerProcess;
let modern: ModernSession;
let old: Awaited<ReturnType<typeof connect>>;
const auth = () => ({ Authorization: `Bearer ${http.generatedToken}` });

const modernRequest = (id: number | string, method: string, params: Record<string, unknown> = {}, name?: string) =>
  modernRequestOf(id, method, params, { token: http.generatedToken, name });

const withoutServerInfo = <T extends { _meta?: Record<string, unknown> }>(result: T): T => {
  const { _meta, ...rest } = result;
  const { "io.modelcontextprotocol/serverInfo": _info, ...meta } = _meta ?? {};
  return (Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest) as T;
};

beforeAll(async () => {
  svc = await startServiceProcess();
  const { host } = await createIndex(svc, { name: "eras", dimension: 2, spec: serverless });
  await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { namespace: "n", vectors: [{ id: "a", values: [1, 0] }, { id: "b", values: [0, 1] }] });
  http = await startHttp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
  old = await connect(http.url, auth());
  modern = await connectModernHttp(http.url, auth());
});
afterAll(async () => {
  await old?.client.close().catch(() => {});
  await modern?.close();
  await http?.stop();
  await svc?.stop();
});

describe("one endpoint, both eras", () => {
  test("the new-era client needs no session; the old one still gets one", () => {
    expect(modern.client.getProtocolEra()).toBe("modern");
    expect(old.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([
    ["list_indexes", {}],
    ["describe_index", { index: "eras" }],
    ["query_vectors", { index: "eras", namespace: "n", vector: [1, 0], topK: 2 }],
    ["describe_index", { index: "missing" }],
  ])("%s gives the same result in both eras (%j)", async (name, args) => {
    const before = await old.client.callTool({ name, arguments: args });
    const after = await modern.call(name, args);
    expect(withoutServerInfo(after)).toEqual(before);
  });
});

describe("the tool selection of a request (headers or URL), in the new era per request", () => {
  test("X-MCP-Toolsets narrows the list as it narrows an old-era session's", async () => {
    const narrowed = await connect(http.url, { ...auth(), "X-MCP-Toolsets": "backups" });
    try {
      const before = (await narrowed.client.listTools()).tools.map((t) => t.name);
      const r = modernRequest(30, "tools/list");
      const [answer] = sseMessages((await raw(http.url, { headers: { ...r.headers, "X-MCP-Toolsets": "backups" }, body: r.body })).body);
      expect(answer.result.tools.map((t: { name: string }) => t.name)).toEqual(before);
      expect(before.length).toBeLessThan((await old.client.listTools()).tools.length); // narrowed indeed
    } finally {
      await narrowed.client.close();
    }
  });

  test("an unknown toolset: 400, -32602 naming it, with the request's id", async () => {
    const r = modernRequest(31, "tools/list");
    const res = await raw(http.url, { headers: { ...r.headers, "X-MCP-Toolsets": "no-such-set" }, body: r.body });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ id: 31, error: { code: -32602, message: expect.stringContaining("no-such-set") } });
  });
});

describe("the 2026-07-28 small print, on the wire", () => {
  test("a missing resource: -32002 in an old-era session, -32602 in the new era", async () => {
    const uri = "vecdb://indexes/missing";
    await expect(old.client.readResource({ uri })).rejects.toMatchObject({ code: -32002, data: { uri } });
    await expect(modern.client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
  });

  test("server/discover: the version, the capabilities, resultType and the cache hints", async () => {
    const r = modernRequest(1, "server/discover");
    const res = await raw(http.url, r);
    expect(res.status).toBe(200);
    expect(res.headers["mcp-session-id"]).toBeUndefined();
    const [answer] = sseMessages(res.body);
    expect(answer.id).toBe(1);
    expect(answer.result).toMatchObject({ resultType: "complete", supportedVersions: expect.arrayContaining([MODERN]), capabilities: { tools: {} } });
    expect(answer.result.ttlMs).toEqual(expect.any(Number));
    expect(answer.result.cacheScope).toEqual(expect.any(String));
  });

  test("tools/list carries resultType and cache hints; tools/call its resultType", async () => {
    const [list] = sseMessages((await raw(http.url, modernRequest(2, "tools/list"))).body);
    expect(list.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: expect.any(String) });
    const call = modernRequest(3, "tools/call", { name: "list_indexes", arguments: {} }, "list_indexes");
    const [answer] = sseMessages((await raw(http.url, call)).body);
    expect(answer.result.resultType).toBe("complete");
    expect(answer.result.isError).not.toBe(true);
    expect(answer.result.content[0].text).toContain("eras");
  });

  test("Mcp-Name that disagrees with the body: 400, -32020, the request's id; nothing runs", async () => {
    const call = modernRequest("x1", "tools/call", { name: "list_indexes", arguments: {} }, "delete_index");
    const res = await raw(http.url, call);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ id: "x1", error: { code: -32020 } });
  });

  test("no Mcp-Method header: 400, -32020", async () => {
    const { headers, body } = modernRequest(4, "tools/list");
    const { "Mcp-Method": _, ...without } = headers;
    const res = await raw(http.url, { headers: without, body });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ id: 4, error: { code: -32020 } });
  });

  test("a version the server does not speak: -32022 naming the ones it does", async () => {
    const r = modernRequest(5, "tools/list");
    (r.body.params._meta as Record<string, unknown>)["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
    const res = await raw(http.url, { headers: { ...r.headers, "MCP-Protocol-Version": "2099-01-01" }, body: r.body });
    expect(JSON.parse(res.body)).toMatchObject({ id: 5, error: { code: -32022, data: { supported: expect.arrayContaining([MODERN]) } } });
  });

  test("a batch: -32600, the era has none", async () => {
    const a = modernRequest(6, "tools/list");
    const res = await raw(http.url, { headers: a.headers, body: [a.body, modernRequest(7, "tools/list").body] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toEqual({ code: -32600, message: "Invalid Request: protocol 2026-07-28 has no JSON-RPC batches; send each request in its own POST" });
  });

  test("an old-era request without a session: its id comes back with the error", async () => {
    const res = await raw(http.url, { headers: auth(), body: { jsonrpc: "2.0", id: 42, method: "tools/list", params: {} } });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ id: 42, error: { code: -32000, message: expect.stringContaining("Mcp-Session-Id header is required") } });
  });

  test("an old-era initialize still opens a session", async () => {
    const res = await raw(http.url, { headers: auth(), body: INIT });
    expect(res.status).toBe(200);
    expect(res.headers["mcp-session-id"]).toEqual(expect.any(String));
  });
});
