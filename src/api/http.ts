// The only place that speaks HTTP to the service: one keep-alive undici Agent, a per-attempt timeout, retries with
// backoff, error parsing and API-key redaction.
//
// Why a hand-written retry loop and not undici's RetryAgent: the RetryHandler cannot tell a caller's abort from a
// timeout of one attempt, does not bound connection-refused retries separately, and it only re-sends a POST if told
// to retry every POST; here every request body is a Buffer (re-sendable) and the loop also needs the caller's signal
// to cut a backoff sleep short. A dozen lines of loop are easier to read than a configured handler.
import { STATUS_CODES } from "node:http";
import { Agent, request, type Dispatcher } from "undici";
import { sleep } from "./abort.js";
import { ResponseShapeError, ServiceError, UntrustedHostError } from "./errors.js";
import { redactSecrets } from "./redact.js";
import { identityCheckingConnector, IdentityError, type IdentityPolicy } from "./loopback-identity.js";
import { USER_AGENT } from "./version.js";
import { linkAbort } from "../common/linked-abort.js";

export { ResponseShapeError, ServiceError, UntrustedHostError } from "./errors.js";

export interface HttpSettings {
  apiKey: string;
  apiVersion: string;
  timeoutMs: number; // per attempt, from sending to the last byte of the answer
  retries: number; // retries after the first attempt (connection refused: at most 3)
  /** Backoff base (first retry waits up to this long); default 250 ms. */
  backoffBaseMs?: number;
  /** Upper bound of one backoff sleep; default 8000 ms. */
  backoffMaxMs?: number;
  /** A Retry-After longer than this is cut to it; default 20000 ms. */
  retryAfterMaxMs?: number;
  /** Loopback listeners prove they hold the key before it is sent to them (loopback-identity.ts); undefined: no check. */
  loopbackIdentity?: Omit<IdentityPolicy, "apiKey">;
}

export interface HttpRequest {
  url: string;
  method: "GET" | "POST" | "DELETE" | "PATCH";
  body?: unknown | Buffer;
  signal?: AbortSignal;
  retry?: boolean;
  /** Content-Type of the body; default application/json (text upserts send application/x-ndjson). */
  contentType?: string;
  /** Answer with the body's text, not parsed (a copy passes records on without reading every number). */
  raw?: boolean;
  /** The API version this request names instead of the configured one (the documents API exists only from 2026-07). */
  apiVersion?: string;
}

/** Answers at least this long are parsed on a worker thread (parse-off-thread.ts, loaded when first needed). */
const OFF_THREAD_BYTES = 1024 * 1024;

/** Decodes an answer as undici's body.text() does (UTF-8, a leading BOM dropped). */
const utf8 = new TextDecoder();

/** Connection refused means nothing listens: a few quick retries cover a restart, more only delay the error. */
const MAX_REFUSED_RETRIES = 3;

const DROPPED_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT",
  "EAI_AGAIN",
]);

export class HttpClient {
  private readonly agent: Agent;
  private readonly settings: Required<Omit<HttpSettings, "loopbackIdentity">>;
  private readonly trusted = new Set<string>();
  /** Origin → the index whose data plane the control plane placed there (what a loopback listener must prove). */
  private readonly indexAtOrigin = new Map<string, string>();
  private readonly redactions: string[];
  private readonly closing = new AbortController();

  constructor(settings: HttpSettings) {
    this.settings = {
      backoffBaseMs: 250,
      backoffMaxMs: 8000,
      retryAfterMaxMs: 20_000,
      ...settings,
    };
    const t = settings.timeoutMs;
    this.agent = new Agent({
      // Per origin: the most upserts --concurrency allows (64) at once, with room for control-plane calls beside them.
      // Fewer would queue requests inside the agent, where their per-attempt timeout already runs.
      connections: 72,
      pipelining: 1, // no pipelining: a dropped connection then loses one request, which the loop re-sends
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: t, // backstops; the per-attempt AbortSignal below is the real deadline
      bodyTimeout: t,
      connect: settings.loopbackIdentity
        ? identityCheckingConnector({ timeout: Math.min(t, 10_000) }, { ...settings.loopbackIdentity, apiKey: settings.apiKey, indexAt: (origin) => this.indexAtOrigin.get(origin) })
        : { timeout: Math.min(t, 10_000) },
    });
    const key = settings.apiKey;
    this.redactions = [...new Set([key, encodeURIComponent(key)])];
  }

