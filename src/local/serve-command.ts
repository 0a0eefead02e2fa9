// `vecdb-mcp serve --port N --data-dir DIR [--api-key-file FILE | --api-key KEY] [--host H]`: runs the local service alone.
import { readFileSync } from "node:fs";
import { embedUrlProblem } from "../shared/embed-url.js";
import { resolve } from "node:path";
import { acquireDataDirLock, DataDirInUseError } from "./storage/lock.js";
import { preparePrivateDir, UntrustedDataDirError } from "./storage/private-dir.js";

const USAGE = "usage: vecdb-mcp serve --data-dir DIR [--port N] [--api-key-file FILE | --api-key KEY] [--host 127.0.0.1] [--idle-stop-s N] [--allow-dir DIR]… [--embed-url URL] [--memory-limit-mb N] [--approximate-above N]";
/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. */
function isLoopbackAddress(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A given key shorter than this is refused: it would be guessed (or tried) quickly. */
export const MIN_API_KEY_LENGTH = 16;

export interface ServeArgs {
  dataDir: string;
  port: number;
  host: string;
  apiKey?: string;
  embedUrl?: string;
  memoryLimitBytes?: number;
  /** Namespaces with at least this many records get an approximate index; 0: never. */
  approximateAbove?: number;
  /** Stop after this many seconds with no MCP server attached and no request (MCP servers start it so). */
  idleStopS?: number;
  /** Directories bulk imports may read; --allow-dir is repeatable. */
  allowDirs: string[];
}

/**
 * The arguments, checked. The key may come from --api-key (visible to every local user in `ps`), --api-key-file, or
 * the environment variable VECDB_LOCAL_API_KEY (`envKey`, which the process reads: src/config.ts).
 */
export function parseServeArgs(argv: string[], envKey?: string): ServeArgs {
  const values = new Map<string, string>();
  const allowDirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!["--port", "--data-dir", "--api-key", "--api-key-file", "--host", "--idle-stop-s", "--allow-dir", "--embed-url", "--memory-limit-mb", "--approximate-above"].includes(flag)) throw new Error(`unknown argument ${arg}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--allow-dir") allowDirs.push(value);
    else values.set(flag, value);
  }
  const dataDir = values.get("--data-dir");
  if (!dataDir) throw new Error("--data-dir is required");
  const portText = values.get("--port") ?? "0";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`--port must be an integer from 0 to 65535 (got ${portText})`);
  const apiKey = givenKey(values, envKey);
  const idleText = values.get("--idle-stop-s");
  if (idleText !== undefined && (!/^\d+$/.test(idleText) || Number(idleText) < 1 || Number(idleText) > 86400)) {
    throw new Error(`--idle-stop-s must be an integer from 1 to 86400 (got ${idleText})`);
  }
  const embedUrl = values.get("--embed-url");
  const embedUrlRefused = embedUrl === undefined ? undefined : embedUrlProblem(embedUrl);
  if (embedUrlRefused !== undefined) throw new Error(`--embed-url ${embedUrlRefused}`);
  const limitText = values.get("--memory-limit-mb");
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || Number(limitText) < 1)) {
    throw new Error(`--memory-limit-mb must be a whole number of megabytes, at least 1 (got ${limitText})`);
  }
  const aboveText = values.get("--approximate-above");
  if (aboveText !== undefined && !/^\d{1,10}$/.test(aboveText)) {
    throw new Error(`--approximate-above must be a whole number of records, or 0 for never (got ${aboveText})`);
  }
  return {
    dataDir,
    port,
    host: values.get("--host") ?? "127.0.0.1",
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(embedUrl !== undefined ? { embedUrl } : {}),
    ...(limitText !== undefined ? { memoryLimitBytes: Number(limitText) * 1048576 } : {}),
    ...(aboveText !== undefined ? { approximateAbove: Number(aboveText) } : {}),
    ...(idleText !== undefined ? { idleStopS: Number(idleText) } : {}),
    allowDirs,
  };
}

function givenKey(values: Map<string, string>, envKey: string | undefined): string | undefined {
  const file = values.get("--api-key-file");
  if (file !== undefined && values.has("--api-key")) throw new Error("give --api-key or --api-key-file, not both");
  let key: string | undefined;
  let from: string;
  if (file !== undefined) {
    try {
      key = readFileSync(file, "utf8").trim();
    } catch (e) {
      throw new Error(`--api-key-file ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    from = `the key in ${file}`;
  } else {
    key = values.get("--api-key") ?? (envKey === "" ? undefined : envKey);
    from = values.has("--api-key") ? "--api-key" : "VECDB_LOCAL_API_KEY";
  }
  if (key === undefined) return undefined;
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new Error(`${from} must not contain line breaks or other control characters`);
  if ([...key].length < MIN_API_KEY_LENGTH) {
    throw new Error(`${from} must be at least ${MIN_API_KEY_LENGTH} characters (a short key is guessed quickly); leave it out and one is generated`);
  }
  return key;
}

