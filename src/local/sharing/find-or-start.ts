// The MCP server's side of sharing: find the data dir's running service (descriptor → pid alive → it proves its
// identity on its port), or start one detached (`vecdb-mcp serve` with a quiet period) and wait until it is there.
// Ten servers racing end with one service: every `serve` started races for the data dir's lock, the losers exit,
// and every server takes whichever service the descriptor then names. This module loads no storage (no lmdb).
import { spawn } from "node:child_process";
import { closeSync, constants, openSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { readDescriptor, type Descriptor } from "./descriptor.js";
import { ATTACH_PATH, newNonce } from "./identity.js";
import { IDENTITY_PATH, proofMatches } from "../../common/identity-proof.js";
import { lockOwner, pidAlive } from "../storage/lock.js";
import { preparePrivateDir } from "../storage/private-dir.js";

const SERVICE_LOG_FILE = "service.log";

export interface FoundService {
  url: string;
  apiKey: string;
  pid: number;
  instance: string;
  /** True when this call started it. */
  started: boolean;
}

export interface FindOptions {
  dataDir: string;
  /** The bin to start as `serve` (this process's own script). */
  bin: string;
  /** The quiet period the started service stops after. */
  idleStopS: number;
  /** How long to wait for a started service; default 20 s. */
  timeoutMs?: number;
  /** More `serve` arguments for a service this call starts (e.g. --allow-dir for its bulk imports). */
  serveArgs?: readonly string[];
  /** The whole environment of a service it starts (what it adds is kept off its command line, which ps shows every
   * user); unset: this process's own. */
  serveEnv?: Readonly<Record<string, string | undefined>>;
}

/** The service could not be found or started; the message says why and what to do. */
class ServiceUnavailable extends Error {}

/** Asks the port to prove it is the descriptor's service (see identity.ts); false when silent or someone else. */
function verifyIdentity(d: Descriptor, timeoutMs = 2000): Promise<boolean> {
  const nonce = newNonce();
  return new Promise((resolve) => {
    const req = request(`${d.url}${IDENTITY_PATH}?nonce=${nonce}`, { method: "GET", timeout: timeoutMs, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        if (body.length > 4096) req.destroy();
      });
      res.on("end", () => {
        try {
          const parsed = JSON.parse(body) as { proof?: unknown };
          resolve(res.statusCode === 200 && proofMatches(d.apiKey, nonce, { port: Number(new URL(d.url).port) }, parsed.proof));
        } catch {
          resolve(false);
        }
      });
      res.on("error", () => resolve(false));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}

/** The data dir's service when it is running and proves it; undefined otherwise. Throws DescriptorRefused. */
export async function findService(dataDir: string): Promise<Descriptor | undefined> {
  const d = readDescriptor(dataDir);
  if (!d || !pidAlive(d.pid)) return undefined;
  return (await verifyIdentity(d)) ? d : undefined;
}

export async function findOrStartService(opts: FindOptions): Promise<FoundService> {
  // Before anything is read or written in it (the descriptor, service.log): a data dir of another user is refused.
  preparePrivateDir(opts.dataDir);
  const running = await findService(opts.dataDir);
  if (running) return { ...running, started: false };

  const child = startDetached(opts);
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  child.once("error", () => (exited = -1));
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  let graceUntil = Infinity;
  while (Date.now() < deadline) {
    const found = await findService(opts.dataDir);
    if (found) return { ...found, started: found.pid === child.pid };
    // Ours lost the race for the lock (another server's start won): give the winner a moment to say where it is.
    if (exited !== undefined && graceUntil === Infinity) graceUntil = Date.now() + 5000;
    if (Date.now() > graceUntil) break;
    await sleep(25);
  }
  if (exited === undefined) child.kill("SIGTERM");
  throw new ServiceUnavailable(whyNotStarted(opts.dataDir, exited));
}

function startDetached(opts: FindOptions) {
  const logPath = join(opts.dataDir, SERVICE_LOG_FILE);
  const log = openSync(logPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    // Its own process group, no terminal, no pipe to us: it outlives this server, and writes its lines to the log.
    const child = spawn(
      process.execPath,
      [opts.bin, "serve", "--data-dir", opts.dataDir, "--port", "0", "--local-idle-s", String(opts.idleStopS), ...(opts.serveArgs ?? [])],
      { detached: true, stdio: ["ignore", "ignore", log], windowsHide: true, env: opts.serveEnv },
    );
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

function whyNotStarted(dataDir: string, exitCode: number | null | undefined): string {
  const owner = lockOwner(dataDir);
  if (owner !== undefined && pidAlive(owner)) {
    return (
      `the local service of ${dataDir} (pid ${owner}) holds the data dir but does not answer. ` +
      `Stop it (kill ${owner}) and call again.`
    );
  }
  const logPath = join(dataDir, SERVICE_LOG_FILE);
  let last = "";
  try {
    if (statSync(logPath).size > 0) last = readFileSync(logPath, "utf8").trim().split("\n").at(-1) ?? "";
  } catch {
    // no log
  }
  const how = exitCode === undefined ? "did not start in time" : `exited (code ${exitCode})`;
  return `the local service for ${dataDir} ${how}${last ? `: ${last}` : ""} (log: ${logPath})`;
}

/**
 * Holds one request open to the service for as long as this process lives: the service counts it as an attached
 * MCP server. `onLost` runs once when the connection ends for any reason but `detach()` (the service went away).
 */
export function attach(d: Pick<Descriptor, "url" | "apiKey">, onLost: () => void): { detach(): void } {
  let detached = false;
  let lost = false;
  const lose = () => {
    if (detached || lost) return;
    lost = true;
    onLost();
  };
  const req = request(`${d.url}${ATTACH_PATH}`, { method: "GET", headers: { "Api-Key": d.apiKey }, agent: false }, (res) => {
    if (res.statusCode !== 200) {
      res.resume();
      lose();
      return;
    }
    res.on("data", () => {});
    res.on("end", lose);
    res.on("close", lose);
    res.on("error", lose);
  });
  req.on("socket", (socket) => socket.unref()); // never what keeps this process alive
  req.on("error", lose);
  req.end();
  return {
    detach() {
      detached = true;
      req.destroy();
    },
  };
}
