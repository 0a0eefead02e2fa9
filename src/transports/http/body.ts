// Reading a POST body in front of the SDK's transport, which would otherwise read it itself with no deadline and no
// bound on how many large bodies are received at once (four 145 MB upserts took the process to 1.3 GB).
import type { IncomingMessage } from "node:http";

/** A refusal to send as an HTTP status and a JSON-RPC error (id null). */
export interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
  /** Why, for the log (info level: a client's doing, not the server's fault). */
  reason: string;
}

/**
 * The bytes of request bodies in progress at once, over every connection: from the first byte received until the
 * request is answered (a parsed call holds memory in proportion to its body while it runs).
 */
export class BodyBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }
  give(bytes: number): void {
    this.used -= bytes;
  }
  get inUse(): number {
    return this.used;
  }
}

const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`;

/** On success the body's bytes stay reserved in the budget until `release()` (called once the request is answered). */
export type BodyResult = { ok: true; text: string; release(): void } | { ok: false; refusal?: Refusal; clientGone?: string };

/**
 * Reads the whole body as UTF-8, its bytes reserved in the budget until released. Refuses one over maxBytes (413), one
 * the budget cannot hold now (503 + Retry-After),
 * and one that has not arrived within deadlineMs when given (408). A client that goes away mid-body is `clientGone`.
 */
export function readBody(req: IncomingMessage, opts: { maxBytes: number; budget: BodyBudget; deadlineMs?: number }): Promise<BodyResult> {
  const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
  const tooLarge: Refusal = {
    status: 413,
    code: -32000,
    message: `Payload Too Large: Request body must not exceed ${opts.maxBytes} bytes`,
    reason: "body over the size limit",
  };
  const busy: Refusal = {
    status: 503,
    code: -32000,
    message: `Service Unavailable: ${mib(opts.budget.limit)} of request bodies are in progress already; retry shortly`,
    headers: { "Retry-After": "2" },
    reason: `bodies in flight at the limit (${mib(opts.budget.inUse)} of ${mib(opts.budget.limit)})`,
  };
  if (declared !== undefined && declared > opts.maxBytes) return Promise.resolve({ ok: false, refusal: tooLarge });
  // Bytes announced are reserved up front; a chunked body reserves as it arrives.
  let reserved = declared ?? 0;
  if (!opts.budget.take(reserved)) return Promise.resolve({ ok: false, refusal: busy });

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (r: BodyResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      if (!r.ok) {
        opts.budget.give(reserved);
        req.resume(); // nothing more is read into memory
      }
      resolve(r);
    };
    const timer =
      opts.deadlineMs === undefined
        ? undefined
        : setTimeout(
            () =>
              finish({
                ok: false,
                refusal: {
                  status: 408,
                  code: -32000,
                  message: `Request Timeout: the body did not arrive within ${opts.deadlineMs! / 1000} s`,
                  reason: `body not complete after ${opts.deadlineMs} ms (${received} bytes)`,
                },
              }),
            opts.deadlineMs,
          );
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > opts.maxBytes) return finish({ ok: false, refusal: tooLarge });
      if (received > reserved) {
        if (!opts.budget.take(received - reserved)) return finish({ ok: false, refusal: busy });
        reserved = received;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks, received).toString("utf8");
      chunks.length = 0;
      let held = true;
      const release = () => {
        if (held) opts.budget.give(reserved);
        held = false;
      };
      finish({ ok: true, text, release });
    };
    const onClose = () => finish({ ok: false, clientGone: `the client went away after ${received}${declared === undefined ? "" : ` of ${declared}`} bytes of the body` });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
  });
}
