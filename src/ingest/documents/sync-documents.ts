// One index_documents run: find the files, learn what the index holds under the run's id prefixes (the index is the
// truth — there is no local cache to drift), read and chunk the files one at a time, send only the chunks that are new
// or changed through the text-upsert path (retries, N in flight, exact accounting), then delete the chunks that no
// longer exist. A dry run stops before the first write.
//
// Learning what the index holds costs one list of the ids under each prefix and one fetch of each file's first chunk:
// every chunk carries its file's `fileHash`, and a file whose first chunk has the current hash and whose listed chunk
// count is unchanged is in step as a whole. Only a file that differs has all its chunks fetched and compared by
// `contentHash`. That shortcut holds because a file's first chunk is written last: its other chunks land first, and
// only then chunk 1 gets the new fileHash (upserted if its text changed, else its metadata set), so a run that stops
// part-way never leaves a first chunk claiming a version whose other chunks did not land.
import { readFile } from "node:fs/promises";
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { openAllowedFile } from "../safe-open.js";
import { runTextUpsert, type TextRecord } from "../text-upsert.js";
import { chunkSections, type ChunkSizes } from "./chunks.js";
import { documentFormat, documentText, SUPPORTED_EXTENSIONS } from "./document-text.js";
import { documentIdPrefix, documentRecords, parseDocumentId, type DocumentRecord } from "./document-records.js";
import { findDocuments, type SkippedFile } from "./find-documents.js";
import { syncPlan } from "./sync-plan.js";

export { DocumentPathError } from "./find-documents.js";

/** A document larger than this is skipped (notes are small; a bigger file is rarely a note). */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
/** Records gathered before they are sent: enough for every request in flight to be full. */
const SEND_EVERY = 96 * 16;

export interface SyncDocumentsArgs {
  service: Service;
  index: IndexModel;
  /** The field the index embeds (field_map.text). */
  field: string;
  namespace: string;
  paths: readonly string[];
  roots: readonly string[];
  include?: readonly string[];
  exclude?: readonly string[];
  sizes: ChunkSizes;
  dryRun: boolean;
  prune: boolean;
  concurrency: number;
  signal: AbortSignal;
  progress: (done: number, total: number, message: string) => void;
}

export interface SyncDocumentsOutcome {
  files: number;
  skipped: SkippedFile[];
  chunks: number;
  bytes: number;
  added: number;
  changed: number;
  unchanged: number;
  pruned: number;
  /** Records sent that landed (added + changed when all went well). */
  upserted: number;
  /** Ids of new or changed chunks that did not land, and why. */
  notLanded: { ids: string[]; message: string }[];
  /** Files whose every new or changed chunk landed. */
  filesDone: number;
  /** Set when the run stopped early (cancelled, or a write failed): no pruning happened then. */
  stopped?: string;
}

/** The ids the index holds under the run's prefixes, by file prefix ("notes/a.md#" → [chunk ids]). */
async function listedByFile(args: SyncDocumentsArgs, prefixes: readonly string[]): Promise<Map<string, string[]>> {
  const { service, index, namespace, signal } = args;
  const byFile = new Map<string, string[]>();
  for (const prefix of new Set(prefixes)) {
    let token: string | undefined;
    do {
      const page = await service.data.listIds(index.host, { namespace, prefix: prefix === "" ? undefined : prefix, limit: 100, paginationToken: token }, signal);
      for (const id of page.ids) {
        const parsed = parseDocumentId(id);
        if (!parsed) continue;
        const ids = byFile.get(parsed.prefix) ?? [];
        if (!ids.includes(id)) ids.push(id);
        byFile.set(parsed.prefix, ids);
      }
      token = page.next;
    } while (token !== undefined);
  }
  return byFile;
}

/** The named metadata field of each record that exists, by id. */
async function fetchField(args: SyncDocumentsArgs, ids: string[], field: string): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  if (ids.length === 0) return out;
  const fetched = await args.service.data.fetchMany(args.index.host, ids, args.namespace, args.signal);
  for (const [id, record] of Object.entries(fetched)) {
    const value = record.metadata?.[field];
    out.set(id, typeof value === "string" ? value : undefined);
  }
  return out;
}