/** `env`: what the bin read from the environment — the key (VECDB_LOCAL_API_KEY) and the embeddings-server settings
 * (VECDB_EMBED_URL / _KEY / _TIMEOUT_MS; --embed-url wins). */
export async function runServeCommand(
  argv: string[],
  env: { apiKey?: string; embedUrl?: string; embedKey?: string; embedTimeoutMs?: number } = {},
): Promise<void> {
  let args: ServeArgs;
  try {
    args = parseServeArgs(argv, env.apiKey);
    const envUrlRefused = env.embedUrl === undefined ? undefined : embedUrlProblem(env.embedUrl);
    if (envUrlRefused !== undefined) throw new Error(`VECDB_EMBED_URL ${envUrlRefused}`);
  } catch (e) {
    process.stderr.write(`vecdb-mcp serve: ${(e as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  let service;
  let onIdle = () => {};
  try {
    const { idleStopS, ...rest } = args;
    // The lock before the storage: of several services started at once on one data dir (MCP servers racing to
    // start it), the losers exit without loading lmdb. The directory is made private first (private-dir.ts).
    preparePrivateDir(resolve(args.dataDir));
    const heldLock = await acquireDataDirLock(resolve(args.dataDir));
    const { startLocalService } = await import("./index.js");
    const { apiKey: _fromEnv, ...models } = env;
    service = await startLocalService({
      ...models,
      ...rest,
      heldLock,
      ...(idleStopS !== undefined && { idleStopMs: idleStopS * 1000, onIdle: () => onIdle() }),
    });
  } catch (e) {
    process.stderr.write(`vecdb-mcp serve: ${startFailure(e, args)}\n`);
    process.exit(1);
  }
  const running = service;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`vecdb-mcp local service: ${/^SIG/.test(signal) ? `${signal} received` : signal}, closing\n`);
    running.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`vecdb-mcp local service: close failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  // Handlers before the line: whoever reads the line may signal at once.
  onIdle = () => stop(`no MCP server attached and no request for ${args.idleStopS} s`);
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  if (isLoopbackAddress(args.host)) {
    process.stderr.write(`vecdb-mcp local service listening on ${service.controlUrl} (data dir ${service.dataDir})\n`);
  } else {
    // The address it really listens on, not the loopback URL this machine's clients use.
    const port = new URL(service.controlUrl).port;
    const bound = args.host.includes(":") ? `[${args.host}]` : args.host;
    process.stderr.write(
      `vecdb-mcp local service listening on http://${bound}:${port} (data dir ${service.dataDir}); from this machine: ${service.controlUrl}\n` +
        `vecdb-mcp local service: warning: plain HTTP on a non-loopback address — the API key and every record cross the network unencrypted; ` +
        `keep it on a trusted network or behind a TLS proxy\n`,
    );
  }
}

/** Why the service did not start, in one line when the cause is the user's to fix; a stack trace otherwise. */
function startFailure(e: unknown, args: ServeArgs): string {
  if (e instanceof DataDirInUseError || e instanceof UntrustedDataDirError) return e.message;
  const err = e as NodeJS.ErrnoException;
  if (err.code === "EADDRINUSE") {
    return `port ${args.port} on ${args.host} is already in use; choose another --port (or --port 0 for a free one).`;
  }
  if (err.code === "EACCES" && err.syscall === "listen") {
    return `not allowed to listen on port ${args.port} on ${args.host}; choose a port above 1023 (or --port 0 for a free one).`;
  }
  if (typeof err.code === "string" && typeof err.message === "string") return err.message; // e.g. ENOTDIR: not a directory, mkdir '…'
  return err.stack ?? String(e);
}
