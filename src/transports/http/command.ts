// `vecdb-mcp --http`: the HTTP transport as a process — stderr lines with the URL (and a generated token, once),
// SIGINT/SIGTERM: stop taking requests, let running calls finish within the grace period, then stop them.
import type { McpServer } from "@modelcontextprotocol/server";
import type { Config } from "../../config.js";
import { closeDeadlineMs, startHttpServer, type SessionSignals } from "./server.js";
import type { Logger } from "../../log.js";
import { SHUTDOWN_DEADLINE_MS, shutdownOnce } from "../../shutdown.js";
import { generatedTokenNotice } from "./token.js";

export async function runHttpTransport(args: {
  config: Config;
  newServer: (signals: SessionSignals) => McpServer;
  log: Logger;
  /** The token was generated for this run: show it once. */
  tokenGenerated: boolean;
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
      trustedProxies: config.httpTrustedProxies,
      idleTimeoutMs: config.httpIdleTimeoutS * 1000,
      maxSessions: config.httpMaxSessions,
      maxSessionsPerAddress: config.httpMaxSessionsPerAddress,
      maxConnectionsPerAddress: config.httpMaxConnectionsPerAddress,
      bodyBytesInFlight: config.httpBodyMbInFlight * 1024 * 1024,
      requestTimeoutMs: config.httpRequestTimeoutS * 1000,
      shutdownGraceMs: config.httpShutdownGraceS * 1000,
      sendTimeoutMs: config.httpSendTimeoutS * 1000,
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
  const auth = config.httpToken ? "bearer token required" : "NO TOKEN: every local user and process can call it";
  // Bound to every address (0.0.0.0, ::), a client reaches it by a real one: this machine's loopback, or its name.
  const everyAddress = ["0.0.0.0", "::", "[::]"].includes(config.httpHost);
  const url = everyAddress ? `http://${config.httpHost === "0.0.0.0" ? "127.0.0.1" : "[::1]"}:${http.port}/mcp` : http.url;
  const where = everyAddress
    ? `vecdb-mcp: it listens on every address of this machine (${config.httpHost}); from another machine use http://<this machine's name>:${http.port}/mcp\n`
    : "";
  // One write, so that the token's lines come with the listening line.
  const notice = args.tokenGenerated && config.httpToken ? generatedTokenNotice(url, config.httpToken) : "";
  process.stderr.write(`vecdb-mcp: MCP (Streamable HTTP) listening on ${url} (${auth})\n${where}${notice}`);

  // The deadline covers all of close() (grace included) and then the usual allowance for the remaining steps.
  const deadlineMs = closeDeadlineMs(config.httpShutdownGraceS * 1000) + SHUTDOWN_DEADLINE_MS;
  const shutdown = shutdownOnce(log, [() => http.close(), () => args.release()], deadlineMs);
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
