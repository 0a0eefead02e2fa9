// `vecdb-mcp serve --port N --data-dir DIR [--api-key KEY] [--host H]`: runs the local service alone.
import { startLocalService } from "./index.js";
import { DataDirInUseError } from "./storage/lock.js";

const USAGE = "usage: vecdb-mcp serve --data-dir DIR [--port N] [--api-key KEY] [--host 127.0.0.1] [--embed-url URL] [--memory-limit-mb N]";

export interface ServeArgs {
  dataDir: string;
  port: number;
  host: string;
  apiKey?: string;
  embedUrl?: string;
  memoryLimitBytes?: number;
}

export function parseServeArgs(argv: string[]): ServeArgs {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!["--port", "--data-dir", "--api-key", "--host", "--embed-url", "--memory-limit-mb"].includes(flag)) throw new Error(`unknown argument ${arg}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    values.set(flag, value);
  }
  const dataDir = values.get("--data-dir");
  if (!dataDir) throw new Error("--data-dir is required");
  const portText = values.get("--port") ?? "0";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`--port must be an integer from 0 to 65535 (got ${portText})`);
  const apiKey = values.get("--api-key");
  const embedUrl = values.get("--embed-url");
  if (embedUrl !== undefined && !(/^https?:\/\//.test(embedUrl) && URL.canParse(embedUrl))) {
    throw new Error(`--embed-url must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1 (got ${embedUrl})`);
  }
  const limitText = values.get("--memory-limit-mb");
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || Number(limitText) < 1)) {
    throw new Error(`--memory-limit-mb must be a whole number of megabytes, at least 1 (got ${limitText})`);
  }
  return {
    dataDir,
    port,
    host: values.get("--host") ?? "127.0.0.1",
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(embedUrl !== undefined ? { embedUrl } : {}),
    ...(limitText !== undefined ? { memoryLimitBytes: Number(limitText) * 1048576 } : {}),
  };
}

/** `env`: the embeddings-server settings from the environment (VECDB_EMBED_URL / _KEY / _TIMEOUT_MS), read by the bin. */
export async function runServeCommand(argv: string[], env: { embedUrl?: string; embedKey?: string; embedTimeoutMs?: number } = {}): Promise<void> {
  let args: ServeArgs;
  try {
    args = parseServeArgs(argv);
  } catch (e) {
    process.stderr.write(`vecdb-mcp serve: ${(e as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  let service;
  try {
    service = await startLocalService({ ...env, ...args });
  } catch (e) {
    process.stderr.write(`vecdb-mcp serve: ${startFailure(e, args)}\n`);
    process.exit(1);
  }
  const running = service;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`vecdb-mcp local service: ${signal} received, closing\n`);
    running.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`vecdb-mcp local service: close failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  // Handlers before the line: whoever reads the line may signal at once.
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.stderr.write(`vecdb-mcp local service listening on ${service.controlUrl} (data dir ${service.dataDir})\n`);
}

/** Why the service did not start, in one line when the cause is the user's to fix; a stack trace otherwise. */
function startFailure(e: unknown, args: ServeArgs): string {
  if (e instanceof DataDirInUseError) return e.message;
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
