// The API key never reaches a port squatter. The local service restarts; the port an index had is
// taken meanwhile by another listener (another local user); the index moves. The MCP server still has the old host
// cached: its next call must not hand the squatter the key, and must reach the index where it now is.
import { createServer, type Server } from "node:http";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { indexHostCachedThenFreed } from "../helpers/fixed-port-service.js";
import { newDataDir } from "../helpers/local-service.js";

const apiKey = `squat-test-${"k".repeat(20)}`;
const dataDir = newDataDir();
const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a port squatter on an index's old port", () => {
  it("never receives the API key; the call reaches the index on its new port", async () => {
    const { mcp, oldPort, restart } = await indexHostCachedThenFreed("sq", dataDir, apiKey, cleanup);
    // The squatter: takes the old port, records every header it gets, answers everything (the identity check
    // included) with a 200 that proves nothing.
    const seen: Record<string, string | string[] | undefined>[] = [];
    const squatter: Server = createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ proof: "0".repeat(64), vectors: {}, namespace: "" }));
    });
    await new Promise<void>((r) => squatter.listen(oldPort, "127.0.0.1", () => r()));
    cleanup.push(() => new Promise((r) => squatter.close(r)));
    await restart();

    const after = await mcp.call("fetch_vectors", { index: "sq", ids: ["a"] });
    expect(after.isError, after.text).toBe(false);
    expect(JSON.stringify(after.structured)).toContain('"a"');
    expect(seen.length).toBeGreaterThan(0); // the squatter was contacted (the identity check)…
    for (const headers of seen) expect(headers["api-key"]).toBeUndefined(); // …but never got the key
    expect(JSON.stringify(seen)).not.toContain(apiKey.slice(0, 8));
  }, 60_000);
});
