// The embedded local service: the vector database API on loopback, durable in one lmdb env in the data dir.
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { open, type RootDatabase } from "lmdb";
import { resolveApiKey } from "./storage/api-key.js";
import { Catalog } from "./storage/catalog.js";
import { controlPlaneHandler } from "./control/routes.js";
import { DataServers, listen } from "./data/servers.js";
import { answerClientErrors, SERVER_TIMEOUTS } from "./http-util.js";
import { ControlError } from "./control/errors.js";
import { acquireDataDirLock } from "./storage/lock.js";
import { Registry } from "./control/registry.js";
import { VectorStore } from "./storage/store.js";

export interface LocalServiceOptions {
  dataDir: string;
  port?: number; // control-plane port; 0 (default) picks a free one
  host?: string; // default "127.0.0.1"
  apiKey?: string; // default: read <dataDir>/api-key, or generate a random one there (mode 0600)
  log?: (line: string) => void; // default: write to stderr
  /** The most memory the records kept in memory for search may take (default: 60% of the machine's). */
  memoryLimitBytes?: number;
}

export interface LocalService {
  controlUrl: string;
  apiKey: string;
  dataDir: string;
  close(): Promise<void>;
}

export const DATABASE_FILE = "vecdb.mdb";

/** How a listening address is written in a URL or an index's host (IPv6 in brackets; a wildcard as loopback). */
export function hostForUrls(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const dataDir = resolve(options.dataDir);
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  mkdirSync(dataDir, { recursive: true });
  const release = acquireDataDirLock(dataDir);
  let root: RootDatabase | undefined;
  try {
    const apiKey = resolveApiKey(dataDir, options.apiKey);
    // With lmdb's default overlappingSync a write resolves at commit; whoever must answer "durable" also
    // awaits `flushed` (the catalog does, and so does the vector store).
    root = open({ path: join(dataDir, DATABASE_FILE), maxDbs: 64, compression: false });
    const catalog = new Catalog(root);
    const store = new VectorStore(root, { memoryLimitBytes: options.memoryLimitBytes });
    // Before anything writes: records a crash left behind mid-copy or mid-drop belong to no space any more.
    // Must precede registry.start(), which resumes copies whose target space is not live until they finish.
    const swept = await store.sweepOrphans();
    if (swept > 0) log(`vecdb-mcp local service: removed records of ${swept} unfinished copy or drop`);
    let registry: Registry | undefined;
    const servers = new DataServers({
      host,
      apiKey,
      store,
      lookup: (name, id) => registry?.lookup(name, id),
      log,
    });
    registry = new Registry(catalog, store, servers, hostForUrls(host), log);
    await registry.start();
    // Every index's records into memory for search, in the background; a namespace needed sooner loads at once.
    void store.warm([...catalog.indexes.values()].map((i) => i.space), log);

    const control = createServer(SERVER_TIMEOUTS, controlPlaneHandler(registry, apiKey, log));
    control.keepAliveTimeout = 5000;
    answerClientErrors(control, (status, kind, message) =>
      new ControlError(status, kind === "timeout" ? "DEADLINE_EXCEEDED" : "INVALID_ARGUMENT", message).toBody(),
    );
    const port = await listen(control, host, options.port ?? 0).catch(async (e: unknown) => {
      await servers.closeAll();
      throw e;
    });
    const openRoot = root;
    const reg = registry;
    let closing: Promise<void> | undefined;
    return {
      controlUrl: `http://${hostForUrls(host)}:${port}`,
      apiKey,
      dataDir,
      close() {
        closing ??= (async () => {
          const closed = new Promise<void>((r) => control.close(() => r()));
          control.closeAllConnections();
          await closed;
          await servers.closeAll();
          await reg.drain();
          store.mirror.stop();
          await openRoot.close();
          release();
        })();
        return closing;
      },
    };
  } catch (e) {
    await root?.close();
    release();
    throw e;
  }
}