function textRecord(record: DocumentRecord, field: string): TextRecord {
  return { _id: record.id, ...record.metadata, [field]: record.text };
}

async function readDocument(path: string, roots: readonly string[]): Promise<{ bytes: Buffer; modifiedMs: number } | { reason: string }> {
  const opened = await openAllowedFile(path, roots);
  if (!opened.ok) return { reason: opened.message };
  try {
    if (opened.file.stat.size > MAX_DOCUMENT_BYTES) return { reason: `larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB` };
    return { bytes: await readFile(opened.file.handle), modifiedMs: opened.file.stat.mtimeMs };
  } finally {
    await opened.file.close();
  }
}

/** What one file needs written: chunks to upsert, and whether its first chunk only needs its fileHash set. */
interface FileWrites {
  file: number;
  upserts: DocumentRecord[];
  /** The first chunk's text is unchanged but it still names the file's previous version. */
  stampFirst?: DocumentRecord;
}

export async function syncDocuments(args: SyncDocumentsArgs): Promise<SyncDocumentsOutcome> {
  const found = await findDocuments(args.paths, args.roots, { include: args.include, exclude: args.exclude });
  const listed = await listedByFile(args, found.scopes.map((s) => s.prefix));
  const firstChunks = await fetchField(args, [...listed.keys()].map((prefix) => `${prefix}1`), "fileHash");
  const out: SyncDocumentsOutcome = {
    files: 0, skipped: [...found.skipped], chunks: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, pruned: 0, upserted: 0,
    notLanded: [], filesDone: 0,
  };

  // Chunk counts of the files read, by id prefix: a listed id past its file's count is a chunk that is gone.
  const chunkCounts = new Map<string, number>();
  const present = new Set(found.scopes.flatMap((s) => [...s.present].map(documentIdPrefix)));
  const gone = (id: string) => {
    const parsed = parseDocumentId(id)!;
    const count = chunkCounts.get(parsed.prefix);
    return count !== undefined ? parsed.chunk > count : !present.has(parsed.prefix);
  };

  let pending: FileWrites[] = [];
  let pendingRecords = 0;
  const filesRead: number[] = [];
  const filesFailed = new Set<number>();
  const stop = (why: string) => (out.stopped ??= why);

  const upsert = async (records: { record: DocumentRecord; file: number }[]): Promise<boolean> => {
    if (records.length === 0) return true;
    const outcome = await runTextUpsert({
      service: args.service, index: args.index.name, namespace: args.namespace, records: records.map((r) => textRecord(r.record, args.field)),
      concurrency: args.concurrency, signal: args.signal,
    });
    out.upserted += outcome.upserted;
    out.notLanded.push(...outcome.failures);
    if (outcome.failedIds.length === 0) return true;
    const failed = new Set(outcome.failedIds);
    for (const r of records) if (failed.has(r.record.id)) filesFailed.add(r.file);
    const reported = new Set(outcome.failures.flatMap((f) => f.ids));
    const silent = outcome.failedIds.filter((id) => !reported.has(id));
    if (silent.length > 0) out.notLanded.push({ ids: silent, message: args.signal.aborted ? "cancelled before it was sent" : "not sent" });
    stop(args.signal.aborted ? "cancelled" : "a write failed");
    return false;
  };
  // Chunks other than the first go out before any first chunk (see the module comment); a file that failed in the
  // first step does not get its first chunk.
  const send = async () => {
    const batch = pending;
    pending = [];
    pendingRecords = 0;
    const rest = batch.flatMap((w) => w.upserts.filter((r) => r.metadata.chunk !== 1).map((record) => ({ record, file: w.file })));
    if (!(await upsert(rest))) {
      for (const w of batch) for (const r of w.upserts.filter((r) => r.metadata.chunk === 1)) if (!filesFailed.has(w.file)) out.notLanded.push({ ids: [r.id], message: "not sent: the run stopped before the file's first chunk" });
      for (const w of batch) if (w.upserts.some((r) => r.metadata.chunk === 1) || w.stampFirst) filesFailed.add(w.file);
      return;
    }
    const firsts = batch.flatMap((w) => w.upserts.filter((r) => r.metadata.chunk === 1).map((record) => ({ record, file: w.file })));
    if (!(await upsert(firsts))) return;
    for (const w of batch) {
      if (!w.stampFirst) continue;
      if (args.signal.aborted) return void (filesFailed.add(w.file), stop("cancelled"));
      try {
        await args.service.data.setMetadata(args.index.host, { id: w.stampFirst.id, namespace: args.namespace, setMetadata: { fileHash: w.stampFirst.metadata.fileHash } }, args.signal);
      } catch (err) {
        filesFailed.add(w.file);
        out.notLanded.push({ ids: [w.stampFirst.id], message: `its fileHash was not updated: ${err instanceof Error ? err.message : String(err)}` });
        return void stop(args.signal.aborted ? "cancelled" : "a write failed");
      }
    }
  };

  // One group of chunks is sent while the next is read and chunked (reading and sending overlap, never more than one
  // group in flight); a failure is seen when the next group would go, and what was read meanwhile is not sent.
  let sending: Promise<void> = Promise.resolve();
  const total = found.files.length;
  for (let i = 0; i < found.files.length && out.stopped === undefined; i++) {
    if (args.signal.aborted) {
      stop("cancelled");
      break;
    }
    const file = found.files[i];
    args.progress(i, total, `reading ${file.source}`);
    const format = documentFormat(file.path);
    const read = await readDocument(file.path, args.roots);
    if ("reason" in read) {
      out.skipped.push({ path: file.path, reason: read.reason });
      continue;
    }
    if (format === undefined) {
      const binary = read.bytes.subarray(0, 8192).includes(0);
      out.skipped.push({ path: file.path, reason: binary ? "binary content (NUL bytes)" : `not a supported format (${SUPPORTED_EXTENSIONS.join(", ")})` });
      continue;
    }
    const text = documentText(read.bytes, format);
    if (!text.ok) {
      out.skipped.push({ path: file.path, reason: text.reason });
      continue;
    }
    const records = documentRecords(file.source, read.modifiedMs, chunkSections(text.sections, args.sizes));
    const prefix = documentIdPrefix(file.source);
    const ids = listed.get(prefix) ?? [];
    chunkCounts.set(prefix, records.length);
    out.files++;
    out.bytes += read.bytes.length;
    out.chunks += records.length;
    filesRead.push(i);

    const fileHash = records[0]?.metadata.fileHash;
    if (records.length > 0 && firstChunks.get(`${prefix}1`) === fileHash && ids.length === records.length) {
      out.unchanged += records.length; // in step as a whole
      continue;
    }
    const existing = await fetchField(args, ids, "contentHash");
    const plan = syncPlan(records, existing, () => false, false);
    out.added += plan.add.length;
    out.changed += plan.change.length;
    out.unchanged += plan.unchanged;
    if (args.dryRun) continue;
    const upserts = [...plan.add, ...plan.change];
    const first = records[0];
    const firstSent = upserts.some((r) => r.id === first?.id);
    pending.push({ file: i, upserts, ...(first && !firstSent && firstChunks.get(`${prefix}1`) !== fileHash ? { stampFirst: first } : {}) });
    pendingRecords += upserts.length;
    if (pendingRecords >= SEND_EVERY) {
      await sending;
      if (out.stopped !== undefined) break;
      sending = send();
    }
  }
  await sending;
  if (out.stopped === undefined && pending.length > 0) await send();
  for (const w of out.stopped !== undefined ? pending : []) {
    const ids = w.upserts.map((r) => r.id);
    filesFailed.add(w.file);
    if (ids.length > 0) out.notLanded.push({ ids, message: "not sent: the run stopped" });
  }
  out.filesDone = filesRead.filter((i) => !filesFailed.has(i)).length;
  if (out.stopped !== undefined) return out;

  const everyListed = new Map([...listed.values()].flat().map((id) => [id, undefined] as [string, undefined]));
  const toPrune = syncPlan([], everyListed, gone, args.prune).prune;
  if (args.dryRun || toPrune.length === 0) {
    out.pruned = toPrune.length;
    return out;
  }
  for (let i = 0; i < toPrune.length; i += 1000) {
    await args.service.data.deleteVectors(args.index.host, { namespace: args.namespace, ids: toPrune.slice(i, i + 1000) }, args.signal);
    out.pruned += Math.min(1000, toPrune.length - i);
  }
  args.progress(total, total, "done");
  return out;
}