  /** Allows the API key to be sent to this URL's origin (the controller, and each host the control plane named). */
  trustOrigin(url: string, index?: string): void {
    const origin = new URL(url).origin;
    this.trusted.add(origin);
    if (index !== undefined) this.indexAtOrigin.set(origin, index);
  }

  /** The control plane no longer names this origin (its index was forgotten): the key is not sent there any more. */
  untrustOrigin(url: string): void {
    this.trusted.delete(new URL(url).origin);
    this.indexAtOrigin.delete(new URL(url).origin);
  }

  /** The API version every request names (X-Pinecone-API-Version). */
  get apiVersion(): string {
    return this.settings.apiVersion;
  }

  isTrusted(url: string): boolean {
    return this.trusted.has(new URL(url).origin);
  }

  /** Replaces the API key in a text, and any run of 8+ of its characters, with "[redacted]" (redact.ts). */
  redact(text: string): string {
    return redactSecrets(text, this.redactions);
  }

  async request<T>(req: HttpRequest): Promise<T> {
    const { url, method, signal } = req;
    if (!this.isTrusted(url)) throw new UntrustedHostError(this.redact(url));
    signal?.throwIfAborted();

    const body =
      req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(JSON.stringify(req.body));
    const headers: Record<string, string> = {
      "Api-Key": this.settings.apiKey,
      "X-Pinecone-API-Version": req.apiVersion ?? this.settings.apiVersion,
      "User-Agent": USER_AGENT,
      Accept: "application/json",
    };
    if (body !== undefined) headers["Content-Type"] = req.contentType ?? "application/json";

    const maxRetries = req.retry === false ? 0 : Math.max(0, this.settings.retries);
    let refused = 0;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(url, method, headers, body, signal, req.raw === true);
      if (outcome.kind === "ok") return outcome.value as T;
      const error = this.toError(outcome, url, method, attempt);
      if (outcome.kind === "failed" && outcome.code === "ECONNREFUSED") refused++;
      const retriable =
        outcome.retriable && attempt <= maxRetries && (outcome.code !== "ECONNREFUSED" || refused <= MAX_REFUSED_RETRIES);
      if (!retriable) throw error;
      await sleep(this.delayMs(attempt, outcome.retryAfterMs), signal);
    }
  }

  /** Closes the agent: waits a moment for requests in flight, then aborts them (they fail, not retried). */
  async close(graceMs = 1000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closed = this.agent.close().then(() => true);
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
    const inTime = await Promise.race([closed, late]).catch(() => false);
    clearTimeout(timer);
    if (!inTime) {
      this.closing.abort();
      await this.agent.destroy().catch(() => undefined);
    }
  }

  private async attempt(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
    raw = false,
  ): Promise<Attempt> {
    const linked = linkAbort([signal, this.closing.signal], this.settings.timeoutMs);
    let res: Dispatcher.ResponseData;
    let bytes: ArrayBuffer;
    try {
      try {
        res = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          signal: linked.signal,
          dispatcher: this.agent,
        });
      } catch (err) {
        return this.failure(err, signal, linked);
      }
      try {
        bytes = await res.body.arrayBuffer(); // its own buffer (undici copies or concatenates the chunks)
      } catch (err) {
        return this.failure(err, signal, linked);
      }
    } finally {
      linked.release();
    }
    const status = res.statusCode;
    if (status >= 200 && status < 300 && !raw && bytes.byteLength >= OFF_THREAD_BYTES) {
      const { NotJsonError, parseOffThread } = await import("./parse-off-thread.js");
      try {
        return { kind: "ok", value: await parseOffThread(bytes) };
      } catch (err) {
        if (!(err instanceof NotJsonError)) {
          return { kind: "failed", code: "PARSE", message: `the answer could not be read: ${err instanceof Error ? err.message : String(err)}`, retriable: true };
        }
        bytes = err.bytes; // not JSON: said below, as for a short answer
      }
    }
    const text = utf8.decode(bytes);
    if (status >= 200 && status < 300) {
      if (raw) return { kind: "ok", value: text };
      if (text.trim() === "") return { kind: "ok", value: undefined };
      try {
        return { kind: "ok", value: JSON.parse(text) };
      } catch {
        // Redacted before it is shortened: a cut through the key would leave its first characters unredacted.
        throw new ResponseShapeError(this.redact(url), `HTTP ${status} with a body that is not JSON: ${shorten(this.redact(text))}`);
      }
    }
    // Redacted field by field after parsing (an escaped key in the JSON is plain once parsed), before shortening.
    const parsed = parseErrorBody(status, text, (t) => this.redact(t));
    return {
      kind: "http",
      status,
      code: parsed.code,
      message: parsed.message,
      retriable: status === 429 || (status >= 500 && status !== 501 && status !== 505),
      retryAfterMs: parseRetryAfter(headerValue(res.headers["retry-after"])),
    };
  }

  private failure(err: unknown, caller: AbortSignal | undefined, timeout: { timedOut: boolean }): Attempt {
    // The caller's abort wins over everything: no error translation, no retry.
    if (caller?.aborted) throw caller.reason ?? err;
    if (this.closing.signal.aborted) {
      return { kind: "failed", code: "CLOSED", message: "the client was closed while waiting for the answer", retriable: false };
    }
    const identity = findCause(err, IdentityError);
    if (identity) return { kind: "failed", code: identity.code, message: identity.message, retriable: identity.retriable };
    const code = errorCode(err);
    if (timeout.timedOut || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      return {
        kind: "failed",
        code: "TIMEOUT",
        message: `no answer within ${this.settings.timeoutMs} ms`,
        retriable: true,
      };
    }
    if (code === "ECONNREFUSED") return { kind: "failed", code, message: "connection refused", retriable: true };
    if (code === "ENOTFOUND") return { kind: "failed", code, message: "host name not found", retriable: false };
    if (code !== undefined && DROPPED_CODES.has(code)) {
      return { kind: "failed", code, message: `connection dropped (${code})`, retriable: true };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { kind: "failed", code, message: `request failed: ${message}`, retriable: false };
  }

  private toError(outcome: Exclude<Attempt, { kind: "ok" }>, url: string, method: string, attempts: number): ServiceError {
    return new ServiceError({
      status: outcome.kind === "http" ? outcome.status : undefined,
      code: outcome.code === undefined ? undefined : this.redact(outcome.code),
      serviceMessage: this.redact(outcome.message),
      url: this.redact(url),
      method,
      attempts,
    });
  }

  /** Full jitter (random in [0, min(max, base·2^(n-1))]), or the service's Retry-After when it gave one. */
  private delayMs(attempt: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return Math.min(retryAfterMs, this.settings.retryAfterMaxMs);
    const ceiling = Math.min(this.settings.backoffMaxMs, this.settings.backoffBaseMs * 2 ** (attempt - 1));
    return Math.random() * ceiling;
  }
}

