// Small HTTP helpers shared by the control plane and the per-index data-plane servers.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { createHash, timingSafeEqual } from "node:crypto";
import { identityProof } from "../common/identity-proof.js";

/**
 * Bounds on how long a client may take to send a request (headers, then the whole body); past them the
 * connection gets 408 and is closed, so a stalled or trickling client cannot hold a connection for long.
 * Node's defaults (300 s for the request, checked every 30 s) are far too generous for a loopback service.
 */
export const SERVER_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 15_000, connectionsCheckingInterval: 1_000 };

export type ClientErrorKind = "malformed" | "headers-too-large" | "timeout";

/**
 * What Node's HTTP layer refuses before a handler runs (a malformed request, headers over 16 KiB, a request
 * not received in time) is answered in the plane's error shape, not with Node's bare status line.
 */
export function answerClientErrors(
  server: Server,
  body: (status: number, kind: ClientErrorKind, message: string) => unknown,
  headerLimit = "16 KiB",
): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own handler: nothing to say on a reset connection or once an answer has started.
    if (err.code === "ECONNRESET" || !socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
      socket.destroy();
      return;
    }
    const [status, reason, kind, message]: [number, string, ClientErrorKind, string] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "headers-too-large", `The request line and header fields are larger than the limit of ${headerLimit} in all.`]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "timeout", "The request was not received in full in time; the connection is closed."]
          : err.code === "HPE_INVALID_EOF_STATE"
            ? [400, "Bad Request", "malformed", "The request ended before all of its body arrived (fewer bytes than its Content-Length)."]
            : [400, "Bad Request", "malformed", `The request is not valid HTTP/1.1 (${err.code ?? err.message}).`];
    const text = JSON.stringify(body(status, kind, message));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
    // Ends our side only: destroying at once, with the client's bytes still arriving, could reset the connection
    // before the client reads the answer.
    const timer = setTimeout(() => socket.destroy(), 1000);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    socket.on("data", () => undefined);
  });
}

/** The request's URL, or undefined when its request target is not a valid path (e.g. `http://[::1/x`). */
export function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? "/", "http://local.invalid");
  } catch {
    return undefined;
  }
}

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: "too-large" | "aborted" };

/**
 * Reads a request body up to `limit` bytes. Past the limit it stops keeping data (the rest is
 * discarded by the caller closing the connection), so a huge body never sits in memory.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: "too-large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult) => {
      if (done) return;
      done = true;
      req.off("data", onData);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ ok: false, reason: "too-large" });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("end", () => finish({ ok: true, body: Buffer.concat(chunks, size) }));
    req.on("error", () => finish({ ok: false, reason: "aborted" }));
    req.on("close", () => finish({ ok: false, reason: "aborted" }));
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { "content-type": "application/json" } : {}),
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** API version 2026-07 answers a missing or wrong key with a plain-text 401 on both planes (JSON before). */
export function sendPlainUnauthorized(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  const text = "Invalid API key";
  res.writeHead(401, { "content-type": "text/plain", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * Answers a too-large request and then drops the connection: the unread rest of the body is never
 * buffered. The socket is given a moment so the client can read the answer before the close.
 */
export function sendTooLargeAndClose(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  const socket = req.socket;
  // For a "connection: close" answer Node calls socket.destroySoon(), which destroys the socket as soon as the
  // answer is written; with the client's body still arriving that resets the connection, and the client often
  // sees EPIPE / ECONNRESET instead of the 413. Without destroySoon Node only ends our side (the socket is
  // half-open), so the rest of the body keeps being read and discarded until the client closes or the timer.
  (socket as unknown as { destroySoon?: unknown }).destroySoon = undefined;
  sendJson(res, 413, body, { connection: "close" });
  req.on("data", () => undefined); // discard, never keep
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}

/** Constant-time comparison of the request's Api-Key header with the configured key. */
export function apiKeyMatches(req: IncomingMessage, apiKey: string): boolean {
  const given = req.headers["api-key"];
  if (typeof given !== "string" || given.length === 0) return false;
  return timingSafeEqual(digest(given), digest(apiKey));
}

/**
 * The local service's proof that it holds the key, asked by the client before it sends the key to a loopback port
 * (src/api/loopback-identity.ts; the same question and HMAC as src/local/sharing's identity on the control plane).
 * Answered without the key, for the port the request came in on and `index` (absent on the control plane); true when
 * this request was that question.
 */
export function answerIdentity(req: IncomingMessage, res: ServerResponse, apiKey: string, index?: string): boolean {
  if (req.method !== "GET" || !req.url?.startsWith("/_vecdb/identity?")) return false;
  const nonce = new URLSearchParams(req.url.slice(req.url.indexOf("?") + 1)).get("nonce") ?? "";
  if (!/^[0-9a-f]{16,128}$/.test(nonce)) {
    sendJson(res, 400, { error: "nonce: 16 to 128 hex digits" });
    return true;
  }
  // The port this socket was accepted on: what the client dialled, unless a relay stands between (then it differs).
  const port = req.socket.localPort ?? 0;
  sendJson(res, 200, { service: "vecdb-mcp-local", ...(index !== undefined && { index }), proof: identityProof(apiKey, nonce, { port, ...(index !== undefined && { index }) }) });
  return true;
}
