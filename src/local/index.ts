// The embedded local service: the vector database API on loopback, durable in one lmdb env in the data dir.
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { open, type RootDatabase } from "lmdb";
import { resolveApiKey } from "./storage/api-key.js";
import { Inventory, type StoredIndex } from "./storage/inventory.js";
import { controlPlaneHandler } from "./control/routes.js";
import { DataServers, dataPlaneIndex, listen } from "./data/servers.js";
import { BulkImports } from "./data/imports/bulk-imports.js";
import { answerClientErrors, SERVER_TIMEOUTS } from "./http-util.js";
import { ControlError } from "./control/errors.js";
import { acquireDataDirLock, LOCK_FILE } from "./storage/lock.js";
import { API_KEY_FILE } from "./storage/api-key.js";
import { preparePrivateDir, tightenDataFile } from "./storage/private-dir.js";
import { ControlOperations } from "./control/operations.js";
import { Backups } from "./control/backups.js";
import { BackupSchedules } from "./control/backup-schedules.js";
import { documentsPreparation, textPreparation, VectorStore, type WarmSpace } from "./search/engine.js";
import { schemaView } from "./data/routes/documents/schema-view.js";
import { Models } from "./models/available-models.js";
import { writeDescriptor } from "./sharing/descriptor.js";
import { Lifecycle } from "./sharing/lifecycle.js";
import { DeclaredNamespaces } from "./storage/declared-namespaces.js";
import { NamespaceAliases } from "./storage/namespace-aliases.js";

export interface LocalServiceOptions {
  dataDir: string;
  port?: number; // control-plane port; 0 (default) picks a free one
  host?: string; // default "127.0.0.1"
  apiKey?: string; // default: read <dataDir>/api-key, or generate a random one there (mode 0600)
  log?: (line: string) => void; // default: write to stderr
  /** An OpenAI-compatible embeddings server whose models the service offers (e.g. http://127.0.0.1:11434/v1). */
  embedUrl?: string;
  embedKey?: string;
  embedTimeoutMs?: number;
  /** The most memory the records kept in memory for search may take (default: 60% of the machine's). */
  memoryLimitBytes?: number;
  /** Namespaces with at least this many records get an approximate index (default 1,500,000; 0: never). */
  approximateAbove?: number;
  /** Stop after this long with no MCP server attached and no request (a service an MCP server started); default never. */
  idleStopMs?: number;
  /** Called once the quiet period has passed; the caller closes the service. */
  onIdle?: () => void;
  /** The data dir's lock, when the caller took it already (its release function); released on close. */
  heldLock?: () => void;
  /** The clock backup schedules run by, in ms since the epoch (default: the wall clock); tests move it. */
  now?: () => number;
  /** Directories bulk imports may read (file:// URIs under them); none by default. */
  allowDirs?: string[];
}

export interface LocalService {
  controlUrl: string;
  apiKey: string;
  dataDir: string;
  /** Runs the backup schedules that are due now (also done every minute); the ids of the backups started. */
  runDueBackupSchedules(): Promise<string[]>;
  close(): Promise<void>;
}

/** How often the service looks for due backup schedules. */
const SCHEDULE_CHECK_MS = 60_000;

const DATABASE_FILE = "vecdb.mdb";

