// The service's side of sharing: it proves who it is (identity), counts the MCP servers attached to it (each holds
// one long request open for as long as it lives, so a server killed with -9 detaches too), and — when started with
// a quiet period — stops itself once nothing is attached and no request came for that long.
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerIdentity, apiKeyMatches, requestUrl } from "../http-util.js";
import { ATTACH_PATH } from "./identity.js";

export interface LifecycleOptions {
  apiKey: string;
  /** Stop after this long with nothing attached and no request; undefined: never (a service run by hand). */
  idleStopMs?: number;
  onIdle?: () => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export class Lifecycle {
  private attached = new Set<ServerResponse>();
  private inFlight = 0;
  private lastActivity = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: LifecycleOptions) {
    const idle = opts.idleStopMs;
    if (idle !== undefined) {
      this.timer = setInterval(() => this.check(), Math.min(5000, Math.max(100, idle / 4)));
      this.timer.unref();
    }
  }

  /** Counts a request of any plane as activity, from its start until its answer is sent — only one that carries the
   * key: anyone can reach the port, and a stranger's refused requests must not keep the service alive. */
  track(req: IncomingMessage, res: ServerResponse): void {
    if (!apiKeyMatches(req, this.opts.apiKey)) return;
    this.inFlight++;
    this.lastActivity = Date.now();
    res.once("close", () => {
      this.inFlight--;
      this.lastActivity = Date.now();
    });
  }

  /** The control plane's handler with the sharing routes in front of it. */
  wrap(handler: Handler): Handler {
    return (req, res) => {
      this.track(req, res);
      const url = requestUrl(req);
      if (answerIdentity(req, res, this.opts.apiKey)) return;
      if (url?.pathname === ATTACH_PATH && req.method === "GET" && apiKeyMatches(req, this.opts.apiKey)) return this.attach(res);
      return handler(req, res);
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const res of this.attached) res.destroy();
  }

  private attach(res: ServerResponse): void {
    this.attached.add(res);
    res.once("close", () => this.attached.delete(res));
    res.writeHead(200, { "content-type": "text/plain", "cache-control": "no-store" });
    res.write("attached\n"); // the headers reach the server now: it knows the attach took
  }

  private check(): void {
    const idle = this.opts.idleStopMs;
    if (idle === undefined || this.attached.size > 0 || this.inFlight > 0) return;
    if (Date.now() - this.lastActivity < idle) return;
    this.stop();
    this.opts.onIdle?.();
  }
}
