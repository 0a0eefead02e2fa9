// The server's logger: every line to stderr (the base logger), and to the client as MCP log notifications once the
// client has chosen a level (logging/setLevel; in the 2026-07-28 era, per request: callLogs), with secrets redacted.
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import { LOG_LEVELS, redact, type Logger, type LogLevel } from "../log.js";

export function bridgeLogs(server: McpServer, base: Logger, secrets: () => readonly (string | undefined)[]): Logger {
  let clientLevel: LogLevel | undefined;
  server.server.setRequestHandler("logging/setLevel", async (request) => {
    clientLevel = request.params.level;
    return {};
  });
  const toClient = (level: LogLevel, message: string) => {
    if (!clientLevel || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(clientLevel) || !server.isConnected()) return;
    server.server
      .sendLoggingMessage({ level, logger: "vecdb-mcp", data: redact(message, secrets()) })
      .catch(() => {});
  };
  return {
    debug: (m) => (base.debug(m), toClient("debug", m)),
    info: (m) => (base.info(m), toClient("info", m)),
    warning: (m) => (base.warning(m), toClient("warning", m)),
    error: (m) => (base.error(m), toClient("error", m)),
  };
}

/**
 * A 2026-07-28 call's logger: that era has no logging/setLevel, a request names the level it wants in its _meta
 * (none: no log notifications), and the SDK's ctx.mcpReq.log applies it; every line still goes to `log` (stderr).
 */
export function callLogs(log: Logger, ctx: ServerContext, secrets: () => readonly (string | undefined)[]): Logger {
  const toClient = (level: LogLevel, message: string) => void ctx.mcpReq.log(level, redact(message, secrets()), "vecdb-mcp").catch(() => {});
  return {
    debug: (m) => (log.debug(m), toClient("debug", m)),
    info: (m) => (log.info(m), toClient("info", m)),
    warning: (m) => (log.warning(m), toClient("warning", m)),
    error: (m) => (log.error(m), toClient("error", m)),
  };
}
