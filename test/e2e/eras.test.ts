// Both protocol eras over stdio: a 2025-era client (SDK v1, initialize) and a 2026-07-28 client (SDK v2, server/discover
// and per-request _meta) see the same tools and get the same results from the same server program.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { CLI, serverEnv, startMcp, type McpSession } from "../helpers/mcp-client.js";
import { until } from "../helpers/until.js";
import { MODERN, startModernStdio, type ModernSession } from "../helpers/mcp-modern.js";
import { api, createIndex, dataUrl, serverless } from "./support.js";

let svc: RunningService;

/** A result without the server's name and version, which the new era stamps on every result's _meta. */
function withoutServerInfo<T extends { _meta?: Record<string, unknown> }>(result: T): T {
  const { _meta, ...rest } = result;
  const { "io.modelcontextprotocol/serverInfo": _info, ...meta } = _meta ?? {};
  return (Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest) as T;
}
let old: McpSession;
let modern: ModernSession;

beforeAll(async () => {
  svc = await startServiceProcess();
  const env = { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl };
  const { host } = await createIndex(svc, { name: "eras", dimension: 2, spec: serverless });
  await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { namespace: "n", vectors: [{ id: "a", values: [1, 0], metadata: { k: 1 } }, { id: "b", values: [0, 1] }] });
  [old, modern] = await Promise.all([startMcp({ env }), startModernStdio({ env })]);
});
afterAll(async () => {
  await Promise.all([old?.close(), modern?.close()]);
  await svc?.stop();
});

describe("over stdio", () => {
  test("the new-era client connects by server/discover, without initialize", () => {
    expect(modern.client.getProtocolEra()).toBe("modern");
    expect(modern.client.getNegotiatedProtocolVersion?.() ?? MODERN).toBe(MODERN);
    expect(modern.client.getServerCapabilities()?.tools).toBeDefined();
  });

  test("both eras list the same tools", async () => {
    const listed = (await modern.client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(old.tools.map((t) => t.name));
    // Tasks left the core protocol in 2026-07-28: its tools carry no `execution.taskSupport`; all else is the same.
    expect(old.tools.every((t) => t.execution?.taskSupport === "forbidden")).toBe(true);
    expect(listed).toEqual(old.tools.map(({ execution: _, ...t }) => t));
  });

  test.each([
    ["list_indexes", {}],
    ["describe_index", { index: "eras" }],
    ["fetch_vectors", { index: "eras", namespace: "n", ids: ["a", "b"] }],
    ["query_vectors", { index: "eras", namespace: "n", vector: [1, 0], topK: 2 }],
    ["describe_index", { index: "missing" }],
    ["query_vectors", { index: "eras", topK: 0, vector: [1, 0] }],
  ])("%s gives the same result in both eras (%j)", async (name, args) => {
    const before = await old.call(name, args);
    const after = await modern.call(name, args);
    expect(after._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "vecdb-mcp" });
    expect(withoutServerInfo(after)).toEqual(before.result);
  });

  test("a missing resource: -32002 in the old era, -32602 in the new, naming no address of the service", async () => {
    const uri = "vecdb://indexes/missing";
    const before = await old.client.readResource({ uri }).then(() => undefined, (e: { code: number; message: string; data: unknown }) => e);
    const after = await modern.client.readResource({ uri }).then(() => undefined, (e: { code: number; message: string; data: unknown }) => e);
    expect(before).toMatchObject({ code: -32002, data: { uri } });
    expect(after).toMatchObject({ code: -32602, data: { uri } });
    for (const err of [before, after]) {
      expect(err?.message).toContain('Index "missing" not found. resources/list (or list_indexes) shows the indexes there are.');
      expect(err?.message).not.toMatch(/127\.0\.0\.1|localhost|http:/);
    }
    const unknown = await modern.client.readResource({ uri: "vecdb://nothing-here" }).then(() => undefined, (e: { code: number }) => e);
    expect(unknown).toMatchObject({ code: -32602, data: { uri: "vecdb://nothing-here" } });
  });

  test("an unknown tool: a JSON-RPC error -32602 in both eras, naming it", async () => {
    await expect(old.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(modern.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("no_such_tool") });
  });
});

describe("logging in the new era: per request, only when its _meta names a level", () => {
  test("a call with a level gets the server's lines at or above it; the same call without one gets none", async () => {
    const child = spawn(process.execPath, [CLI, "--toolsets", "all"], {
      env: serverEnv({ PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }),
      stdio: ["pipe", "pipe", "ignore"],
    });
    const lines: any[] = [];
    let buffered = "";
    child.stdout.on("data", (c: Buffer) => {
      buffered += c.toString("utf8");
      for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
        lines.push(JSON.parse(buffered.slice(0, i)));
        buffered = buffered.slice(i + 1);
      }
    });
    const meta = (level?: string) => ({
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
      ...(level && { "io.modelcontextprotocol/logLevel": level }),
    });
    const call = (id: number, level?: string) =>
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "describe_index", arguments: { index: "missing" }, _meta: meta(level) } }) + "\n");
    try {
      call(1);
      await until(() => lines.some((l) => l.id === 1), "the call without a level answered");
      call(2, "info");
      await until(() => lines.some((l) => l.id === 2), "the call with a level answered");
      const logs = lines.filter((l) => l.method === "notifications/message");
      expect(logs).toHaveLength(1);
      expect(logs[0].params).toMatchObject({ level: "info", logger: "vecdb-mcp", data: expect.stringMatching(/^describe_index → isError: describe_index failed — the service answered HTTP 404/) });
      expect(lines.indexOf(logs[0])).toBeGreaterThan(lines.findIndex((l) => l.id === 1));
    } finally {
      child.kill();
    }
  });
});
