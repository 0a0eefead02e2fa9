// MCP over Streamable HTTP on node:http, both protocol eras on one endpoint. A 2026-07-28 request (its _meta claims
// the version; the SDK's isLegacyRequest decides) is served alone by the SDK's createMcpHandler with a fresh McpServer
// (modern.ts): no session, any process of a fleet can take it. A 2025-era client gets a session as before: one McpServer
// per session over the SDK's Node transport. Every server shares one Service. In front of both: a bearer token,
// Host/Origin checks against DNS rebinding, and what the SDK leaves open:
// bodies read here (size, a budget of bytes in flight, a deadline for every body), JSON-RPC checks
// (messages.ts), a session slot reserved only once a valid initialize has been read, caps per client, idleness
// counted from the last POST (the SDK client's GET stream stays open for good), responses with a send deadline,
// and calls that still answer when their session closes (DELETE, shutdown).
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { McpServer } from "@modelcontextprotocol/server";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { BodyBudget, discardRest, readBody, type Refusal } from "./body.js";
import { requestClient, TrustedProxies } from "./client-address.js";
import { limitConnections } from "./connections.js";
import { rebindingGuard, urlHost } from "./rebinding.js";
import { requestedSelection, type RequestedSelection } from "./session-selection.js";
import { checkMessages, isInitialize, negotiatedVersion, readableId } from "./messages.js";
import { modernEndpoint } from "./modern.js";
import { withOldEraErrorCodes } from "../legacy-errors.js";
import type { Logger } from "../../log.js";
import { ConfigError } from "../../config.js";

const MCP_PATH = "/mcp";
/**
 * Large enough for the biggest upsert_vectors call (10,000 records of dimension 768 written as full-precision JSON
 * are ~153 MB); the SDK's own default is 4 MiB. A body is held in memory while it is parsed, as over stdio.
 */
const MAX_BODY_BYTES = 256 * 1024 * 1024;
/** After a session is told to stop its calls, how long they get to answer before they are aborted outright. */
const STOP_ANSWER_MS = 5000;
/** After that, how long close() lets responses finish before it drops their connections. */
const CLOSE_GRACE_MS = 1000;

/** The longest close() may take: the grace, then a stop asked and a stop forced (each up to STOP_ANSWER_MS), then the
 * connections' own grace. The process's shutdown deadline must not be shorter, or a call in flight loses its answer. */
export function closeDeadlineMs(shutdownGraceMs: number): number {
  return shutdownGraceMs + 2 * STOP_ANSWER_MS + CLOSE_GRACE_MS;
}

/** What a session's McpServer is given to wind its calls down (see ToolContext.stopping / signal). */
export interface SessionSignals {
  /** Send nothing new, finish what is in flight, answer with what landed. */
  stopping: AbortSignal;
  /** Abort outright (STOP_ANSWER_MS after stopping). */
  stop: AbortSignal;
  /** The tools the session asked for (headers or URL), if it did; newServer throws ConfigError to refuse them. */
  selection?: RequestedSelection;
}

export interface HttpServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** More names (or name:port) accepted in Host and Origin. */
  allowedHosts?: readonly string[];
  /** A session with no POST for this long is closed (its GET stream too). */
  idleTimeoutMs: number;
  maxSessions?: number;
  maxSessionsPerAddress?: number;
  maxConnectionsPerAddress?: number;
  /** Bytes of request bodies in progress (received, or being answered) at once, over every connection. */
  bodyBytesInFlight?: number;
  /** Headers, and every body (plus a second per MiB), must arrive within this. */
  requestTimeoutMs?: number;
  /** Proxies whose X-Forwarded-For names the client (addresses or CIDR ranges); no one else's is believed. */
  trustedProxies?: readonly string[];
  /** At close(), running calls get this long to finish before they are told to stop. */
  shutdownGraceMs?: number;
  /** A response the client stops reading for this long is dropped. */
  sendTimeoutMs?: number;
  /** A new McpServer for a new session. */
  newServer(signals: SessionSignals): McpServer;
  log: Logger;
}

export interface HttpMcpServer {
  /** e.g. "http://127.0.0.1:3333/mcp" */
  url: string;
  port: number;
  sessionCount(): number;
  /** Stops taking requests, lets running calls finish (grace), stops the rest with their account, closes; idempotent. */
  close(): Promise<void>;
}

type Id = string | number;

