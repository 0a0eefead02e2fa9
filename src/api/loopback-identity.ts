// Before the API key goes to a loopback port, the service listening there proves that it is the local service —
// that it holds the key — without the key being sent. Why: any local user can listen on a port the local service
// left (it restarted and its index moved); a client that still had the old host cached would hand that user the key
// in its next request's header.
//
// The proof is asked once per connection, on the connection itself, before undici sends anything on it: a request
// `GET /_vecdb/identity?nonce=<random>` without the key, answered with {"proof": HMAC-SHA256 under the key of the
// nonce, the port and what listens there} (src/common/identity-proof.ts) — the same question the shared local service
// (src/local/sharing) answers on its control plane, asked here of its data planes too. The client checks the proof
// against the port IT dialled and the index it expects there, so a listener that relays the question to a live port of
// the real service gets an answer for the wrong port, and is refused.
// Every key-bearing request then travels on a socket whose other end proved it. A loopback service that is not ours
// (e.g. Pinecone Local) does not know the question at all (a 4xx without a proof): when the control plane answers so
// at first contact, no proof is asked of that service or its hosts (the key still goes only to hosts its control plane
// named). Anything else — a wrong proof, no answer, a busy answer — refuses that connection and decides nothing: the
// checks stay on. Once the control plane has proved itself (or it is the embedded service), every loopback listener must.
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import { buildConnector } from "undici";
import { IDENTITY_PATH, proofMatches, type IdentityBinding } from "../common/identity-proof.js";
import { isLoopbackHost } from "../common/loopback.js";

const PROOF_TIMEOUT_MS = 5000;
const MAX_ANSWER_BYTES = 8192;

/**
 * The connection was given up because the listener did not prove it is the local service. `retriable`: it did not
 * answer (reset, timeout, 429 / 5xx) rather than answer wrongly — worth another try, like a dropped connection.
 */
export class IdentityError extends Error {
  readonly code = "VECDB_IDENTITY";
  constructor(
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
  }
}

export interface IdentityPolicy {
  /** "ours": every loopback listener must prove; "unknown": decided by the control plane's first answer. */
  initial: "ours" | "unknown";
  controllerOrigin: string;
  apiKey: string;
  /** The index whose data plane the control plane placed at this origin, when it named one. */
  indexAt?: (origin: string) => string | undefined;
}

/** An undici connector that asks each new loopback connection for the proof before handing it to undici. */
export function identityCheckingConnector(options: buildConnector.BuildOptions, policy: IdentityPolicy): buildConnector.connector {
  const base = buildConnector(options);
  const timeoutMs = Math.min(PROOF_TIMEOUT_MS, options.timeout ?? PROOF_TIMEOUT_MS);
  let mode: "ours" | "unknown" | "foreign" = policy.initial;
  return (opts, callback) => {
    base(opts, (err, socket) => {
      if (err || socket === null) return callback(err ?? new Error("no connection"), null);
      if (mode === "foreign" || !isLoopbackHost(opts.hostname)) return callback(null, socket);
      const host = opts.host ?? `${opts.hostname}:${opts.port}`;
      const origin = `${opts.protocol}//${host}`;
      const firstContact = mode === "unknown" && origin === policy.controllerOrigin;
      const dialled = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
      const isController = origin === policy.controllerOrigin;
      const expectedIndex = isController ? undefined : policy.indexAt?.(origin);
      const refuse = (why: string, retriable: boolean) => {
        socket.destroy();
        callback(new IdentityError(`the service listening at ${origin} ${why}, so the API key was not sent`, retriable), null);
      };
      prove(socket as Socket, host, policy.apiKey, timeoutMs, (claimed) => {
        // The proof is for what the client dialled: this port, and the index it expects there (or the control plane).
        if (isController ? claimed !== undefined : expectedIndex !== undefined && claimed !== expectedIndex) return undefined;
        return { port: dialled, ...(claimed !== undefined && { index: claimed }) };
      }).then(
        (answer) => {
          if (answer === "busy") return refuse("was too busy to answer the identity check", true);
          if (answer === "unknown" && firstContact) {
            // The control plane does not know the question at all: a loopback service that is not ours. No proof is
            // asked of it or its hosts from now on; this connection is made again, unchecked.
            socket.destroy();
            mode = "foreign";
            return base(opts, callback);
          }
          if (answer !== "proved") {
            return refuse("could not prove it is the vecdb-mcp local service for the port and index dialled (it does not hold this API key, or it relays another port's answer)", false);
          }
          if (isController) mode = "ours";
          callback(null, socket);
        },
        (e: unknown) => refuse(`did not answer the identity check (${e instanceof Error ? e.message : String(e)})`, true),
      );
    });
  };
}

/** One challenge on the raw socket (plain HTTP/1.1, keep-alive), read back without leaving bytes behind. */
function prove(
  socket: Socket,
  host: string,
  apiKey: string,
  timeoutMs: number,
  bindingFor: (claimedIndex: string | undefined) => IdentityBinding | undefined,
): Promise<"proved" | "wrong" | "busy" | "unknown"> {
  const challenge = randomBytes(32).toString("hex");
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length > MAX_ANSWER_BYTES) return finish(new Error("the answer is too long"));
      const end = got.indexOf("\r\n\r\n");
      if (end === -1) return;
      const head = got.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
      if (!Number.isSafeInteger(length)) return finish(new Error("the answer has no Content-Length"));
      if (got.length < end + 4 + length) return;
      if (got.length > end + 4 + length) return finish(new Error("the answer is followed by more bytes"));
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      const body = got.subarray(end + 4).toString("utf8");
      if (status === 429 || status >= 500) return finish(undefined, "busy");
      if (/\r\nconnection:\s*close/i.test(head)) return finish(new Error("the service closes the connection"));
      let answer: { proof?: unknown; index?: unknown } = {};
      try {
        answer = (JSON.parse(body) as typeof answer | null) ?? {};
      } catch {
        // not JSON: no proof
      }
      if (status >= 400 && status < 500 && answer.proof === undefined) return finish(undefined, "unknown");
      const claimed = typeof answer.index === "string" ? answer.index : undefined;
      const binding = bindingFor(claimed);
      finish(undefined, status === 200 && binding !== undefined && proofMatches(apiKey, challenge, binding, answer.proof) ? "proved" : "wrong");
    };
    const onClose = () => finish(new Error("the connection closed"));
    const finish = (err?: Error, answer?: "proved" | "wrong" | "busy" | "unknown") => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("error", onClose);
      socket.off("close", onClose);
      if (err) reject(err);
      else resolve(answer!);
    };
    socket.on("data", onData);
    socket.on("error", onClose);
    socket.on("close", onClose);
    socket.write(`GET ${IDENTITY_PATH}?nonce=${challenge} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\nAccept: application/json\r\n\r\n`);
  });
}
