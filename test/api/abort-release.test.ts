// A long-lived signal (the server's stop, the HTTP client's close, a caller's) must hold nothing per call once the
// call has ended: on Node 20, AbortSignal.any leaves one dependant per call on each source for the source's whole
// life. Counted here: the listeners on the source, and Node's own list of dependants where Node keeps one.
import { getEventListeners, getMaxListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { HttpClient } from "../../src/api/http.js";
import { createService } from "../../src/api/service.js";
import { loadConfig } from "../../src/config.js";
import { createServer } from "../../src/mcp/server.js";
import { lazyTool } from "../../src/mcp/tool-catalog.js";
import { declareTool } from "../../src/mcp/tool-schemas.js";
import { defineTool, type AnyTool } from "../../src/tool-kit/tool.js";
import { json, startFakeServer, type FakeServer } from "./fake-server.js";

/** What a signal holds for calls made from it: listeners plus Node's internal dependants (0 where Node keeps none). */
function heldBy(signal: AbortSignal): number {
  const symbol = Object.getOwnPropertySymbols(signal).find((s) => s.description === "kDependantSignals");
  const dependants = symbol === undefined ? undefined : (signal as unknown as Record<symbol, Set<unknown> | undefined>)[symbol];
  return getEventListeners(signal, "abort").length + (dependants?.size ?? 0);
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("a long-lived abort signal", () => {
  it("holds nothing after 1,000 HTTP requests made with it, nor does the client's own close signal", async () => {
    const server: FakeServer = await startFakeServer((_req, res) => json(res, 200, { ok: true }));
    cleanups.push(() => server.close());
    const client = new HttpClient({ apiKey: "abort-test-key-0123456789", apiVersion: "2026-04", timeoutMs: 5000, retries: 0, backoffBaseMs: 1, backoffMaxMs: 1 });
    cleanups.push(() => client.close());
    client.trustOrigin(server.url);
    const caller = new AbortController();
    const closing = (client as unknown as { closing: AbortController }).closing.signal;
    for (let i = 0; i < 1000; i++) await client.request({ url: `${server.url}/x`, method: "GET", signal: caller.signal });
    expect(heldBy(caller.signal)).toBe(0);
    expect(heldBy(closing)).toBe(0);
    expect(getMaxListeners(caller.signal)).toBeGreaterThan(64); // and still readable: src/ingest/upsert.ts asks it
  });

  it("holds nothing after 1,000 tool calls under a session's stop signal, and still stops a call in flight", async () => {
    let release: () => void = () => {};
    const tool = defineTool({
      name: "echo_words",
      title: "Echo words",
      description: "Counts words; `wait` waits until stopped.",
      inputSchema: { words: z.array(z.string().describe("A word.")).describe("Words."), wait: z.boolean().optional().describe("Wait.") },
      outputSchema: { count: z.number().int().describe("How many.") },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run({ words, wait }, ctx) {
        if (wait) {
          await new Promise<void>((resolve) => {
            ctx.signal.addEventListener("abort", () => resolve(), { once: true });
            release();
          });
          return { structured: { count: -1 }, table: "stopped" };
        }
        return { structured: { count: words.length }, table: `${words.length} words` };
      },
    });
    const loaded = loadConfig([], { PINECONE_API_KEY: "abort-test-key", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9" });
    if (loaded.help) throw new Error("help");
    const service = createService({ apiKey: "abort-test-key", apiVersion: loaded.config.apiVersion, timeoutMs: 1000, retries: 0, controllerUrl: "http://127.0.0.1:9" });
    const stop = new AbortController();
    const server = createServer(loaded.config, service, {
      tools: [lazyTool({ ...declareTool(tool as AnyTool), toolset: "text", inDefault: true }, async () => ({ default: tool as AnyTool }))],
      log: { debug() {}, info() {}, warning() {}, error() {} },
      stop: stop.signal,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "abort-test", version: "0.0.0" });
    await client.connect(b);
    cleanups.push(() => client.close());
    for (let i = 0; i < 1000; i++) {
      const r = await client.callTool({ name: "echo_words", arguments: { words: ["a"] } });
      expect(r.structuredContent, JSON.stringify(r.content)).toEqual({ count: 1 });
    }
    expect(heldBy(stop.signal)).toBe(0);

    const started = new Promise<void>((resolve) => (release = resolve));
    const waiting = client.callTool({ name: "echo_words", arguments: { words: [], wait: true } });
    await started;
    expect(heldBy(stop.signal)).toBe(1);
    stop.abort(new Error("stopping"));
    const r = await waiting;
    expect(r.structuredContent).toEqual({ count: -1 });
    expect(heldBy(stop.signal)).toBe(0);
  });
});
