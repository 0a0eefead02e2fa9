// createServer: an McpServer with every tool of the registry. The MCP plumbing lives here and only here:
// tool results → content + structuredContent, errors → isError text, progress tokens, cancellation, logging.
import { existsSync, readFileSync } from "node:fs";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { objectFromShape, type AnySchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Service } from "../api/service.js";
import type { Config } from "../config.js";
import { protoKeyPath } from "./dropped-keys.js";
import { errorText } from "./errors.js";
import { createLogger, LOG_LEVELS, redact, type Logger, type LogLevel } from "../log.js";
import { trackRoots } from "./roots.js";
import { confirmer } from "./elicit.js";
import { registerResources } from "./resources.js";
import { callRefusal, scopedService, toolRefusal, type Access } from "./access.js";
import { outputShapeOf, type AnyTool, type ToolContext } from "../tool-kit/tool.js";
import { answerToolsList, type LazyTool } from "./tool-catalog.js";
import { nothingDone, unknownArguments, unknownArgumentsText } from "./strict-args.js";
import { guardRequests } from "./request-guards.js";
import { fixedSupply, isServiceSupply, runWithRecovery, type ServiceSupply } from "./service-supply.js";
import { linkAbort } from "../linked-abort.js";

/** The initialize result's instructions: how to start, and the safe modes in force. */
export function instructionsFor(config: Access, tools: readonly { name: string }[]): string {
  const has = (name: string) => tools.some((t) => t.name === name);
  const lines = [
    "Administer and fill a vector database (Pinecone API).",
    "Start with list_indexes (and list_collections) to discover what exists: names, dimensions, hosts, states" +
      (has("describe_index") ? "; describe_index and describe_index_stats show one index in detail." : "."),
    ...(has("query_vectors")
      ? ["Read with query_vectors (similarity search, optionally with a metadata filter), fetch_vectors (records by id) and list_vector_ids (the ids in a namespace)."]
      : []),
  ];
  if (config.readOnly) {
    lines.push("This server is READ-ONLY: it can list and read, but not write, create or delete anything.");
  } else {
    lines.push(
      "Then write: upsert_vectors adds or overwrites records in an index (checked against the index first; nothing is written if a record is invalid)" +
        (has("create_index") ? ", create_index makes an index and waits until it is ready" : "") +
        (has("import_vectors") ? ", import_vectors writes every record of a JSONL or Parquet file in a directory the user allowed" : "") +
        ", create_collection snapshots a pod-based index.",
    );
  }
  if (config.indexes) {
    lines.push(
      `This server is LIMITED to the indexes ${config.indexes.map((n) => JSON.stringify(n)).join(", ")}: other indexes are not shown and calls naming them are refused.`,
    );
  }
  if (!config.readOnly && config.allowDestructive && has("delete_index")) {
    lines.push("Deleting is enabled (delete_vectors, delete_index, delete_collection) and cannot be undone: confirm with the user first.");
  }
  lines.push(
    "Every result carries the same facts in its text (markdown) and in structuredContent: records whole (metadata, and values when asked) " +
      "up to a budget of 200,000 characters, the rest by id; a note (also structuredContent.note) says what was left out and the next step. " +
      "Errors say what was wrong and the next step.",
  );
  return lines.join("\n");
}

let version: string | undefined;

/** Read once: an HTTP server calls createServer for every session. */
function packageVersion(): string {
  version ??= readPackageVersion();
  return version;
}

