// The MCP server's handle on the shared local service of its data dir: found or started in the
// background when the server starts (tools/list does not wait for it), attached to for as long as the server lives,
// and found or started again when it went away — a tool call that failed on the old one is then retried once
// (src/mcp/service-supply.ts).
import { createService, type Service } from "./api/service.js";
import type { HttpSettings } from "./api/http.js";
import type { Logger } from "./log.js";
import type { ServiceSupply } from "./mcp/service-supply.js";
import { ToolError } from "./tool-kit/tool-error.js";

export interface SharedLocalOptions {
  dataDir: string;
  bin: string;
  idleStopS: number;
  /** More `serve` arguments when this server starts the service (the first server's settings hold for all). */
  serveArgs?: readonly string[];
  /** The environment of a service it starts (with the embeddings server's URL: never on a command line). */
  serveEnv?: Readonly<Record<string, string | undefined>>;
  http: Omit<HttpSettings, "apiKey">;
  log: Logger;
  /** Why local at all, for the one stderr line ("PINECONE_API_KEY is not set"). */
  why: string;
  /** Told every key in use, so that logs and results redact it. */
  onKey: (apiKey: string) => void;
}

interface Connected {
  service: Service;
  instance: string;
  gone: boolean;
  detach(): void;
}

export function sharedLocalSupply(opts: SharedLocalOptions): ServiceSupply & { close(): Promise<void> } {
  let pending: Promise<Connected> | undefined;
  let active: Connected | undefined;
  let closed = false;

  const connect = async (): Promise<Connected> => {
    // Loaded here, so the hosted path never reads it; it holds no storage (lmdb stays in the service's process).
    const sharing = await import("./local/sharing/find-or-start.js");
    let found;
    try {
      found = await sharing.findOrStartService({ dataDir: opts.dataDir, bin: opts.bin, idleStopS: opts.idleStopS, serveArgs: opts.serveArgs, serveEnv: opts.serveEnv });
    } catch (err) {
      const reason = (err as Error).message.split("\n")[0];
      opts.log.error(`the local service of ${opts.dataDir} is not available: ${reason}`);
      throw new ToolError({
        problem: `The local service is not available: ${reason}`,
        next: "fix what the message says, then call again (the server tries to start the service on every call).",
      });
    }
    opts.onKey(found.apiKey);
    const service = createService({ ...opts.http, apiKey: found.apiKey, controllerUrl: found.url });
    const entry: Connected = { service, instance: found.instance, gone: false, detach: () => {} };
    entry.detach = sharing.attach(found, () => {
      entry.gone = true;
      if (!closed) opts.log.info(`the local service at ${found.url} (pid ${found.pid}) went away; the next call finds or starts another`);
    }).detach;
    const how = found.started
      ? `started it as pid ${found.pid}, shared by every server on this data dir, stops ${opts.idleStopS} s after the last one`
      : `shared with other servers, pid ${found.pid}`;
    opts.log.info(`${opts.why}: using the embedded local service at ${found.url} (data dir ${opts.dataDir}; ${how})`);
    active = entry;
    return entry;
  };

  const current = (): Promise<Connected> => {
    if (!pending) {
      const attempt = connect();
      pending = attempt;
      attempt.catch(() => {
        if (pending === attempt) pending = undefined; // the next call tries again
      });
    }
    return pending;
  };

  const replace = (old: Connected): Promise<Connected> => {
    if (active !== old) return current(); // another call replaced it already
    active = undefined;
    old.gone = true;
    old.detach();
    void old.service.close().catch(() => {});
    pending = undefined;
    return current();
  };

  void current().catch(() => {}); // start looking now; the first call waits for it

  return {
    async current() {
      let entry = await current();
      if (entry.gone) entry = await replace(entry);
      return entry.service;
    },
    async recover(used) {
      const entry = await current();
      if (entry.service !== used) return entry.service; // another call already moved on
      if (!entry.gone) {
        const { findService } = await import("./local/sharing/find-or-start.js");
        const now = await findService(opts.dataDir).catch(() => undefined);
        if (now?.instance === entry.instance) return undefined; // still there: the failure was the call's own
      }
      return (await replace(entry)).service;
    },
    async close() {
      closed = true;
      const entry = await pending?.catch(() => undefined);
      entry?.detach();
      await entry?.service.close();
    },
  };
}
