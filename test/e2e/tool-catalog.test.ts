// The bundle lists its tools from declarations written at build time (src/mcp/tool-catalog.ts) and loads a tool's
// module on its first call. Here every module of the registry is loaded eagerly, registered with the SDK the way the
// server registered them before it listed them lazily, and what the SDK then lists (with our JSON Schemas) must be,
// byte for byte, what the built server answers to tools/list in every safe mode; the declarations the bundle carries
// must be what the modules declare (the safe modes' flags too); and no tool module may load before its first call.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { beforeAll, describe, expect, test } from "vitest";
import { BUNDLE, ensureBundle, ROOT } from "../helpers/bundle.js";
import { loadConfig } from "../../src/config.js";
import { toolRefusal } from "../../src/mcp/access.js";
import { serverTools } from "../../src/mcp/tool-selection.js";
import { requestHandlers } from "../../src/mcp/sdk-internals.js";
import { declareTool, toolJsonSchemas } from "../../src/mcp/tool-schemas.js";
import { outputShapeOf, resultSizeChars, type AnyTool } from "../../src/tool-kit/tool.js";
import { toolModules } from "../../tools/index.js";

ensureBundle();

const ENV = { PATH: process.env.PATH ?? "", PINECONE_API_KEY: "catalog-test-key", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9" };
const ALL = ["--toolsets", "all"];
const MODES = [
  [],
  ["--read-only"],
  ALL,
  [...ALL, "--max-result-tokens", "40000"],
  [...ALL, "--read-only"],
  [...ALL, "--allow-destructive"],
  [...ALL, "--indexes", "a,b"],
  [...ALL, "--allow-destructive", "--indexes", "a"],
  [...ALL, "--read-only", "--allow-destructive"],
  ["--toolsets", "backups,text", "--tools", "query_vectors", "--exclude-tools", "search_indexes"],
];

let modules: AnyTool[];
beforeAll(async () => {
  modules = await Promise.all(toolModules.map(async ({ load }) => (await load()).default));
});

type Handler = (request: unknown, extra: unknown) => Promise<{ tools: Record<string, unknown>[] }>;

/** tools/list as the SDK answers it for these modules registered eagerly, each schema replaced by ours. */
async function listedEagerly(tools: readonly AnyTool[], maxResultTokens: number): Promise<unknown[]> {
  const server = new McpServer({ name: "eager", version: "0.0.0" });
  for (const t of tools) {
    const annotations = { title: t.title, ...t.annotations };
    const _meta = t.budgetedResult ? { "anthropic/maxResultSizeChars": resultSizeChars(maxResultTokens) } : undefined;
    server.registerTool(t.name, { title: t.title, description: t.description, inputSchema: t.inputSchema, outputSchema: outputShapeOf(t), annotations, _meta }, async () => ({ content: [] }));
  }
  const handler = requestHandlers(server)!.get("tools/list") as unknown as Handler;
  const { tools: listed } = await handler({ method: "tools/list", params: {} }, {});
  return listed.map((entry, i) => {
    const ours = toolJsonSchemas(tools[i]);
    expect(entry.name).toBe(tools[i].name);
    expect(entry.outputSchema).toBeDefined();
    return { ...entry, inputSchema: ours.inputSchema, outputSchema: ours.outputSchema }; // the keys keep the SDK's order
  });
}

/**
 * The raw line the built server writes for tools/list, after initialize; then `calls` (tools/call, ids from 3), each
 * answered before stdin closes (their raw lines, by id); and what the server wrote on stderr.
 */
function rawSession(args: string[], env: Record<string, string> = {}, calls: object[] = []): Promise<{ list: string; answers: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE, ...args], { env: { ...ENV, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let buffered = "";
    let list = "";
    let stderr = "";
    const answers: string[] = [];
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const id = (JSON.parse(line) as { id?: number }).id;
        if (id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
        } else if (id === 2) {
          list = line;
          calls.forEach((params, i) => send({ jsonrpc: "2.0", id: 3 + i, method: "tools/call", params }));
        } else if (id !== undefined && id >= 3) {
          answers[id - 3] = line;
        }
        if (list && answers.filter(Boolean).length === calls.length) child.stdin.end();
      }
    });
    child.on("error", reject);
    child.on("exit", () => (list ? resolve({ list, answers, stderr }) : reject(new Error(`no tools/list answer; stderr: ${stderr}`))));
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
  });
}

describe("the lazy tool registry", () => {
  test("names each module by the tool it defines, once", () => {
    expect(toolModules.map(({ name }) => name)).toEqual(modules.map((t) => t.name));
    expect(new Set(modules.map((t) => t.name)).size).toBe(modules.length);
  });

  test("the declarations the bundle carries are what the modules declare", () => {
    const carried = JSON.parse(readFileSync(join(ROOT, "dist", "bundle", "tool-catalog.json"), "utf8")) as unknown;
    expect(carried).toEqual(JSON.parse(JSON.stringify(modules.map(declareTool))));
  });

  test.each(MODES.map((args) => ({ args, mode: args.join(" ") || "(no flags)" })))(
    "tools/list of the built server is byte for byte what the modules declare: $mode",
    async ({ args }) => {
      const loaded = loadConfig(args, ENV);
      if (loaded.help) throw new Error("help");
      const selected = serverTools(loaded.config);
      const offered = modules.filter((t) => toolRefusal(t, loaded.config) === undefined && selected.has(t.name));
      expect(offered.length).toBeGreaterThanOrEqual(4);
      const expected = await listedEagerly(offered, loaded.config.maxResultTokens);
      const { list } = await rawSession(args);
      // Tool by tool first, for a readable difference; then the whole line as written.
      const listed = (JSON.parse(list) as { result: { tools: { name: string }[] } }).result.tools;
      expect(listed.map((t) => t.name)).toEqual(offered.map((t) => t.name));
      listed.forEach((t, i) => expect(JSON.stringify(t), t.name).toBe(JSON.stringify(expected[i])));
      expect(list).toBe(JSON.stringify({ result: { tools: expected }, jsonrpc: "2.0", id: 2 }));
    },
  );

  test("no tool module is loaded before its tool is called", async () => {
    // NODE_DEBUG=esm makes Node name on stderr every module file it loads; a tool's chunk is named after its file.
    // The calls are refused by the tool's zod schema (topK 0), which comes with its module: only that one is loaded,
    // once, for two first calls at once; and a call refused before (an unknown argument) loads nothing.
    const query = { name: "query_vectors", arguments: { index: "a", topK: 0, vector: [1] } };
    const unknown = { name: "fetch_vectors", arguments: { index: "a", ids: ["1"], filter: {} } };
    const { stderr, answers } = await rawSession(ALL, { NODE_DEBUG: "esm" }, [query, query, unknown]);
    for (const answer of answers.slice(0, 2)) {
      expect(JSON.parse(answer).result).toEqual({
        content: [{ type: "text", text: expect.stringContaining("Invalid arguments for tool query_vectors: topK is 0: must be a whole number") }],
        isError: true,
      });
    }
    expect(JSON.parse(answers[2]).result.content[0].text).toMatch(/^Unknown argument "filter" — fetch_vectors takes/);
    expect(stderr).toMatch(/bundle\/main-/);
    const toolChunks = [...stderr.matchAll(/bundle\/([a-z_]+)-[A-Z0-9]+\.js/g)].map(([, name]) => name).filter((name) => toolModules.some((t) => t.name === name));
    expect([...new Set(toolChunks)]).toEqual(["query_vectors"]);
  });
});
