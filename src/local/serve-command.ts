// `vecdb-mcp serve`: the local service alone, run with the settings src/serve-main.ts read and checked.
import { resolve } from "node:path";
import { acquireDataDirLock, DataDirInUseError } from "./storage/lock.js";
import { preparePrivateDir, UntrustedDataDirError } from "./storage/private-dir.js";

/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. */
function isLoopbackAddress(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface ServeOptions {
  dataDir: string;
  port: number;
  host: string;
  /** Given by --api-key or VECDB_LOCAL_API_KEY; unset: read <dataDir>/api-key, or generate one there. */
  apiKey?: string;
  /** Stop after this many seconds with no MCP server attached and no request (MCP servers start it so). */
  localIdleS?: number;
  embedUrl?: string;
  embedKey?: string;
  embedTimeoutMs: number;
  memoryLimitMb?: number;
  /** Namespaces with at least this many records get an approximate index; 0: never. */
  approximateAbove?: number;
  /** Directories bulk imports may read. */
  allowDirs: readonly string[];
}

export async function serveLocal(args: ServeOptions): Promise<void> {
  const { apiKey } = args;
  let service;
  let onIdle = () => {};
  try {
    const { localIdleS } = args;
    // The lock before the storage: of several services started at once on one data dir (MCP servers racing to
    // start it), the losers exit without loading lmdb. The directory is made private first (private-dir.ts).
    preparePrivateDir(resolve(args.dataDir));
    const heldLock = await acquireDataDirLock(resolve(args.dataDir));
    const { startLocalService } = await import("./index.js");
    service = await startLocalService({
      dataDir: args.dataDir,
      port: args.port,
      host: args.host,
      allowDirs: [...args.allowDirs],
      embedTimeoutMs: args.embedTimeoutMs,
      ...(apiKey !== undefined && { apiKey }),
      ...(args.embedUrl !== undefined && { embedUrl: args.embedUrl }),
      ...(args.embedKey !== undefined && { embedKey: args.embedKey }),
      ...(args.memoryLimitMb !== undefined && { memoryLimitBytes: args.memoryLimitMb * 1048576 }),
      ...(args.approximateAbove !== undefined && { approximateAbove: args.approximateAbove }),
      heldLock,
      ...(localIdleS !== undefined && { idleStopMs: localIdleS * 1000, onIdle: () => onIdle() }),
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
  onIdle = () => stop(`no MCP server attached and no request for ${args.localIdleS} s`);
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
function startFailure(e: unknown, args: ServeOptions): string {
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
