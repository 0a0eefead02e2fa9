// createServer: an McpServer with every tool of the registry. The MCP plumbing lives here and only here:
// tool results → content + structuredContent, errors → isError text, progress tokens, cancellation, logging.
import { existsSync, readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  SetLevelRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Service } from "./api/service.js";
import type { Config } from "./config.js";
import { errorText } from "./errors.js";
import { createLogger, LOG_LEVELS, redact, type Logger, type LogLevel } from "./log.js";
import { trackRoots } from "./roots.js";
import type { AnyTool, ToolContext } from "./tool.js";
import { tools as registry } from "../tools/index.js";

export const INSTRUCTIONS = `Administer and fill a vector database (Pinecone API).
Start with list_indexes (and list_collections) to discover what exists: names, dimensions, hosts, states.
Then write: upsert_vectors adds or overwrites records in an index (checked against the index first; nothing is written if a record is invalid), create_collection snapshots a pod-based index.
Every result is a markdown table plus the same facts as structuredContent. Errors say what was wrong and the next step.`;

function packageVersion(): string {
  // src/server.ts (tsx) and dist/src/server.js sit at different depths below package.json.
  for (const rel of ["../package.json", "../../package.json"]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) {
      const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "vecdb-mcp" && pkg.version) return pkg.version;
    }
  }
  return "0.0.0";
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

// The SDK client drops a progress notification that arrives in the same read as the response
// (modelcontextprotocol/typescript-sdk#2580), so a result waits this long after the last progress notification.
const PROGRESS_SETTLE_MS = 25;

function progressOf(extra: Extra): ToolContext["progress"] & { settle(): Promise<void> } {
  const token = extra._meta?.progressToken;
  let last = -Infinity;
  let sentAt = 0;
  const progress = (done: number, total?: number, message?: string) => {
    if (token === undefined || !(done > last)) return; // the protocol requires progress to increase
    last = done;
    sentAt = Date.now();
    extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: done, ...(total !== undefined && { total }), ...(message && { message }) },
      })
      .catch(() => {});
  };
  const settle = async () => {
    const wait = sentAt + PROGRESS_SETTLE_MS - Date.now();
    if (sentAt && wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  return Object.assign(progress, { settle });
}

/** The structured result with every secret replaced, should the service have echoed one into a message. */
function redactDeep(value: Record<string, unknown>, secrets: readonly (string | undefined)[]): Record<string, unknown> {
  const json = JSON.stringify(value);
  const clean = redact(json, secrets);
  return clean === json ? value : (JSON.parse(clean) as Record<string, unknown>);
}

export interface CreateServerOptions {
  /** Base logger (stderr). Default: a new stderr logger. */
  log?: Logger;
  /** The tools to register. Default: the whole registry. */
  tools?: readonly AnyTool[];
}

export function createServer(config: Config, service: Service, options: CreateServerOptions = {}): McpServer {
  const secrets = () => [config.apiKey];
  const base = options.log ?? createLogger({ secrets });
  const server = new McpServer(
    { name: "vecdb-mcp", version: packageVersion(), title: "Vector database (Pinecone-compatible)" },
    { capabilities: { logging: {}, tools: {} }, instructions: INSTRUCTIONS },
  );

  server.server.onerror = (err) => base.error(`protocol: ${err.message}`);

  // MCP log notifications only once the client has chosen a level (logging/setLevel).
  let clientLevel: LogLevel | undefined;
  server.server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    clientLevel = request.params.level;
    return {};
  });
  const toClient = (level: LogLevel, message: string) => {
    if (!clientLevel || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(clientLevel) || !server.isConnected()) return;
    server.server
      .sendLoggingMessage({ level, logger: "vecdb-mcp", data: redact(message, secrets()) })
      .catch(() => {});
  };
  const log: Logger = {
    debug: (m) => (base.debug(m), toClient("debug", m)),
    info: (m) => (base.info(m), toClient("info", m)),
    warning: (m) => (base.warning(m), toClient("warning", m)),
    error: (m) => (base.error(m), toClient("error", m)),
  };
  const roots = trackRoots(server.server, config.allowDirs, log);

  for (const tool of options.tools ?? registry) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { title: tool.title, ...tool.annotations },
      },
      async (args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> => {
        const started = Date.now();
        const progress = progressOf(extra);
        const allowedRoots = () => roots(extra);
        const ctx: ToolContext = { service, config, signal: extra.signal, progress, log, allowedRoots };
        try {
          const result = await tool.run(args, ctx);
          await progress.settle();
          log.debug(`${tool.name} done in ${Date.now() - started} ms${result.isError ? " (isError)" : ""}`);
          return {
            content: [{ type: "text", text: redact(result.table, secrets()) }],
            structuredContent: redactDeep(result.structured as Record<string, unknown>, secrets()),
            ...(result.isError && { isError: true }),
          };
        } catch (err) {
          const text = redact(errorText(tool.name, err), secrets());
          log.info(`${tool.name} → isError: ${text.split("\n")[0]}`);
          return { content: [{ type: "text", text }], isError: true };
        }
      },
    );
  }
  return server;
}
