// A tool's module is loaded on its first call (src/mcp/tool-catalog.ts): the SDK then checks the arguments and the
// result with its zod schemas as before; a module that fails to load makes an isError result (nothing run), and the
// next call tries again.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createService } from "../../src/api/service.js";
import { loadConfig } from "../../src/config.js";
import { createServer } from "../../src/mcp/server.js";
import { lazyTool, type LazyTool } from "../../src/mcp/tool-catalog.js";
import { startWithoutJit } from "../../src/mcp/zod-jit.js";
import { declareTool } from "../../src/mcp/tool-schemas.js";
import { defineTool, type AnyTool } from "../../src/tool-kit/tool.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";

const echo = defineTool({
  name: "echo_count",
  title: "Echo count",
  description: "Says how many words it was given.",
  inputSchema: { words: z.array(z.string().describe("A word.")).max(3).describe("Words.") },
  outputSchema: { count: z.number().int().describe("How many.") },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ words }) {
    return { structured: { count: words.length }, table: `${words.length} words` };
  },
});

async function connect(tools: LazyTool[]): Promise<Client> {
  const loaded = loadConfig([], { PINECONE_API_KEY: "lazy-test-key", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9" });
  if (loaded.help) throw new Error("help");
  const service = createService({ apiKey: "lazy-test-key", apiVersion: loaded.config.apiVersion, timeoutMs: 1000, retries: 0, controllerUrl: "http://127.0.0.1:9" });
  const server = createServer(loaded.config, service, { tools, log: { debug() {}, info() {}, warning() {}, error() {} } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "lazy-test", version: "0.0.0" });
  await client.connect(b);
  return client;
}

/** The echo tool behind a module loader that fails `failures` times first, counting its calls. */
function lazyEcho(failures: number): LazyTool & { loads: () => number } {
  let calls = 0;
  const module = async () => {
    calls++;
    if (calls <= failures) throw new Error("chunk missing");
    return { default: echo as AnyTool };
  };
  return Object.assign(lazyTool({ ...declareTool(echo as AnyTool), toolset: "text", inDefault: true }, module), { loads: () => calls });
}

describe("a tool loaded on its first call", () => {
  it("builds its schemas with zod's compiled parsers, though the server started without them", async () => {
    startWithoutJit(); // as src/cli.ts does before the SDK's schemas are built
    expect(z.config().jitless).toBe(true);
    let jitlessWhileLoading: boolean | undefined;
    const tool = lazyTool({ ...declareTool(echo as AnyTool), toolset: "text", inDefault: true }, async () => {
      jitlessWhileLoading = z.config().jitless;
      return { default: echo as AnyTool };
    });
    await tool.load();
    expect(jitlessWhileLoading).toBe(false);
  });

  it("is listed without loading, then checked by its zod schemas and run", async () => {
    const tool = lazyEcho(0);
    const client = await connect([tool]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo_count"]);
    expect(tool.loads()).toBe(0);
    const ok = await client.callTool({ name: "echo_count", arguments: { words: ["a", "b"] } });
    expect(ok.structuredContent).toEqual({ count: 2 });
    const bad = await client.callTool({ name: "echo_count", arguments: { words: ["a", "b", "c", "d"] } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("Input validation error: Invalid arguments for tool echo_count");
    // An unknown argument is refused from the declaration alone.
    const unknown = await client.callTool({ name: "echo_count", arguments: { word: ["a"] } });
    expect(unknown.content).toEqual([{ type: "text", text: `Unknown argument "word" — did you mean "words"? ${nothingWas("read")}` }]);
    expect(tool.loads()).toBe(1);
    await client.close();
  });

  it("answers isError when its module fails to load, and loads it on the next call", async () => {
    const tool = lazyEcho(1);
    const client = await connect([tool]);
    const failed = await client.callTool({ name: "echo_count", arguments: { words: ["a"] } });
    expect(failed).toEqual({
      content: [{ type: "text", text: `echo_count could not be loaded (chunk missing). ${nothingWas("read")}\nNext step: tell the user; the server's installation may be damaged (reinstall it).` }],
      isError: true,
    });
    const ok = await client.callTool({ name: "echo_count", arguments: { words: ["a"] } });
    expect(ok.structuredContent).toEqual({ count: 1 });
    expect(tool.loads()).toBe(2);
    await client.close();
  });
});