/** How a listening address is written in a URL or an index's host (IPv6 in brackets; a wildcard as loopback). */
function hostForUrls(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/** process.umask(mask), or undefined in a worker thread, where it cannot be set. */
function setUmask(mask: number): number | undefined {
  try {
    return process.umask(mask);
  } catch {
    return undefined;
  }
}

export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const dataDir = resolve(options.dataDir);
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Private before anything is read or written: 0700, owned by this user (private-dir.ts).
  preparePrivateDir(dataDir);
  for (const name of [API_KEY_FILE, LOCK_FILE, DATABASE_FILE, `${DATABASE_FILE}-lock`]) tightenDataFile(dataDir, name);
  const release = options.heldLock ?? (await acquireDataDirLock(dataDir));
  let root: RootDatabase | undefined;
  try {
    const apiKey = resolveApiKey(dataDir, options.apiKey);
    const lifecycle = new Lifecycle({ apiKey, idleStopMs: options.idleStopMs, onIdle: options.onIdle });
    // With lmdb's default overlappingSync a write resolves at commit; whoever must answer "durable" also
    // awaits `flushed` (the inventory does, and so does the vector store).
    // lmdb creates its files with the process's umask (0644 by default): for this synchronous open the umask keeps
    // group and other out, so the database is 0600 from its first byte.
    const umask = setUmask(0o077);
    try {
      root = open({ path: join(dataDir, DATABASE_FILE), maxDbs: 64, compression: false });
    } finally {
      if (umask !== undefined) setUmask(umask);
    }
    // (and where the umask cannot be set, a worker thread, they are tightened right after)
    for (const name of [DATABASE_FILE, `${DATABASE_FILE}-lock`]) tightenDataFile(dataDir, name);
    const inventory = new Inventory(root);
    const store = new VectorStore(root, { memoryLimitBytes: options.memoryLimitBytes, approximateAbove: options.approximateAbove, log });
    const declared = new DeclaredNamespaces(root);
    const aliases = new NamespaceAliases(root);
    const models = new Models({ embedUrl: options.embedUrl, embedKey: options.embedKey, embedTimeoutMs: options.embedTimeoutMs });
    // Before anything writes: records a crash left behind mid-copy or mid-drop belong to no space any more.
    // Must precede operations.start(), which resumes copies whose target space is not live until they finish.
    const swept = await store.sweepOrphans();
    if (swept > 0) log(`vecdb-mcp local service: removed records of ${swept} unfinished copy or drop`);
    let operations: ControlOperations | undefined;
    const imports = new BulkImports(root, store, options.allowDirs ?? [], (id) => {
      const index = [...inventory.indexes.values()].find((i) => i.id === id);
      return index ? dataPlaneIndex(index) : undefined;
    }, log);
    const servers = new DataServers({
      host,
      apiKey,
      store,
      models,
      lookup: (name, id) => operations?.lookup(name, id),
      log,
      onRequest: (req, res) => lifecycle.track(req, res),
      extras: { namespaces: declared, imports, aliases },
    });
    operations = new ControlOperations(inventory, store, servers, hostForUrls(host), log, declared, aliases);
    await operations.start();
    const now = options.now ?? Date.now;
    const backups = new Backups(inventory, store, operations, log, declared, now);
    backups.start();
    const schedules = new BackupSchedules(inventory, backups, operations, log, now);
    const runDue = () => schedules.runDue();
    void runDue().catch((e: unknown) => log(`backup schedules: ${String(e)}`)); // a run missed while stopped happens now
    const scheduleTimer = setInterval(() => void runDue().catch((e: unknown) => log(`backup schedules: ${String(e)}`)), SCHEDULE_CHECK_MS);
    scheduleTimer.unref();
    imports.resume();
    // Every index's records into memory for search, in the background; a namespace needed sooner loads at once.
    // (a text index's postings with them, and a document index's full-text fields)
    void store.warm([...inventory.indexes.values()].map((i) => ({ space: i.space, metric: i.metric, index: i.name, prepare: searchPreparation(i) })), log);

    const control = createServer(SERVER_TIMEOUTS, lifecycle.wrap(controlPlaneHandler(operations, apiKey, log, models, backups, schedules)));
    control.keepAliveTimeout = 5000;
    answerClientErrors(control, (status, kind, message) =>
      new ControlError(status, kind === "timeout" ? "DEADLINE_EXCEEDED" : "INVALID_ARGUMENT", message).toBody(),
    );
    const port = await listen(control, host, options.port ?? 0).catch(async (e: unknown) => {
      clearInterval(scheduleTimer);
      lifecycle.stop();
      await servers.closeAll();
      throw e;
    });
    const controlUrl = `http://${hostForUrls(host)}:${port}`;
    const unpublish = writeDescriptor(dataDir, { pid: process.pid, url: controlUrl, apiKey, instance: randomBytes(12).toString("hex") });
    const openRoot = root;
    const reg = operations;
    let closing: Promise<void> | undefined;
    return {
      controlUrl,
      apiKey,
      dataDir,
      runDueBackupSchedules: runDue,
      close() {
        closing ??= (async () => {
          clearInterval(scheduleTimer);
          unpublish(); // first: no MCP server should pick a service that is going away
          lifecycle.stop();
          const closed = new Promise<void>((r) => control.close(() => r()));
          control.closeAllConnections();
          await closed;
          await servers.closeAll();
          await imports.close();
          await reg.drain();
          await store.stop();
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

/** What an index's searches need built as its namespaces load: a text index's postings, a document index's fields. */
function searchPreparation(index: StoredIndex): WarmSpace["prepare"] {
  if (index.schema) return documentsPreparation(schemaView(index.schema).fullText);
  const field = index.vectorType === "sparse" ? index.embed?.fieldMap.text : undefined;
  return field === undefined ? undefined : textPreparation(field);
}
