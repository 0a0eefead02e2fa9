// The local service run by hand on a fixed control port (`serve --port N`), so that it can be stopped and started
// again on the same port while its index ports move: what a port squatter or a relay waits for.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import { cliPath } from "./local-service.js";
import { startMcp, type McpSession } from "./mcp-client.js";
import { api, createIndex, serverless } from "../e2e/support.js";

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export function serveOnPort(port: number, dataDir: string, apiKey: string): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [cliPath, "serve", "--port", String(port), "--data-dir", dataDir], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, VECDB_LOCAL_API_KEY: apiKey },
  });
  let err = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 15_000);
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      if (err.includes("listening on")) {
        clearTimeout(timer);
        resolve({
          child,
          stop: () => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once("exit", () => r()), child.kill("SIGTERM")))),
        });
      }
    });
  });
}

/**
 * The scene a squatter or a relay waits for: the service on a fixed control port with a 2-d index `name` holding
 * record "a", an MCP session that has read it (so it caches the index's host), then the service stopped — the index's
 * old port is free. `restart()` starts the service again on the same control port (the index gets a new port).
 * Everything started is stopped by the functions pushed on `cleanup`.
 */
export async function indexHostCachedThenFreed(name: string, dataDir: string, apiKey: string, cleanup: (() => unknown)[]) {
  const controlPort = await freePort();
  const svc = { controlUrl: `http://127.0.0.1:${controlPort}`, apiKey };
  let service = await serveOnPort(controlPort, dataDir, apiKey);
  cleanup.push(() => service.stop());
  const { host } = await createIndex({ ...svc, dataDir, child: service.child } as never, { name, dimension: 2, spec: serverless });
  const oldPort = Number(host.split(":").pop());
  const upserted = await api(svc, "POST", `http://${host}/vectors/upsert`, { vectors: [{ id: "a", values: [1, 2] }] });
  if (upserted.status !== 200) throw new Error(`upsert into ${name}: ${upserted.status}`);

  const mcp: McpSession = await startMcp({ env: { PINECONE_API_KEY: apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
  cleanup.push(() => mcp.close());
  const before = await mcp.call("fetch_vectors", { index: name, ids: ["a"] });
  if (before.isError) throw new Error(`the first fetch from ${name}: ${before.text}`); // the host is cached now
  await service.stop();
  return {
    svc,
    mcp,
    oldPort,
    restart: async () => {
      service = await serveOnPort(controlPort, dataDir, apiKey);
    },
  };
}
