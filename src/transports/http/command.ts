// `vecdb-mcp --http`: the HTTP transport as a process — one stderr line with the URL, SIGINT/SIGTERM close cleanly.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Config } from "../../config.js";
import { startHttpServer } from "./server.js";
import type { Logger } from "../../log.js";
import { shutdownOnce } from "../../shutdown.js";

export async function runHttpTransport(args: {
  config: Config;
  newServer: () => McpServer;
  log: Logger;
  /** Closes what the sessions share (the service, the embedded local service). */
  release: () => Promise<void>;
}): Promise<void> {
  const { config, log } = args;
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer({
      host: config.httpHost,
      port: config.httpPort,
      token: config.httpToken,
      allowedHosts: config.httpAllowedHosts,
      idleTimeoutMs: config.httpIdleTimeoutS * 1000,
      newServer: args.newServer,
      log,
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
    process.stderr.write(`vecdb-mcp: cannot listen on ${config.httpHost} port ${config.httpPort}: ${reason}\n`);
    await args.release().catch(() => {});
    process.exitCode = 1;
    return;
  }
  const auth = config.httpToken ? "bearer token required" : "no token: loopback only";
  process.stderr.write(`vecdb-mcp: MCP (Streamable HTTP) listening on ${http.url} (${auth})\n`);

  const shutdown = shutdownOnce(log, [() => http.close(), () => args.release()]);
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
