// The server's logger: every line to stderr (the base logger), and to the client as MCP log notifications once the
// client has chosen a level (logging/setLevel), with secrets redacted.
import type { McpServer } from "@modelcontextprotocol/server";
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
