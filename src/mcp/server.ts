// createServer: an McpServer with the tools this server (or, over HTTP, this session) offers. The MCP plumbing lives
// in src/mcp/ and only there; this file puts it together: which tools are on (tool-selection.ts, then the safe modes
// of access.ts), the instructions (instructions.ts), the log bridge, the tools' registration (tool-registration.ts)
// and the checks in front of a call (tool-calls.ts, request-guards.ts).
import { McpServer } from "@modelcontextprotocol/server";
import type { Service } from "../api/service.js";
import type { Config } from "../config.js";
import type { ServiceDirectory } from "../tool-kit/named-services.js";
import { createLogger, type Logger } from "../log.js";
import { trackRoots } from "./roots.js";
import { stateCodec, usedStatesFolder } from "./request-state.js";
import { registerResources } from "./resources.js";
import { scopedService, toolRefusal } from "./access.js";
import { answerToolsList, type LazyTool } from "./tool-catalog.js";
import { guardRequests } from "./request-guards.js";
import { fixedSupply, isServiceSupply, type ServiceSupply } from "./service-supply.js";
import { instructionsFor } from "./instructions.js";
import { packageVersion } from "../package-version.js";
import { bridgeLogs } from "./log-bridge.js";
import { registerTools } from "./tool-registration.js";
import { guardToolCalls } from "./tool-calls.js";
import { offRefusal, serverTools, sessionCeiling, sessionTools, type SessionSelection } from "./tool-selection.js";

export interface CreateServerOptions {
  /** Base logger (stderr). Default: a new stderr logger. */
  log?: Logger;
  /** Every tool of the registry, from loadToolCatalog() (tool-catalog.ts); the selection and safe modes pick from them. */
  tools: readonly LazyTool[];
  /** Over HTTP: what this session asked for (headers or URL), checked against what the server allows
   * (tool-selection.ts). Throws ConfigError when the session names a tool or toolset it may not have. */
  session?: SessionSelection;
  /** Fires when the session must stop its calls (HTTP: shutdown past its grace period, or DELETE): each running
   * call stops as a cancelled one does and still answers, with what landed and what did not. */
  stop?: AbortSignal;
  /** Fires before `stop`: calls send nothing new and answer with what landed (see ToolContext.stopping). */
  stopping?: AbortSignal;
  /** The secrets in use (the service's key, the embeddings server's, the HTTP token), redacted from every text. */
  secrets?: () => readonly (string | undefined)[];
  /** The services a tool may name besides main (ToolContext.services). */
  services?: ServiceDirectory;
}

export function createServer(config: Config, service: Service | ServiceSupply, options: CreateServerOptions): McpServer {
  const supply = isServiceSupply(service) ? service : fixedSupply(service);
  const secrets = options.secrets ?? (() => [config.apiKey]);
  const base = options.log ?? createLogger({ secrets });
  const all = options.tools;
  const selected = options.session ? sessionTools(config, options.session, all) : serverTools(config, all);
  const http = config.http ? { ceiling: sessionCeiling(config, all) } : undefined;
  // Tools the safe modes or the selection take away are not registered (so not listed); a call to one by name gets why.
  const hidden = new Map<string, string>();
  for (const t of all) {
    const why = toolRefusal(t, config) ?? (selected.has(t.name) ? undefined : offRefusal(t, config, http));
    if (why !== undefined) hidden.set(t.name, why);
  }
  const offered = all.filter((t) => !hidden.has(t.name));
  const active = new Set(offered.map((t) => t.name));
  const codec = stateCodec(config.stateSecret);
  const server = new McpServer(
    { name: "vecdb-mcp", version: packageVersion(), title: "Vector database (Pinecone-compatible)" },
    {
      capabilities: { logging: {}, tools: {}, resources: {} },
      instructions: instructionsFor(config, active, config.http && !config.toolsets),
      requestState: { verify: codec.verify }, // a 2026-07-28 call's state between rounds: the signature, binding and expiry
    },
  );

  // The transports report what they refused or dropped of a client's messages here: the client's doing, not a fault.
  server.server.onerror = (err) => base.info(`protocol: ${err.message}`);
  const log = bridgeLogs(server, base, secrets);
  const roots = trackRoots(server.server, config.allowDirs, log, !config.http); // over HTTP only --allow-dir (roots.ts)
  registerTools(server, offered, {
    config,
    supply,
    log,
    secrets,
    roots,
    codec,
    clientRootsCount: !config.http,
    active,
    stop: options.stop,
    stopping: options.stopping,
    services: options.services,
  });
  // Resources read through the same read-only tools (never one a safe mode hides; the toolsets only shape tools/list)
  // and the scoped service.
  registerResources(server, all.filter((t) => t.annotations.readOnlyHint && toolRefusal(t, config) === undefined), async (signal) => ({
    service: scopedService(await supply.current(), config.indexes),
    config,
    tools: active,
    signal,
    progress: () => {},
    log,
    allowedRoots: async () => [...config.allowDirs],
  }));
  guardToolCalls(server, hidden, offered, codec, usedStatesFolder(config.dataDir), log);
  answerToolsList(server, offered, config.maxResultTokens);
  guardRequests(server); // last: it wraps every handler set above
  return server;
}
