// The 2026-07-28 half of the HTTP endpoint: each request stands alone (no session, no initialize), answered by the SDK's
// createMcpHandler with an McpServer built for it. The SDK checks what that protocol asks of a request (the
// Mcp-Method / Mcp-Name headers against the body: -32020; the version: -32022; a capability an input request needs:
// -32021), stamps results (resultType, ttlMs/cacheScope) and cancels a call when its response stream closes. Here:
// which requests are the new era's (the SDK's own isLegacyRequest), no batches, the tool selection of the request,
// the count of calls in flight for the shutdown, and the server handed to the SDK's factory. Bodies arrive already
// read and parsed (server.ts: size, budget, deadline) and are passed on parsed: the SDK's Node adapter would
// serialise them again.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { createMcpHandler, isLegacyRequest, type McpServer } from "@modelcontextprotocol/server";
import type { Refusal } from "./body.js";
import { readableId } from "./messages.js";
import { requestedSelection, type RequestedSelection } from "./session-selection.js";
import type { Logger } from "../../log.js";
import { ConfigError } from "../../config.js";

type Id = string | number;

export interface ModernEndpointOptions {
  newServer(signals: { stopping: AbortSignal; stop: AbortSignal; selection?: RequestedSelection }): McpServer;
  log: Logger;
  /** Puts a response under the send deadline (server.ts). */
  watchSend(res: ServerResponse): void;
}

/** The request's headers as the SDK reads them (no body: it is given parsed). */
function headersOnly(req: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":") || name === "content-length" || name === "transfer-encoding") continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, { method: req.method, headers, ...(signal && { signal }) });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  res.writeHead(response.status, headers);
  if (response.body === null) return void res.end();
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  res.once("close", () => body.destroy());
  body.pipe(res);
}

export function modernEndpoint(opts: ModernEndpointOptions) {
  const { log } = opts;
  // The server built for a request, found by the request the SDK hands its factory. Not an AsyncLocalStorage: its
  // store would stay on every async resource the call creates — a pooled connection to the service opened during the
  // call kept that call's whole McpServer for the connection's life.
  const serverOf = new WeakMap<Request, McpServer>();
  const handler = createMcpHandler(
    ({ requestInfo }) => {
      const server = requestInfo && serverOf.get(requestInfo);
      if (!server) throw new Error("a 2026-07-28 request reached the SDK without its server");
      return server;
    },
    { legacy: "reject", onerror: (err) => log.info(`protocol: ${err.message}`) },
  );
  const stopping = new AbortController();
  const stop = new AbortController();
  let running = 0;

  const untilIdle = async (ms: number) => {
    const end = Date.now() + ms;
    while (running > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  };

  return {
    /** Whether this request is the new era's (its _meta claims a protocol version), as the SDK routes it. */
    async claims(req: IncomingMessage, json: unknown): Promise<boolean> {
      return !(await isLegacyRequest(headersOnly(req), json));
    },

    async serve(req: IncomingMessage, res: ServerResponse, json: unknown, refuse: (r: Refusal, id: Id | null) => void): Promise<void> {
      if (Array.isArray(json)) {
        const message = "Invalid Request: protocol 2026-07-28 has no JSON-RPC batches; send each request in its own POST";
        return refuse({ status: 400, code: -32600, message, reason: "batch at 2026-07-28" }, null);
      }
      let server: McpServer;
      try {
        server = opts.newServer({ stopping: stopping.signal, stop: stop.signal, selection: requestedSelection(req) });
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        return refuse({ status: 400, code: -32602, message: `Bad Request: ${err.message}`, reason: "tool selection refused" }, readableId(json));
      }
      running++;
      res.once("close", () => running--);
      opts.watchSend(res);
      // Closing the response stream is how a 2026-07-28 client cancels: the SDK aborts the call on this signal.
      const gone = new AbortController();
      res.once("close", () => gone.abort());
      // The caller, for the state a call carries between its rounds (bound to it: src/mcp/request-state.ts).
      const token = /^Bearer[ \t]+(\S+)/i.exec(req.headers.authorization ?? "")?.[1];
      const authInfo = token === undefined ? undefined : { token, clientId: "bearer", scopes: [] };
      const request = headersOnly(req, gone.signal);
      serverOf.set(request, server);
      const response = await handler.fetch(request, { parsedBody: json, ...(authInfo && { authInfo }) });
      await writeResponse(response, res);
    },

    /** Calls being answered. */
    running: () => running,

    /** Tells the running calls to send nothing new and answer; past `ms`, stops them outright (and waits `ms` more). */
    async windDown(ms: number): Promise<void> {
      if (running === 0) return;
      stopping.abort();
      await untilIdle(ms);
      if (running === 0) return;
      stop.abort();
      await untilIdle(ms);
    },

    close: () => handler.close(),
  };
}