function readPackageVersion(): string {
  // The bundle's chunks, src/mcp/server.ts (tsx) and dist/src/mcp/server.js sit at different depths below package.json.
  for (const rel of ["../package.json", "../../package.json", "../../../package.json"]) {
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
  /** The tools to offer (safe modes permitting): the registry's, from loadToolCatalog() (tool-catalog.ts). */
  tools: readonly LazyTool[];
  /** Fires when the session must stop its calls (HTTP: shutdown past its grace period, or DELETE): each running
   * call stops as a cancelled one does and still answers, with what landed and what did not. */
  stop?: AbortSignal;
  /** Fires before `stop`: calls send nothing new and answer with what landed (see ToolContext.stopping). */
  stopping?: AbortSignal;
}

export function createServer(config: Config, service: Service | ServiceSupply, options: CreateServerOptions): McpServer {
  const supply = isServiceSupply(service) ? service : fixedSupply(service);
  const secrets = () => [config.apiKey];
  const base = options.log ?? createLogger({ secrets });
  const all = options.tools;
  // Tools the safe modes take away are not registered (so not listed); a call to one by name gets why.
  const hidden = new Map<string, string>();
  for (const t of all) {
    const why = toolRefusal(t, config);
    if (why !== undefined) hidden.set(t.name, why);
  }
  const offered = all.filter((t) => !hidden.has(t.name));
  const server = new McpServer(
    { name: "vecdb-mcp", version: packageVersion(), title: "Vector database (Pinecone-compatible)" },
    { capabilities: { logging: {}, tools: {}, resources: {} }, instructions: instructionsFor(config, offered) },
  );

  // The transports report what they refused or dropped of a client's messages here: the client's doing, not a fault.
  server.server.onerror = (err) => base.info(`protocol: ${err.message}`);

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
  const roots = trackRoots(server.server, config.allowDirs, log, !config.http); // over HTTP only --allow-dir (roots.ts)

  const registered = new Map<string, RegisteredTool>();
  for (const tool of offered) {
    // No zod schemas yet: they come with the tool's module, loaded on the tool's first call (withSchemas below).
    const record = server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, annotations: { title: tool.title, ...tool.annotations } },
      (async (args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> => {
        const started = Date.now();
        const progress = progressOf(extra);
        const allowedRoots = () => roots(extra);
        const linked = linkAbort([extra.signal, options.stop]); // released below: see linked-abort.ts
        const signal = linked.signal;
        const progressRequested = extra._meta?.progressToken !== undefined;
        const context = (service: Service): ToolContext => ({
          service: scopedService(service, config.indexes), // under --indexes, the others are invisible
          config,
          signal,
          stopping: options.stopping,
          progress,
          progressRequested,
          log,
          allowedRoots,
          askToConfirm: confirmer(server.server, { signal, relatedRequestId: extra.requestId }),
        });
        const refused = callRefusal(tool, args, config);
        if (refused !== undefined) {
          log.info(`${tool.name} → refused: ${refused.split("\n")[0]}`);
          linked.release();
          return { content: [{ type: "text", text: refused }], isError: true };
        }
        try {
          const definition = await tool.load();
          const result = await runWithRecovery(tool.name, supply, (service) => definition.run(args, context(service)), signal, log);
          await progress.settle();
          log.debug(`${tool.name} done in ${Date.now() - started} ms${result.isError ? " (isError)" : ""}`);
          const text = result.note ? `${result.table}\n\n${result.note}` : result.table;
          const structured = result.note ? { ...(result.structured as Record<string, unknown>), note: result.note } : result.structured;
          return {
            content: [{ type: "text", text: redact(text, secrets()) }],
            structuredContent: redactDeep(structured as Record<string, unknown>, secrets()),
            ...(result.isError && { isError: true }),
          };
        } catch (err) {
          // A cancelled call throws the client's reason (often a plain string), which is no internal error.
          if (signal.aborted) {
            log.info(`${tool.name} → cancelled by the client`);
            return { content: [{ type: "text", text: `${tool.name} was cancelled before it finished.` }], isError: true };
          }
          const text = redact(errorText(tool.name, err), secrets());
          log.info(`${tool.name} → isError: ${text.split("\n")[0]}`);
          return { content: [{ type: "text", text }], isError: true };
        } finally {
          linked.release();
        }
      }) as never, // the SDK types a handler registered without a schema as taking no arguments
    );
    registered.set(tool.name, record);
  }
  // Resources read through the same read-only tools (never one a safe mode hides) and the scoped service.
  registerResources(server, offered.filter((t) => t.annotations.readOnlyHint), async (signal) => ({
    service: scopedService(await supply.current(), config.indexes),
    config,
    signal,
    progress: () => {},
    log,
    allowedRoots: async () => [...config.allowDirs],
  }));
  guardToolCalls(server, hidden, offered, registered, log);
  answerToolsList(server, offered);
  guardRequests(server); // last: it wraps every handler set above
  return server;
}

type CallHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Answers, before the SDK's own tools/call handler, the calls it would get wrong: a tool the safe modes took away
 * (the SDK alone would answer "Tool … not found") gets why; an argument key the tool does not know, at any depth
 * (zod would drop it in silence and the call would succeed without it, see strict-args.ts), is refused with the
 * nearest valid name; a key named "__proto__" (which zod would drop too, see dropped-keys.ts) is refused, naming
 * where. Nothing runs in any of these cases. Otherwise the tool's module is loaded (on its first call) and its zod
 * schemas handed to the SDK, which checks the arguments and the result with them. The SDK offers no public hook
 * there, so this wraps it.
 */
function guardToolCalls(
  server: McpServer,
  hidden: ReadonlyMap<string, string>,
  offered: readonly LazyTool[],
  registered: ReadonlyMap<string, RegisteredTool>,
  log: Logger,
): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, CallHandler> })._requestHandlers;
  const sdkHandler = handlers?.get("tools/call");
  if (!sdkHandler) return; // no tool registered at all: the SDK refuses every call by itself
  const byName = new Map(offered.map((t) => [t.name, t]));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    const refusal = hidden.get(name) ?? argumentRefusal(tool, args) ?? (tool && (await withSchemas(tool, registered.get(name)!, log)));
    if (refusal === undefined) return (await sdkHandler(request, extra)) as CallToolResult;
    log.info(`${name} → refused: ${refusal.split("\n")[0]}`);
    return { content: [{ type: "text", text: refusal }], isError: true };
  });
}

/** Each tool's zod schemas as the SDK checks with them, made once per process (an HTTP server has many sessions). */
const zodObjects = new WeakMap<AnyTool, { inputSchema: AnySchema; outputSchema: AnySchema }>();

/**
 * Gives the SDK's record of `tool` the zod schemas of its module (loaded now if this is its first call), as
 * registerTool would have made them from the module; undefined, or why the call cannot go on when the module fails to load.
 */
async function withSchemas(tool: LazyTool, record: RegisteredTool, log: Logger): Promise<string | undefined> {
  if (record.inputSchema) return undefined;
  let definition: AnyTool;
  try {
    definition = await tool.load();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.error(`${tool.name}: its module did not load: ${reason}`);
    return `${tool.name} could not be loaded (${reason}). ${nothingDone(tool)}\nNext step: tell the user; the server's installation may be damaged (reinstall it).`;
  }
  let schemas = zodObjects.get(definition);
  if (!schemas) {
    schemas = { inputSchema: objectFromShape(definition.inputSchema), outputSchema: objectFromShape(outputShapeOf(definition)) };
    zodObjects.set(definition, schemas);
  }
  // Fields of the SDK's public RegisteredTool, set directly: its update() would also tell the client the list changed.
  record.inputSchema ??= schemas.inputSchema;
  record.outputSchema ??= schemas.outputSchema;
  return undefined;
}

/** Why these arguments cannot be passed on to `tool` as given, or undefined. */
function argumentRefusal(tool: LazyTool | undefined, args: Record<string, unknown> | undefined): string | undefined {
  if (tool === undefined || args === undefined) return undefined; // an unknown tool is the SDK's to answer
  const unknown = unknownArguments(tool.schemas.inputSchema, args);
  if (unknown.length > 0) return unknownArgumentsText(unknown, tool.name, nothingDone(tool));
  const dropped = protoKeyPath(args);
  if (dropped === undefined) return undefined;
  return (
    `${tool.name}: ${dropped} has a field named "__proto__", which this server cannot pass on (JavaScript objects drop that ` +
    "name). Rename the field and call again. Nothing was done."
  );
}
