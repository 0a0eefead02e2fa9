// Bulk imports (/bulk/imports) in the local service: the hosted layout — an import directory with one
// sub-directory per namespace (`__default__` for the default one) holding Parquet files — read from a file://
// directory under one of the service's own --allow-dir directories, in the background, one import at a time.
//
// States (as the API documents them): Pending (queued behind another import) → InProgress → Completed | Failed |
// Cancelled. Each batch of records is committed, then the job's cursor and count are; so `recordsImported` never
// counts a record that is not stored. After a restart an InProgress or Pending job resumes from its cursor: the
// one batch that may have been written after the last saved cursor is written again (an upsert by id, so no record
// is doubled), and the job says it resumed. A file that changed meanwhile fails the job with that reason.
import { realpathSync, readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, RootDatabase } from "lmdb";
import type { VectorStore } from "../../search/engine.js";
import type { WriteRecord } from "../../storage/store.js";
import { DataPlaneError, GRPC, invalid, notFound } from "../errors.js";
import { parseRecord } from "../records.js";
import type { BulkImportsApi, DataPlaneIndex } from "../types.js";
import { DEFAULT_NAMESPACE_ALIAS } from "../validate.js";
import { numbers, openParquetRows } from "./parquet-rows.js";

export type ImportStatus = "Pending" | "InProgress" | "Completed" | "Failed" | "Cancelled";

interface ImportFile { path: string; namespace: string; rows: number; size: number; mtimeMs: number }

export interface ImportJob {
  id: string;
  indexId: string;
  uri: string;
  dir: string;
  onError: "abort" | "continue";
  status: ImportStatus;
  createdAt: string;
  finishedAt?: string;
  files: ImportFile[];
  totalRows: number;
  /** The next row to read: file number and row within it. */
  cursor: { file: number; row: number };
  recordsImported: number;
  skipped: number;
  /** Why it failed, or (errorMode continue) the first rows skipped and why. */
  error?: string;
  /** Times the service restarted during this import and resumed it. */
  resumed?: number;
}

const BATCH_ROWS = 1000;
const SEQ_KEY = "\u0000seq";
const TERMINAL: ImportStatus[] = ["Completed", "Failed", "Cancelled"];

export class BulkImports implements BulkImportsApi {
  private readonly db: Database<unknown, string>;
  private queue: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(
    root: RootDatabase,
    private readonly store: VectorStore,
    private readonly allowDirs: readonly string[],
    /** The index with this id as the data plane sees it, while it exists. */
    private readonly indexById: (id: string) => DataPlaneIndex | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.db = root.openDB<unknown, string>({ name: "bulk-imports", encoding: "json" });
  }

  /** At start: every import a restart interrupted goes back in the queue, in the order they were started. */
  resume(): void {
    for (const job of this.jobs()) {
      if (job.status === "InProgress" || job.status === "Pending") {
        const resumed = job.status === "InProgress" ? (job.resumed ?? 0) + 1 : job.resumed;
        this.log(`bulk import ${job.id}: resuming after a restart at file ${job.cursor.file + 1}/${job.files.length}, row ${job.cursor.row}`);
        void this.save({ ...job, status: "Pending", ...(resumed !== undefined ? { resumed } : {}) }).then(() => this.enqueue(job.id));
      }
    }
  }

  /** Stops between batches; a running import stays InProgress on disk and resumes at the next start. */
  async close(): Promise<void> {
    this.closing = true;
    await this.queue;
  }