interface Session {
  id: string;
  server: McpServer;
  transport: NodeStreamableHTTPServerTransport;
  stopping: AbortController;
  stop: AbortController;
  address: string;
  version: string;
  /** POST responses still open: calls being answered. */
  posts: number;
  lastPost: number;
  /** Request ids being answered (a second request with one of them is refused). */
  inFlight: Set<Id>;
}

/** A JSON-RPC error; `id` is the request's when its body was read and it had one (JSON-RPC: null only when unreadable). */
function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, id: Id | null = null) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Constant-time check of `Authorization: Bearer <token>`: both sides hashed first, so lengths leak nothing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return timingSafeEqual(digest(m ? m[1] : ""), expected) && m !== null;
}

const shown = (s: string | undefined) => (s === undefined ? "(none)" : JSON.stringify(s.slice(0, 200)));

/** Resolves once `done()` holds or `ms` passed; true when it holds. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= end) return false;
    await sleep(Math.min(25, end - Date.now()));
  }
  return true;
}

export async function startHttpServer(opts: HttpServerOptions): Promise<HttpMcpServer> {
  const { log } = opts;
  const maxSessions = opts.maxSessions ?? 256;
  const maxPerAddress = opts.maxSessionsPerAddress ?? 128;
  const requestTimeoutMs = opts.requestTimeoutMs ?? 10_000;
  const sendTimeoutMs = opts.sendTimeoutMs ?? 60_000;
  const budget = new BodyBudget(opts.bodyBytesInFlight ?? 256 * 1024 * 1024);
  const tokenDigest = opts.token ? digest(opts.token) : undefined;
  const trustedProxies = new TrustedProxies(opts.trustedProxies ?? []);
  const sessions = new Map<string, Session>();
  let starting = 0; // sessions whose initialize request is being handled
  let closed = false;
  let policy = rebindingGuard(opts.host, opts.port, opts.allowedHosts); // replaced once the real port is known
  const modern = modernEndpoint({ newServer: opts.newServer, log, watchSend: (res) => watchSend(res) });

  const refuse = (req: IncomingMessage, res: ServerResponse, r: Refusal, id: Id | null = null) => {
    log.info(`refused ${req.method} ${(req.url ?? "").slice(0, 200)} from ${req.socket.remoteAddress}: ${r.reason}`);
    // A body still arriving is read on and dropped, so that the client gets this answer rather than a reset.
    const draining = r.status !== 408 && r.status !== 413 && discardRest(req, requestTimeoutMs);
    const close = (r.status === 408 || r.status === 413 || r.status === 503) && !draining;
    sendError(res, r.status, r.code, r.message, { ...r.headers, ...(close ? { Connection: "close" } : {}) }, id);
  };

  const closeSession = async (id: string, why: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    conns.sessionEnded(id);
    log.debug(`session ${id} closed (${why})`);
    s.stopping.abort();
    s.stop.abort();
    await s.server.close().catch(() => {});
  };

  /** Tells a session's running calls to stop and waits (bounded) until each has answered. */
  const windDown = async (s: Session) => {
    if (s.posts === 0) return;
    s.stopping.abort();
    if (await until(() => s.posts === 0, STOP_ANSWER_MS)) return;
    s.stop.abort();
    await until(() => s.posts === 0, STOP_ANSWER_MS);
  };

  // Connections that carried a response, for the send deadline: dropped when the client reads nothing for
  // sendTimeoutMs. Watched until the connection closes, since an answer ended by the server can still sit unsent.
  const writing = new Map<Socket, { written: number; since: number }>();
  const watchSend = (res: ServerResponse) => {
    const socket = res.socket;
    if (!socket || writing.has(socket)) return;
    writing.set(socket, { written: socket.bytesWritten, since: Date.now() });
    socket.once("close", () => writing.delete(socket));
  };

  const forPost = (s: Session, res: ServerResponse, ids: readonly Id[]) => {
    s.posts++;
    s.lastPost = Date.now();
    for (const id of ids) s.inFlight.add(id);
    res.once("close", () => {
      s.posts--;
      s.lastPost = Date.now();
      for (const id of ids) s.inFlight.delete(id);
    });
  };

  const addressCount = (address: string) => {
    let n = 0;
    for (const s of sessions.values()) if (s.address === address) n++;
    return n;
  };

  /** The body as JSON, or undefined when it was refused (already answered) or the client went away. */
  const readJson = async (req: IncomingMessage, res: ServerResponse, deadlineMs = requestTimeoutMs): Promise<{ json: unknown } | undefined> => {
    const body = await readBody(req, { maxBytes: MAX_BODY_BYTES, budget, deadlineMs });
    if (!body.ok) {
      if (body.refusal) refuse(req, res, body.refusal);
      else log.info(`${req.method} from ${req.socket.remoteAddress} not answered: ${body.clientGone}`);
      return undefined;
    }
    // Held until the request is answered: a parsed call holds memory in proportion to its body while it runs.
    if (res.closed) body.release();
    else res.once("close", body.release);
    try {
      return { json: JSON.parse(body.text) };
    } catch {
      refuse(req, res, { status: 400, code: -32700, message: "Parse error: Invalid JSON", reason: "body is not JSON" });
      return undefined;
    }
  };

  const newSession = async (req: IncomingMessage, res: ServerResponse, json: unknown) => {
    const address = requestClient(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxies);
    const id = readableId(json);
    const overConnections = conns.forNewSession(req.socket);
    if (overConnections) return refuse(req, res, overConnections, id);
    const checked = checkMessages(json);
    if (!checked.ok) return refuse(req, res, checked.refusal, id);
    const init = checked.messages.find(isInitialize);
    if (!init) {
      const message = "Bad Request: Mcp-Session-Id header is required (or, in protocol 2026-07-28, the protocol version in the request's _meta)";
      return refuse(req, res, { status: 400, code: -32000, message, reason: "no session id" }, id);
    }
    if (checked.batch) {
      return refuse(req, res, { status: 400, code: -32600, message: "Invalid Request: initialize must be sent alone, not in a batch", reason: "initialize in a batch" });
    }
    if (closed) return refuse(req, res, { status: 503, code: -32000, message: "Service Unavailable: the server is shutting down", reason: "shutting down" }, id);
    // A slot is taken only now, once a whole valid initialize has been read: slow senders hold none.
    if (sessions.size + starting >= maxSessions) {
      return refuse(req, res, {
        status: 503,
        code: -32000,
        message: `Too many sessions (${maxSessions}); close one (HTTP DELETE) or retry later`,
        headers: { "Retry-After": "5" },
        reason: `${maxSessions} sessions open`,
      }, id);
    }
    if (addressCount(address) >= maxPerAddress) {
      return refuse(req, res, {
        status: 429,
        code: -32000,
        message: `Too many sessions from your address (${maxPerAddress}); close one (HTTP DELETE) or retry later`,
        headers: { "Retry-After": "5" },
        reason: `${maxPerAddress} sessions from this address`,
      }, id);
    }
    const stopping = new AbortController();
    const stop = new AbortController();
    let server: McpServer;
    try {
      server = opts.newServer({ stopping: stopping.signal, stop: stop.signal, selection: requestedSelection(req) });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return refuse(req, res, { status: 400, code: -32602, message: `Bad Request: ${err.message}`, reason: "tool selection refused" }, id);
    }
    let entry: Session | undefined = undefined;
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_BODY_BYTES,
      // Fired before the initialize request reaches the server, so the session is known to its next request.
      onsessioninitialized: (id) => {
        if (!entry) return;
        entry.id = id;
        sessions.set(id, entry);
        log.debug(`session ${id} started from ${address} at ${entry.version} (${sessions.size} open)`);
      },
      onsessionclosed: (id) => void closeSession(id, "DELETE"),
    });
    const send = transport.send.bind(transport); // every session is of the old era (modern.ts serves the new one)
    transport.send = (message, options) => send(withOldEraErrorCodes(message), options);
    entry = { id: "", server, transport, stopping, stop, address, version: negotiatedVersion(init), posts: 0, lastPost: Date.now(), inFlight: new Set() };
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    starting++;
    try {
      await server.connect(transport);
      forPost(entry, res, checked.requestIds);
      watchSend(res);
      await transport.handleRequest(req, res, json);
    } finally {
      starting--;
    }
    // Not answered as an initialize (the transport refused it): nothing to keep.
    if (!transport.sessionId || closed) {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      await server.close().catch(() => {});
    }
  };

  const inSession = async (s: Session, req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET") {
      // The standalone stream: open as long as the session, but no sign of use (idleness counts POSTs only).
      watchSend(res);
      return s.transport.handleRequest(req, res);
    }
    if (req.method === "DELETE") {
      // The SDK closes every stream at once: first let the running calls answer (with what landed).
      await windDown(s);
      return s.transport.handleRequest(req, res);
    }
    // A call whose body is still arriving is in flight already: shutdown and DELETE wait for its answer too.
    s.posts++;
    res.once("close", () => s.posts--);
    const read = await readJson(req, res);
    if (!read) return;
    const checked = checkMessages(read.json, s);
    if (!checked.ok) return refuse(req, res, checked.refusal, readableId(read.json));
    forPost(s, res, checked.requestIds);
    watchSend(res);
    return s.transport.handleRequest(req, res, read.json);
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
      return sendError(res, 401, -32000, "Unauthorized: send the server's token (VECDB_HTTP_TOKEN) as Authorization: Bearer <token>", {
        "WWW-Authenticate": given ? 'Bearer realm="vecdb-mcp", error="invalid_token"' : 'Bearer realm="vecdb-mcp"',
      });
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path !== MCP_PATH) return sendError(res, 404, -32000, `Not Found: the MCP endpoint is ${MCP_PATH}`);
    if (method !== "POST" && method !== "GET" && method !== "DELETE") {
      return sendError(res, 405, -32000, "Method Not Allowed: use POST, GET or DELETE", { Allow: "POST, GET, DELETE" });
    }
    // Through refuse(): a body still arriving is read and dropped, so the client gets this 503 rather than a reset.
    if (closed) return refuse(req, res, { status: 503, code: -32000, message: "Service Unavailable: the server is shutting down", reason: "shutting down" });

    const id = req.headers["mcp-session-id"];
    if (typeof id === "string" && id !== "") {
      const s = sessions.get(id);
      if (!s) return sendError(res, 404, -32001, "Session not found: it was closed or has expired; initialize a new session");
      const overConnections = conns.toSession(req.socket, id);
      if (overConnections) return refuse(req, res, overConnections);
      return inSession(s, req, res);
    }
    if (method !== "POST") return sendError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    const read = await readJson(req, res, requestTimeoutMs);
    if (!read) return;
    // Not JSON-RPC at all: answered below as before (the SDK would call it a malformed new-era request).
    if (checkMessages(read.json).ok && (await modern.claims(req, read.json))) return modern.serve(req, res, read.json, (r, id) => refuse(req, res, r, id));
    return newSession(req, res, read.json);
  };

  const http = createServer({ headersTimeout: requestTimeoutMs, requestTimeout: Math.max(300_000, requestTimeoutMs), connectionsCheckingInterval: Math.min(1000, requestTimeoutMs / 2) }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error(`HTTP ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`);
      sendError(res, 500, -32603, "Internal error");
    });
  });
  const conns = limitConnections(http, { maxPerClient: opts.maxConnectionsPerAddress ?? 128, trusted: trustedProxies, log });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(opts.port, opts.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  policy = rebindingGuard(opts.host, port, opts.allowedHosts);

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) {
      if (s.posts === 0 && now - s.lastPost > opts.idleTimeoutMs) void closeSession(id, "idle");
    }
  }, Math.max(100, Math.min(opts.idleTimeoutMs / 2, 30_000)));
  sweep.unref();

  // A response with bytes waiting that the client has not taken for sendTimeoutMs is dropped (its memory with it).
  const sendWatch = setInterval(() => {
    const now = Date.now();
    for (const [socket, w] of writing) {
      const pending = socket.writableLength;
      if (pending === 0 || socket.bytesWritten !== w.written) {
        w.written = socket.bytesWritten;
        w.since = now;
      } else if (now - w.since > sendTimeoutMs) {
        log.info(`dropped a response to ${socket.remoteAddress}: ${pending} bytes unread for ${sendTimeoutMs / 1000} s`);
        writing.delete(socket);
        socket.destroy();
      }
    }
  }, Math.max(50, Math.min(1000, sendTimeoutMs / 4)));
  sendWatch.unref();

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
        http.closeIdleConnections();
        const busy = () => [...sessions.values()].filter((s) => s.posts > 0);
        if (!(await until(() => busy().length === 0 && modern.running() === 0, opts.shutdownGraceMs ?? 10_000))) {
          log.info(`shutting down: stopping ${busy().length} session(s) and ${modern.running()} sessionless call(s) still running after the grace period`);
          await Promise.all([...busy().map(windDown), modern.windDown(STOP_ANSWER_MS)]);
        }
        await Promise.all([...sessions.keys()].map((id) => closeSession(id, "shutdown")));
        await modern.close();
        clearInterval(sendWatch);
        http.closeIdleConnections();
        const grace = setTimeout(() => http.closeAllConnections(), CLOSE_GRACE_MS);
        await stopped;
        clearTimeout(grace);
      })()),
  };
}
