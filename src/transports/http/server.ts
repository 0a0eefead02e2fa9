// MCP over the SDK's Streamable HTTP transport on node:http: one McpServer per session (all sharing one Service),
// a bearer token when configured, Host/Origin checks against DNS rebinding, idle sessions closed.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { hostPolicy, urlHost } from "./hosts.js";
import type { Logger } from "../../log.js";

export const MCP_PATH = "/mcp";
/**
 * Large enough for the biggest upsert_vectors call (10,000 records of dimension 768 written as full-precision JSON
 * are ~153 MB); the SDK's own default is 4 MiB. A body is held in memory while it is parsed, as over stdio.
 */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;
export const MAX_SESSIONS = 256;
/** How long close() lets responses in flight finish before it drops their connections. */
const CLOSE_GRACE_MS = 2000;

export interface HttpServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** More names (or name:port) accepted in Host and Origin. */
  allowedHosts?: readonly string[];
  /** A session with no request in flight for this long is closed. */
  idleTimeoutMs: number;
  /** A new McpServer for a new session. */
  newServer(): McpServer;
  log: Logger;
}

export interface HttpMcpServer {
  /** e.g. "http://127.0.0.1:3333/mcp" */
  url: string;
  port: number;
  sessionCount(): number;
  /** Closes every session and the listener; idempotent. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  inFlight: number;
  lastUsed: number;
}

function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Constant-time check of `Authorization: Bearer <token>`: both sides hashed first, so lengths leak nothing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return timingSafeEqual(digest(m ? m[1] : ""), expected) && m !== null;
}

const shown = (s: string | undefined) => (s === undefined ? "(none)" : JSON.stringify(s.slice(0, 200)));

export async function startHttpServer(opts: HttpServerOptions): Promise<HttpMcpServer> {
  const { log } = opts;
  const tokenDigest = opts.token ? digest(opts.token) : undefined;
  const sessions = new Map<string, Session>();
  let starting = 0; // sessions whose initialize request is being handled
  let closed = false;
  let policy = hostPolicy(opts.host, opts.port, opts.allowedHosts); // replaced once the real port is known

  const closeSession = async (id: string, why: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    log.debug(`session ${id} closed (${why})`);
    await s.server.close().catch(() => {});
  };

  const track = (s: Session, res: ServerResponse) => {
    s.inFlight++;
    s.lastUsed = Date.now();
    res.once("close", () => {
      s.inFlight--;
      s.lastUsed = Date.now();
    });
  };

  const newSession = async (req: IncomingMessage, res: ServerResponse) => {
    if (sessions.size + starting >= MAX_SESSIONS) {
      return sendError(res, 503, -32000, `Too many sessions (${MAX_SESSIONS}); close one (HTTP DELETE) or retry later`, {
        "Retry-After": "5",
      });
    }
    const server = opts.newServer();
    let entry: Session | undefined = undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_BODY_BYTES,
      // Fired before the initialize request reaches the server, so the session is known to its next request.
      onsessioninitialized: (id) => {
        if (entry) sessions.set(id, entry);
        log.debug(`session ${id} started (${sessions.size} open)`);
      },
      onsessionclosed: (id) => void closeSession(id, "DELETE"),
    });
    entry = { server, transport, inFlight: 0, lastUsed: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    starting++;
    try {
      await server.connect(transport);
      track(entry, res);
      await transport.handleRequest(req, res);
    } finally {
      starting--;
    }
    // Not an initialize request (or not valid): the transport has answered with an error; nothing to keep.
    if (!transport.sessionId || closed) {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      await server.close().catch(() => {});
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "";
    const target = (req.url ?? "").slice(0, 200);
    // Checked here, before any session is looked up or created, rather than with the transport's deprecated
    // allowedHosts/allowedOrigins (compared per session, only once a transport exists, and port-exact strings
    // only) or the SDK's hostHeaderValidation (Express middleware, hostname only).
    if (!policy.hostAllowed(req.headers.host)) {
      log.info(`refused ${method} ${target}: Host ${shown(req.headers.host)} is not this server`);
      return sendError(res, 403, -32000, `Forbidden: Host header ${shown(req.headers.host)} is not an address of this server`);
    }
    const origin = req.headers.origin;
    if (!policy.originAllowed(origin)) {
      log.info(`refused ${method} ${target}: Origin ${shown(origin)} is not allowed`);
      return sendError(res, 403, -32000, `Forbidden: Origin ${shown(origin)} may not call this server`);
    }
    if (tokenDigest && !bearerMatches(req.headers.authorization, tokenDigest)) {
      const given = req.headers.authorization !== undefined;
      log.info(`refused ${method} ${target} from ${req.socket.remoteAddress}: ${given ? "wrong" : "no"} bearer token`);
      return sendError(res, 401, -32000, "Unauthorized: send the token set in VECDB_HTTP_TOKEN as Authorization: Bearer <token>", {
        "WWW-Authenticate": given ? 'Bearer realm="vecdb-mcp", error="invalid_token"' : 'Bearer realm="vecdb-mcp"',
      });
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path !== MCP_PATH) return sendError(res, 404, -32000, `Not Found: the MCP endpoint is ${MCP_PATH}`);
    if (method !== "POST" && method !== "GET" && method !== "DELETE") {
      return sendError(res, 405, -32000, "Method Not Allowed: use POST, GET or DELETE", { Allow: "POST, GET, DELETE" });
    }
    if (closed) return sendError(res, 503, -32000, "Service Unavailable: the server is shutting down");

    const id = req.headers["mcp-session-id"];
    if (typeof id === "string" && id !== "") {
      const s = sessions.get(id);
      if (!s) return sendError(res, 404, -32001, "Session not found: it was closed or has expired; initialize a new session");
      track(s, res);
      return s.transport.handleRequest(req, res);
    }
    if (method !== "POST") return sendError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    return newSession(req, res);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error(`HTTP ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`);
      sendError(res, 500, -32603, "Internal error");
    });
  });
  http.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(opts.port, opts.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  policy = hostPolicy(opts.host, port, opts.allowedHosts);

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) {
      if (s.inFlight === 0 && now - s.lastUsed > opts.idleTimeoutMs) void closeSession(id, "idle");
    }
  }, Math.max(100, Math.min(opts.idleTimeoutMs / 2, 30_000)));
  sweep.unref();

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(opts.host)}:${port}${MCP_PATH}`,
    port,
    sessionCount: () => sessions.size,
    close: () =>
      (closing ??= (async () => {
        closed = true;
        clearInterval(sweep);
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        await Promise.all([...sessions.keys()].map((id) => closeSession(id, "shutdown")));
        http.closeIdleConnections();
        const grace = setTimeout(() => http.closeAllConnections(), CLOSE_GRACE_MS);
        await stopped;
        clearTimeout(grace);
      })()),
  };
}
