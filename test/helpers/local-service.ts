// Starts the built local service (`node dist/vecdb-mcp.js serve …`, the shipped bin) as a child process for tests.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { BUNDLE, ensureBundle, ROOT } from "./bundle.js";

export { ROOT as repoRoot, BUNDLE as cliPath };
ensureBundle(); // rebuilt here when a source is newer than it

/** The keys of the services started here: the tests' forwarding proxy answers their identity question for its own port. */
export const startedServiceKeys = new Set<string>();

export interface RunningService {
  controlUrl: string;
  apiKey: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the child wrote on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), "vecdb-local-"));
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

export function startServiceProcess(
  opts: { dataDir?: string; apiKey?: string; timeoutMs?: number; allowDirs?: string[]; args?: string[]; env?: Record<string, string> } = {},
): Promise<RunningService> {
  if (!existsSync(BUNDLE)) {
    return Promise.reject(new Error(`${BUNDLE} is missing: build first with \`npm run build\``));
  }
  const dataDir = opts.dataDir ?? newDataDir();
  const apiKey = opts.apiKey ?? `test-${randomBytes(12).toString("hex")}`;
  startedServiceKeys.add(apiKey);
  const allow = (opts.allowDirs ?? []).flatMap((d) => ["--allow-dir", d]);
  const child = spawn(process.execPath, [BUNDLE, "serve", "--port", "0", "--data-dir", dataDir, "--api-key", apiKey, ...allow, ...(opts.args ?? [])], {
    stdio: ["ignore", "ignore", "pipe"],
    ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
  });
  let err = "";
  child.stderr!.setEncoding("utf8");
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the local service did not start within ${opts.timeoutMs ?? 15000} ms; stderr:\n${err}`));
    }, opts.timeoutMs ?? 15000);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`the local service exited (code ${code}, signal ${signal}) before listening; stderr:\n${err}`));
    };
    child.once("exit", onExit);
    child.stderr!.on("data", (chunk: string) => {
      err += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (!match) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      child.stderr!.removeAllListeners("data");
      child.stderr!.on("data", (more: string) => (err += more));
      resolvePromise({
        controlUrl: match[1],
        apiKey,
        dataDir,
        child,
        stderr: () => err,
        async stop() {
          const done = exited(child);
          child.kill("SIGTERM");
          await done;
        },
        async kill() {
          const done = exited(child);
          child.kill("SIGKILL");
          await done;
        },
      });
    });
  });
}

/**
 * One built service for a test file's tests: started before them, stopped after, its data dir removed. Returns a
 * getter for it (and calls `then`, if given, once it listens: e.g. to make a client for it).
 */
export function useServiceProcess(then?: (svc: RunningService) => void): () => RunningService {
  let svc: RunningService | undefined;
  beforeAll(async () => {
    svc = await startServiceProcess();
    then?.(svc);
  });
  afterAll(async () => {
    await svc?.stop();
    if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
  });
  return () => svc!;
}
