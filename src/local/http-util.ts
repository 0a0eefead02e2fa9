// Small HTTP helpers shared by the control plane and the per-index data-plane servers.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Bounds on how long a client may take to send a request (headers, then the whole body); past them the
 * connection gets 408 and is closed, so a stalled or trickling client cannot hold a connection for long.
 * Node's defaults (300 s for the request, checked every 30 s) are far too generous for a loopback service.
 */
export const SERVER_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 15_000, connectionsCheckingInterval: 1_000 };

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
