// One HTTP server per index, each on its own loopback port, like the real service's per-index hosts.
// A server is bound to one index id: a request on index B's port only ever reaches B's space.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { StoredIndex } from "../storage/inventory.js";
import { sendJsonInSlices } from "./json-answer.js";
import { answerClientErrors, answerIdentity, apiKeyMatches, readBody, requestUrl, sendJson, sendPlainUnauthorized, sendTooLargeAndClose, SERVER_TIMEOUTS } from "../http-util.js";
import { requestApiVersion } from "../api-version.js";
import { handleDataPlane, type DataPlaneIndex } from "./handlers.js";
import type { VectorStore } from "../search/engine.js";
import type { DataPlaneExtras } from "./types.js";
import type { Models } from "../models/available-models.js";

const DATA_PLANE_BODY_LIMIT = 10 * 1024 * 1024;
// A fetch names its ids in the URL (?ids=a&ids=b…): 1000 ids of up to 512 characters need far more than
// Node's default 16 KiB for the request line and headers (1000 UUIDs alone are ~41 KB).
const DATA_PLANE_HEADER_LIMIT = 1024 * 1024;

const dataError = (code: number, message: string) => ({ code, message, details: [] as unknown[] });

interface Running {
  server: Server;
  inFlight: Set<Promise<void>>;
  /** Requests whose body is still arriving: nothing has been done for them yet. */
  reading: Set<IncomingMessage>;
  /** Aborted when the server closes: answers still being written are cut off (json-answer.ts writes as the client reads). */
  closing: AbortController;
}

export interface DataServersOptions {
  host: string;
  apiKey: string;
  store: VectorStore;
  models?: Models;
  /** The current record of the index with this id, or undefined once it is gone. */
  lookup: (name: string, id: string) => StoredIndex | undefined;
  log: (line: string) => void;
  /** Told of every request as it starts (the service's quiet-period clock). */
  onRequest?: (req: IncomingMessage, res: ServerResponse) => void;
  extras?: DataPlaneExtras;
}

export function dataPlaneIndex(index: StoredIndex): DataPlaneIndex {
  // A sparse index has no dimension; the data plane gets 0 for it.
  const spec = index.spec;
  const filterable = "serverless" in spec ? (spec.serverless.schema ? Object.keys(spec.serverless.schema.fields) : undefined) : "pod" in spec ? spec.pod.metadata_config?.indexed : undefined;
  const kind = "pod" in spec ? "pod" : "serverless";
  const readCapacity = "serverless" in spec ? spec.serverless.read_capacity : "byoc" in spec ? spec.byoc.read_capacity : undefined;
  return {
    name: index.name, space: index.space, dimension: index.dimension ?? 0, metric: index.metric, vectorType: index.vectorType, kind, id: index.id,
    ...(index.embed ? { embed: index.embed } : {}),
    ...(filterable ? { filterable } : {}),
    ...(readCapacity?.mode === "Dedicated" ? { dedicatedReads: true } : {}),
    ...(index.schema ? { schema: index.schema } : {}),
  };
}

export class DataServers {
  private readonly running = new Map<string, Running>(); // by index id

  constructor(private readonly opts: DataServersOptions) {}

  /** Listens for the index, on `preferredPort` when it is free, else on a new free port; returns the port. */
  async open(index: StoredIndex, preferredPort: number): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    const reading = new Set<IncomingMessage>();
    const closing = new AbortController();
    const server = createServer({ ...SERVER_TIMEOUTS, maxHeaderSize: DATA_PLANE_HEADER_LIMIT }, (req, res) => {
      this.opts.onRequest?.(req, res);
      const work = this.handle(req, res, index.name, index.id, reading, closing.signal);
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    });
    server.keepAliveTimeout = 5000;
    answerClientErrors(server, (status, kind, message) => dataError(kind === "timeout" ? 4 : 3, message), "1 MiB");
    let port: number;
    try {
      port = await listen(server, this.opts.host, preferredPort);
    } catch (e) {
      if (preferredPort === 0 || (e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
      this.opts.log(`port ${preferredPort} of index ${index.name} is taken; moving it to a new port`);
      port = await listen(server, this.opts.host, 0);
    }
    this.running.set(index.id, { server, inFlight, reading, closing });
    return port;
  }

  /** Stops the index's server: no new connections, in-flight requests finish, then every socket closes. */
  async close(indexId: string): Promise<void> {
    const running = this.running.get(indexId);
    if (!running) return;
    this.running.delete(indexId);
    const closed = new Promise<void>((resolve) => running.server.close(() => resolve()));
    running.server.closeIdleConnections();
    // A client still sending its body (slow or stalled) must not hold up a delete or a shutdown: cut it off.
    for (const req of running.reading) req.socket.destroy();
    // Nor a client that stops reading its answer (before answers were written in slices, the connections were closed
    // with whatever of an answer was still unsent, too).
    running.closing.abort();
    await Promise.all([...running.inFlight]);
    running.server.closeAllConnections();
    await closed;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.close(id)));
  }

  private async handle(req: IncomingMessage, res: ServerResponse, name: string, id: string, reading: Set<IncomingMessage>, closing: AbortSignal): Promise<void> {
    try {
      if (answerIdentity(req, res, this.opts.apiKey, name)) return;
      if (!apiKeyMatches(req, this.opts.apiKey)) {
        if (requestApiVersion(req.headers) === "2026-07") sendPlainUnauthorized(res);
        else sendJson(res, 401, dataError(16, "Invalid API Key"));
        return;
      }
      reading.add(req);
      const read = await readBody(req, DATA_PLANE_BODY_LIMIT).finally(() => reading.delete(req));
      if (!read.ok) {
        if (read.reason === "too-large") {
          sendTooLargeAndClose(req, res, dataError(3, `Request body is larger than the limit of ${DATA_PLANE_BODY_LIMIT} bytes.`));
        }
        return;
      }
      const index = this.opts.lookup(name, id);
      if (!index) {
        sendJson(res, 404, dataError(5, `Index ${name} not found.`));
        return;
      }
      if (index.state !== "Ready") {
        sendJson(res, 503, dataError(14, `Index ${name} is not ready yet (state ${index.state}); retry shortly.`));
        return;
      }
      const url = requestUrl(req);
      if (!url) {
        sendJson(res, 400, dataError(3, `The request target ${JSON.stringify(req.url)} is not a valid URL path.`));
        return;
      }
      const answer = await handleDataPlane(
        { method: req.method ?? "GET", pathname: url.pathname, query: url.searchParams, body: read.body, apiVersion: requestApiVersion(req.headers) },
        dataPlaneIndex(index),
        this.opts.store,
        this.opts.extras,
        this.opts.models,
      );
      await sendJsonInSlices(res, answer.status, answer.body, closing);
    } catch (e) {
      this.opts.log(`data plane error on index ${name}: ${(e as Error).stack ?? String(e)}`);
      sendJson(res, 500, dataError(13, "Internal error"));
    }
  }
}

export function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off("listening", onListening);
      reject(e);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}