type Attempt =
  | { kind: "ok"; value: unknown }
  | { kind: "http"; status: number; code: string | undefined; message: string; retriable: boolean; retryAfterMs?: number }
  | { kind: "failed"; code: string | undefined; message: string; retriable: boolean; retryAfterMs?: undefined };

/**
 * Reads both of the service's error shapes, a plain-text body, or nothing. `redact` is applied to each text before
 * it is shortened (a cut through the key would leave part of it that no longer matches).
 */
function parseErrorBody(status: number, text: string, redact: (text: string) => string = (t) => t): { code: string | undefined; message: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { code: undefined, message: STATUS_CODES[status] ?? `HTTP ${status}` };
  const truncate = (s: string) => shorten(redact(s));
  const scalar = (v: unknown) => (v === undefined || v === null ? undefined : truncate(typeof v === "string" ? v : JSON.stringify(v)));
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { code: undefined, message: truncate(trimmed) };
  }
  if (isObject(json)) {
    // control plane: {"status": 404, "error": {"code": "NOT_FOUND", "message": "..."}}
    const error = json.error;
    if (isObject(error) && (error.message !== undefined || error.code !== undefined)) {
      return { code: scalar(error.code), message: scalar(error.message) ?? STATUS_CODES[status] ?? `HTTP ${status}` };
    }
    if (typeof error === "string") return { code: scalar(json.code), message: truncate(error) };
    // data plane: {"code": 3, "message": "...", "details": []}
    if (json.message !== undefined) return { code: scalar(json.code), message: scalar(json.message) ?? "" };
  }
  return { code: undefined, message: truncate(trimmed) };
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function shorten(s: string, max = 1000): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

function findCause<E extends Error>(err: unknown, type: new (...args: never[]) => E): E | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof type) return e;
  return undefined;
}

function errorCode(err: unknown): string | undefined {
  // undici wraps socket errors: the system code may sit on the error or on its cause.
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET" && code !== "UND_ERR_ABORTED") {
      return code;
    }
    if (code === "UND_ERR_SOCKET") {
      const inner = (e as { cause?: { code?: unknown } }).cause?.code;
      return typeof inner === "string" ? inner : code;
    }
  }
  return undefined;
}
