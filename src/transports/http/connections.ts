// Connections: how many one client may hold, and the status a malformed or slow request gets. Setting a
// `clientError` handler replaces Node's own mapping (which answers 431 and 408), so it is redone here.
//
// A connection counts against its client (clientOf: all of loopback is one client, an IPv6 /64 is one) only until it
// carries a request of a session; from then on it counts against that session. So clients behind one address (every
// client on loopback, or behind a proxy) are not capped together once they have sessions, and a session is never cut
// off by a cap meant for strangers: past the cap a connection is still taken, on probation, and its request is
// answered — served if it belongs to a session, refused with a JSON-RPC 503 otherwise. Past twice the cap a
// connection is refused at once (a client opening thousands of idle connections holds no more than that).
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../../log.js";
import type { Refusal } from "./body.js";
import { clientOf, type TrustedProxies } from "./client-address.js";

function rawReply(socket: Socket, status: string, extra = ""): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: status }, id: null });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

/** Node's error codes for a request it could not read, and the status each gets. */
function statusOf(code: string | undefined): string {
  if (code === "HPE_HEADER_OVERFLOW") return "431 Request Header Fields Too Large";
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return "408 Request Timeout";
  if (code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return "413 Payload Too Large";
  return "400 Bad Request";
}

interface ConnectionCaps {
  /** A request of a live session arrived on this connection: it now counts against the session. */
  toSession(socket: Socket, session: string): Refusal | undefined;
  /** A request that opens a session arrived on this connection: refused if the connection is over its client's cap. */
  forNewSession(socket: Socket): Refusal | undefined;
  /** The session ended: its connections count against their clients again. */
  sessionEnded(session: string): void;
}

interface Held {
  client: string;
  /** From a trusted proxy: not counted against its address (it carries everyone). */
  proxied: boolean;
  session?: string;
  probation: boolean;
}

/** The session of a connection whose session has ended. */
const ENDED = "";

export function limitConnections(http: Server, opts: { maxPerClient: number; trusted: TrustedProxies; log: Logger }): ConnectionCaps {
  const max = opts.maxPerClient;
  const free = new Map<string, number>(); // connections of no session, per client
  const ofSession = new Map<string, Set<Socket>>();
  const held = new Map<Socket, Held>();

  const add = (map: Map<string, number>, key: string, n: number) => {
    const v = (map.get(key) ?? 0) + n;
    if (v <= 0) map.delete(key);
    else map.set(key, v);
  };
  const detach = (socket: Socket, h: Held) => {
    if (h.session === ENDED) h.session = undefined;
    else if (h.session !== undefined) {
      const set = ofSession.get(h.session);
      set?.delete(socket);
      if (set?.size === 0) ofSession.delete(h.session);
      h.session = undefined;
    } else if (!h.proxied) add(free, h.client, -1);
  };

  http.on("connection", (socket: Socket) => {
    const client = clientOf(socket.remoteAddress);
    const proxied = opts.trusted.trusts(socket.remoteAddress);
    const n = proxied ? 0 : (free.get(client) ?? 0);
    if (n >= 2 * max) {
      opts.log.info(`refused a connection from ${socket.remoteAddress}: its client (${client}) holds ${n} connections outside sessions already`);
      rawReply(socket, "503 Service Unavailable", "Retry-After: 5\r\n");
      socket.destroySoon();
      return;
    }
    const h: Held = { client, proxied, probation: n >= max };
    held.set(socket, h);
    if (!proxied) add(free, client, 1);
    socket.once("close", () => {
      detach(socket, h);
      held.delete(socket);
    });
  });

  const overClient = (h: Held): Refusal => ({
    status: 503,
    code: -32000,
    message: `Service Unavailable: too many connections from your address (${max} outside sessions); reuse one, or retry shortly`,
    headers: { "Retry-After": "5" },
    reason: `its client (${h.client}) holds ${max} connections outside sessions`,
  });

  http.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      opts.log.debug(`connection from ${socket.remoteAddress} dropped: ${err.code ?? err.message}`);
      return void socket.destroy();
    }
    const status = statusOf(err.code);
    opts.log.info(`refused a request from ${socket.remoteAddress}: ${status} (${err.code ?? err.message})`);
    rawReply(socket, status);
  });

  return {
    toSession(socket, session) {
      const h = held.get(socket);
      if (!h || h.session === session) return undefined;
      const set = ofSession.get(session) ?? new Set<Socket>();
      if (set.size >= max) {
        return {
          status: 503,
          code: -32000,
          message: `Service Unavailable: this session holds ${max} connections already; send on one of them, or retry shortly`,
          headers: { "Retry-After": "5" },
          reason: `session ${session} holds ${max} connections`,
        };
      }
      detach(socket, h);
      h.session = session;
      h.probation = false;
      ofSession.set(session, set.add(socket));
      return undefined;
    },
    forNewSession(socket) {
      const h = held.get(socket);
      return h?.probation ? overClient(h) : undefined;
    },
    sessionEnded(session) {
      // Its connections count against nothing more: idle, they close at the keep-alive timeout; carrying a request of
      // another session, they count against that one. Put back on their client, the connections of a hundred
      // sessions ending at once would shut that client's new connections out.
      for (const socket of ofSession.get(session) ?? []) {
        const h = held.get(socket);
        if (h) h.session = ENDED;
      }
      ofSession.delete(session);
    },
  };
}