  async start(index: DataPlaneIndex, body: Record<string, unknown>): Promise<{ id: string }> {
    if (index.kind === "pod") throw invalid("Bulk import is only supported for serverless indexes");
    const unknown = Object.keys(body).find((k) => !["uri", "integrationId", "errorMode"].includes(k));
    if (unknown !== undefined) throw invalid(`Unknown field '${unknown}' in a start-import request; the fields are uri, integrationId and errorMode`);
    const uri = body.uri;
    if (typeof uri !== "string" || uri === "") throw invalid("uri is required: the file:// URL of the import directory");
    if (body.integrationId !== undefined && body.integrationId !== null) {
      throw invalid("integrationId names a storage integration of the hosted service; the local service reads file:// directories only and has no integrations");
    }
    const onError = parseErrorMode(body.errorMode);
    const dir = this.allowedDirectory(uri);
    const files = listLayout(dir);
    const existing = this.store.spaceStats(index.space).namespaces;
    const taken = [...new Set(files.map((f) => f.namespace))].filter((ns) => existing[ns] !== undefined);
    if (taken.length > 0) {
      throw invalid(`Namespaces must not exist before an import; this index already has ${taken.map((n) => `'${n === "" ? DEFAULT_NAMESPACE_ALIAS : n}'`).join(", ")}`);
    }
    for (const f of files) {
      const rows = await openParquetRows(join(dir, f.path), f.path, this.allowDirs).catch((e: unknown) => {
        throw invalid(e instanceof Error ? e.message : String(e));
      });
      f.rows = rows.rows;
      f.size = rows.stat.size;
      f.mtimeMs = rows.stat.mtimeMs;
      await rows.close();
    }
    const id = String(this.nextId());
    const job: ImportJob = {
      id, indexId: index.id ?? "", uri, dir, onError, status: "Pending", createdAt: new Date().toISOString(),
      files, totalRows: files.reduce((n, f) => n + f.rows, 0), cursor: { file: 0, row: 0 }, recordsImported: 0, skipped: 0,
    };
    await this.save(job);
    this.enqueue(id);
    return { id };
  }

  list(index: DataPlaneIndex, query: URLSearchParams): Record<string, unknown> {
    const rawLimit = query.get("limit");
    const limit = rawLimit === null || rawLimit === "" ? 100 : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid(`limit must be an integer from 1 to 100, got '${String(rawLimit).slice(0, 32)}'`);
    const token = query.get("paginationToken");
    const after = token ? Number(Buffer.from(token, "base64url").toString("utf8")) : 0;
    if (!Number.isInteger(after)) throw invalid("paginationToken is not a token this service issued");
    const all = this.jobs().filter((j) => j.indexId === index.id && Number(j.id) > after);
    const page = all.slice(0, limit);
    return {
      data: page.map(importModel),
      ...(all.length > limit ? { pagination: { next: Buffer.from(page[page.length - 1].id).toString("base64url") } } : {}),
    };
  }

  describe(index: DataPlaneIndex, id: string): Record<string, unknown> {
    return importModel(this.get(index, id));
  }

  async cancel(index: DataPlaneIndex, id: string): Promise<Record<string, never>> {
    const job = this.get(index, id);
    if (TERMINAL.includes(job.status)) {
      throw new DataPlaneError(400, GRPC.FAILED_PRECONDITION, `Import ${id} has already finished (status ${job.status}); only a Pending or InProgress import can be cancelled`);
    }
    await this.save({ ...this.get(index, id), status: "Cancelled", finishedAt: new Date().toISOString() });
    return {};
  }

  private get(index: DataPlaneIndex, id: string): ImportJob {
    const job = this.db.get(id) as ImportJob | undefined;
    if (!job || job.indexId !== index.id) throw notFound(`Import ${id.slice(0, 64)} not found`);
    return job;
  }

  private jobs(): ImportJob[] {
    const out: ImportJob[] = [];
    for (const { key, value } of this.db.getRange({})) if (key !== SEQ_KEY) out.push(value as ImportJob);
    return out.sort((a, b) => Number(a.id) - Number(b.id));
  }

  private nextId(): number {
    const n = ((this.db.get(SEQ_KEY) as number | undefined) ?? 0) + 1;
    this.db.putSync(SEQ_KEY, n);
    return n;
  }

  private async save(job: ImportJob): Promise<void> {
    await this.db.put(job.id, job);
    await this.db.flushed;
  }

  private enqueue(id: string): void {
    this.queue = this.queue.then(() => this.run(id)).catch((e: unknown) => this.failed(id, e));
  }

  /** A job that threw (a decompression bomb, a file that cannot be read) ends Failed, so no restart replays it. */
  private async failed(id: string, e: unknown): Promise<void> {
    const why = e instanceof Error ? e.message : String(e);
    this.log(`bulk import ${id}: failed: ${why}`);
    const job = this.db.get(id) as ImportJob | undefined;
    if (!job || TERMINAL.includes(job.status)) return;
    const file = job.files[job.cursor.file]?.path;
    await this.finish(job, "Failed", `${file ? `${file}: ` : ""}${why}; ${job.recordsImported} records were imported before`).catch((err: unknown) =>
      this.log(`bulk import ${id}: could not record the failure: ${String(err)}`),
    );
  }

