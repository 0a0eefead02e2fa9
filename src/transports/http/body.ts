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

/**
 * The slowest a body may arrive once its allowance (the request deadline) is spent: a body of N MiB must be complete
 * within the deadline plus N seconds. A sender that trickles holds its connection (and the few bytes it sent) no
 * longer than that.
 */
const MIN_BODY_BYTES_PER_S = 1024 * 1024;

const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`;

/** On success the body's bytes stay reserved in the budget until `release()` (called once the request is answered). */
export type BodyResult = { ok: true; text: string; release(): void } | { ok: false; refusal?: Refusal; clientGone?: string };

/**
 * Reads the whole body as UTF-8, its bytes reserved in the budget as they arrive (a declared Content-Length reserves
 * nothing: announcing 256 MiB and sending a byte a second holds a byte a second) and held until released. Refuses a
 * body over maxBytes (413), one the budget cannot hold (503 + Retry-After), and one not complete within deadlineMs plus
 * a second per MiB received (408). A client that goes away mid-body is `clientGone`. After a refusal the rest of the
 * body is read and dropped (see `discardRest`), so that the client receives the answer rather than a reset.
 */
export function readBody(req: IncomingMessage, opts: { maxBytes: number; budget: BodyBudget; deadlineMs: number }): Promise<BodyResult> {
  const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
  const tooLarge: Refusal = {
    status: 413,
    code: -32000,
    message: `Payload Too Large: Request body must not exceed ${opts.maxBytes} bytes`,
    reason: "body over the size limit",
  };
  const busy = (): Refusal => ({
    status: 503,
    code: -32000,
    message: `Service Unavailable: ${mib(opts.budget.limit)} of request bodies are in progress already; retry shortly`,
    headers: { "Retry-After": "2" },
    reason: `bodies in flight at the limit (${mib(opts.budget.inUse)} of ${mib(opts.budget.limit)})`,
  });
  if (declared !== undefined && declared > opts.maxBytes) return Promise.resolve({ ok: false, refusal: tooLarge });
  const started = Date.now();

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
        opts.budget.give(received);
        chunks.length = 0;
        req.resume(); // nothing more is read into memory
      }
      resolve(r);
    };
    const allowedMs = () => opts.deadlineMs + (received / MIN_BODY_BYTES_PER_S) * 1000;
    const check = () => {
      const late = Date.now() - started - allowedMs();
      if (late < 0) return void (timer = setTimeout(check, -late));
      finish({
        ok: false,
        refusal: {
          status: 408,
          code: -32000,
          message: `Request Timeout: the body did not arrive in time (${opts.deadlineMs / 1000} s, plus a second per MiB)`,
          reason: `body not complete after ${Date.now() - started} ms (${received}${declared === undefined ? "" : ` of ${declared}`} bytes)`,
        },
      });
    };
    let timer = setTimeout(check, opts.deadlineMs);
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > opts.maxBytes) return finish({ ok: false, refusal: tooLarge });
      if (!opts.budget.take(chunk.length)) return finish({ ok: false, refusal: busy() });
      received += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks, received).toString("utf8");
      chunks.length = 0;
      let held = true;
      const release = () => {
        if (held) opts.budget.give(received);
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

/**
 * A request refused while its body was still arriving (the budget could not hold it): the rest is read and dropped —
 * it costs bandwidth, not memory — so that the client, still sending, receives the answer on an open connection
 * rather than a reset (undici: `fetch failed`). The connection is cut if the rest has not come within the deadline
 * plus a second per MiB still declared. Returns false when there is nothing left to read.
 */
export function discardRest(req: IncomingMessage, deadlineMs: number): boolean {
  if (req.complete) return false;
  const declared = Number(req.headers["content-length"] ?? 0) || 0;
  req.resume();
  const cut = setTimeout(() => req.socket.destroy(), deadlineMs + (declared / MIN_BODY_BYTES_PER_S) * 1000);
  cut.unref();
  const stop = () => clearTimeout(cut);
  req.once("end", stop);
  req.once("close", stop);
  return true;
}
