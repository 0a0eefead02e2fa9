// The API key never reaches a port squatter. The local service restarts; the port an index had is
// taken meanwhile by another listener (another local user); the index moves. The MCP server still has the old host
// cached: its next call must not hand the squatter the key, and must reach the index where it now is.
import { createServer, type Server } from "node:http";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, serveOnPort } from "../helpers/fixed-port-service.js";
import { newDataDir } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { api, createIndex, serverless } from "./support.js";

const apiKey = `squat-test-${"k".repeat(20)}`;
const dataDir = newDataDir();
const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a port squatter on an index's old port", () => {
  it("never receives the API key; the call reaches the index on its new port", async () => {
    const controlPort = await freePort();
    const svc = { controlUrl: `http://127.0.0.1:${controlPort}`, apiKey };
    let service = await serveOnPort(controlPort, dataDir, apiKey);
    cleanup.push(() => service.stop());
    const { host } = await createIndex({ ...svc, dataDir, child: service.child } as never, { name: "sq", dimension: 2, spec: serverless });
    const oldPort = Number(host.split(":").pop());
    expect((await api(svc, "POST", `http://${host}/vectors/upsert`, { vectors: [{ id: "a", values: [1, 2] }] })).status).toBe(200);

    const mcp: McpSession = await startMcp({ env: { PINECONE_API_KEY: apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
    cleanup.push(() => mcp.close());
    const before = await mcp.call("fetch_vectors", { index: "sq", ids: ["a"] });
    expect(before.isError).toBe(false); // the host is cached now

    await service.stop();
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
    service = await serveOnPort(controlPort, dataDir, apiKey);

    const after = await mcp.call("fetch_vectors", { index: "sq", ids: ["a"] });
    expect(after.isError, after.text).toBe(false);
    expect(JSON.stringify(after.structured)).toContain('"a"');
    expect(seen.length).toBeGreaterThan(0); // the squatter was contacted (the identity check)…
    for (const headers of seen) expect(headers["api-key"]).toBeUndefined(); // …but never got the key
    expect(JSON.stringify(seen)).not.toContain(apiKey.slice(0, 8));
  }, 60_000);
});