  /** file://… → a real directory under an allowed one, or a 400 that says which rule it breaks. */
  private allowedDirectory(uri: string): string {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
    if (scheme !== "file") {
      throw invalid(
        `The local service imports only from file:// directories (a local extension of the API), not ${scheme ? `${scheme}://` : `'${uri.slice(0, 80)}'`}; ` +
          "give file:///absolute/path/to/import-dir, under a directory the service was started with --allow-dir",
      );
    }
    let path: string;
    try {
      path = realpathSync(fileURLToPath(uri));
    } catch (e) {
      throw invalid(`uri ${uri.slice(0, 200)} does not name a readable directory: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    if (!statSync(path).isDirectory()) throw invalid(`uri ${uri.slice(0, 200)} is a file; give the import directory (one sub-directory per namespace)`);
    const roots = this.allowDirs.map((d) => {
      try {
        return realpathSync(d);
      } catch {
        return undefined;
      }
    });
    const inside = roots.some((r) => r !== undefined && (path === r || path.startsWith(r.endsWith(sep) ? r : r + sep)));
    if (!inside) {
      throw invalid(
        this.allowDirs.length === 0
          ? "The local service was started without --allow-dir, so it reads no import directory; restart it with --allow-dir DIR and put the import under DIR"
          : `${path} is not under a directory the local service may read (its --allow-dir: ${this.allowDirs.join(", ")})`,
      );
    }
    return path;
  }

  private async run(id: string): Promise<void> {
    let job = this.db.get(id) as ImportJob | undefined;
    if (!job || job.status !== "Pending" || this.closing) return;
    const index = this.indexById(job.indexId);
    if (!index) return this.finish(job, "Failed", "The index was deleted during the import");
    job = { ...job, status: "InProgress" };
    await this.save(job);
    let firstSkip: string | undefined = job.error;
    while (job.cursor.file < job.files.length) {
      const file: ImportFile = job.files[job.cursor.file];
      let rows;
      try {
        rows = await openParquetRows(join(job.dir, file.path), file.path, this.allowDirs);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        return this.finish(job, "Failed", `${why}; ${job.recordsImported} records were imported before`);
      }
      if (rows.stat.size !== file.size || rows.stat.mtimeMs !== file.mtimeMs) {
        await rows.close();
        return this.finish(job, "Failed", `${file.path} changed during the import; ${job.recordsImported} records were imported before it`);
      }
      // The next batch is read while this one commits (lmdb writes and syncs off the main thread).
      let ahead: { from: number; rows: Promise<Record<string, unknown>[]> } | undefined;
      const readAhead = (from: number) => {
        if (from >= file.rows) return undefined;
        const next = { from, rows: rows.read(from, Math.min(file.rows, from + BATCH_ROWS)) };
        next.rows.catch(() => undefined); // an abandoned read (cancel, close) must not become an unhandled rejection
        return next;
      };
      try {
        while (job.cursor.row < file.rows) {
          const current = this.db.get(id) as ImportJob;
          if (current.status === "Cancelled") return;
          if (this.closing) return; // stays InProgress: resumed at the next start
          if (!this.indexById(job.indexId)) return this.finish(job, "Failed", `The index was deleted during the import; ${job.recordsImported} records were imported before`);
          const from = job.cursor.row;
          const to = Math.min(file.rows, from + BATCH_ROWS);
          const records: WriteRecord[] = [];
          let skipped = 0;
          const raw = await (ahead?.from === from ? ahead.rows : rows.read(from, to));
          ahead = readAhead(to);
          for (let i = 0; i < raw.length; i++) {
            try {
              records.push(toRecord(raw[i], index));
            } catch (e) {
              // parseRecord names a request's position ("Vector at position 0 (id 'x'): …"); here the row is the place.
              const reason = (e instanceof Error ? e.message : String(e)).replace(/^Vector at position \d+(?: \((id [^)]*)\))?: /, (_, id) => (id ? `(${id}): ` : ": "));
              const why = `${file.path} row ${from + i + 1}${reason.startsWith("(") ? " " : ""}${reason}`;
              if (job.onError === "abort") {
                return this.finish(job, "Failed", `${why}. ${job.recordsImported} records were imported before (errorMode onError: abort)`);
              }
              skipped++;
              firstSkip ??= why;
            }
          }
          if (records.length > 0) await this.store.upsert(index.space, file.namespace, records, index.vectorType === "dense" ? index.dimension : undefined);
          const latest = this.db.get(id) as ImportJob;
          job = {
            ...job,
            status: latest.status === "Cancelled" ? "Cancelled" : job.status,
            ...(latest.finishedAt ? { finishedAt: latest.finishedAt } : {}),
            cursor: to >= file.rows ? { file: job.cursor.file + 1, row: 0 } : { file: job.cursor.file, row: to },
            recordsImported: job.recordsImported + records.length,
            skipped: job.skipped + skipped,
            ...(firstSkip ? { error: skippedText(job.skipped + skipped, firstSkip) } : {}),
          };
          await this.save(job);
          if (job.status === "Cancelled") return;
          if (to >= file.rows) break;
        }
      } finally {
        await ahead?.rows.catch(() => undefined); // let a read in flight finish before its file handle closes
        await rows.close();
      }
    }
    await this.finish(job, "Completed", job.skipped > 0 && firstSkip ? skippedText(job.skipped, firstSkip) : undefined);
  }

  private async finish(job: ImportJob, status: ImportStatus, error: string | undefined): Promise<void> {
    const latest = this.db.get(job.id) as ImportJob;
    if (latest.status === "Cancelled") return;
    const { error: _old, ...rest } = job;
    await this.save({ ...rest, status, finishedAt: new Date().toISOString(), ...(error ? { error } : {}) });
  }
}

function skippedText(count: number, first: string): string {
  return `${count} ${count === 1 ? "record was" : "records were"} skipped (errorMode onError: continue); the first: ${first}`;
}

function parseErrorMode(raw: unknown): "abort" | "continue" {
  if (raw === undefined || raw === null) return "continue";
  const onError = typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>).onError : undefined;
  if (onError === undefined) return "continue";
  if (onError !== "abort" && onError !== "continue") throw invalid(`errorMode.onError must be "abort" or "continue", got ${JSON.stringify(onError)}`);
  return onError;
}

/** The namespace directories of an import directory and their Parquet files, in name order. */
function listLayout(dir: string): ImportFile[] {
  const files: ImportFile[] = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const namespace = entry.name === DEFAULT_NAMESPACE_ALIAS ? "" : entry.name;
    // Every *.parquet entry that is not a directory is listed; opening it (openParquetRows) refuses links that
    // leave the allowed directories, FIFOs, devices and hard links, with the reason.
    for (const file of readdirSync(join(dir, entry.name), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!file.name.endsWith(".parquet") || file.isDirectory()) continue;
      files.push({ path: `${entry.name}/${file.name}`, namespace, rows: 0, size: 0, mtimeMs: 0 });
    }
  }
  if (files.length === 0) {
    throw invalid(
      `No Parquet files in the import layout under ${dir}: it needs one sub-directory per namespace (${DEFAULT_NAMESPACE_ALIAS} for the default one) holding *.parquet files`,
    );
  }
  return files;
}

function toRecord(row: Record<string, unknown>, index: DataPlaneIndex): WriteRecord {
  const sparse = row.sparse_values as { indices?: unknown; values?: unknown } | null | undefined;
  let metadata: unknown;
  if (typeof row.metadata === "string") {
    try {
      metadata = JSON.parse(row.metadata);
    } catch {
      throw invalid("metadata is not valid JSON");
    }
  } else if (row.metadata !== null && row.metadata !== undefined) metadata = row.metadata;
  const values = numbers(row.values);
  const raw = {
    id: row.id as string,
    ...(values !== undefined && values.length > 0 ? { values } : {}),
    ...(sparse ? { sparse_values: { indices: numbers(sparse.indices) ?? [], values: numbers(sparse.values) ?? [] } } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
  };
  return parseRecord(raw as never, 0, index);
}

function importModel(j: ImportJob): Record<string, unknown> {
  const done = j.files.slice(0, j.cursor.file).reduce((n, f) => n + f.rows, 0) + j.cursor.row;
  const percent = j.status === "Completed" ? 100 : j.totalRows === 0 ? 0 : Math.floor((done / j.totalRows) * 1000) / 10;
  return {
    id: j.id,
    uri: j.uri,
    status: j.status,
    createdAt: j.createdAt,
    ...(j.finishedAt ? { finishedAt: j.finishedAt } : {}),
    percentComplete: percent,
    recordsImported: j.recordsImported,
    ...(j.error ? { error: j.error } : {}),
  };
}

