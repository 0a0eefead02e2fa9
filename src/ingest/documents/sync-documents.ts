// One index_documents run: find the files, learn what the index holds under the run's id prefixes (list + fetch of
// the content hashes — the index is the truth, there is no local cache to drift), read and chunk the files one at a
// time, send only the chunks that are new or changed through the text-upsert path (retries, N in flight, exact
// accounting), then delete the chunks that no longer exist. A dry run stops before the first write.
import { readFile } from "node:fs/promises";
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { openAllowedFile } from "../safe-open.js";
import { runTextUpsert, type TextRecord } from "../text-upsert.js";
import { chunkSections, type ChunkSizes } from "./chunks.js";
import { documentFormat, documentText, SUPPORTED_EXTENSIONS } from "./document-text.js";
import { documentIdPrefix, documentRecords, parseDocumentId, type DocumentRecord } from "./document-records.js";
import { findDocuments, type FoundDocuments, type SkippedFile } from "./find-documents.js";

export { DocumentPathError } from "./find-documents.js";
import { syncPlan } from "./sync-plan.js";

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

/** What the index holds under the run's prefixes: id → contentHash (undefined for records without one). */
async function existingHashes(args: SyncDocumentsArgs, prefixes: readonly string[]): Promise<Map<string, string | undefined>> {
  const { service, index, namespace, signal } = args;
  const ids = new Set<string>();
  for (const prefix of new Set(prefixes)) {
    let token: string | undefined;
    do {
      const page = await service.data.listIds(index.host, { namespace, prefix: prefix === "" ? undefined : prefix, limit: 100, paginationToken: token }, signal);
      for (const id of page.ids) if (parseDocumentId(id)) ids.add(id);
      token = page.next;
    } while (token !== undefined);
  }
  const fetched = ids.size === 0 ? {} : await service.data.fetchMany(index.host, [...ids], namespace, signal);
  const hashes = new Map<string, string | undefined>();
  for (const id of ids) {
    const hash = fetched[id]?.metadata?.contentHash;
    if (fetched[id] !== undefined) hashes.set(id, typeof hash === "string" ? hash : undefined);
  }
  return hashes;
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

export async function syncDocuments(args: SyncDocumentsArgs): Promise<SyncDocumentsOutcome> {
  const found: FoundDocuments = await findDocuments(args.paths, args.roots, { include: args.include, exclude: args.exclude });
  const existing = await existingHashes(args, found.scopes.map((s) => s.prefix));
  const out: SyncDocumentsOutcome = {
    files: 0, skipped: [...found.skipped], chunks: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, pruned: 0, upserted: 0,
    notLanded: [], filesDone: 0,
  };

  // Chunk counts of the files read, by id prefix: an existing id past its file's count is a chunk that is gone.
  const chunkCounts = new Map<string, number>();
  const present = new Set(found.scopes.flatMap((s) => [...s.present].map(documentIdPrefix)));
  const gone = (id: string) => {
    const parsed = parseDocumentId(id)!;
    const count = chunkCounts.get(parsed.prefix);
    return count !== undefined ? parsed.chunk > count : !present.has(parsed.prefix);
  };

  let pending: { record: TextRecord; file: number }[] = [];
  const filesRead: number[] = [];
  const filesFailed = new Set<number>();
  const send = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    const outcome = await runTextUpsert({
      service: args.service, index: args.index.name, namespace: args.namespace, records: batch.map((p) => p.record),
      concurrency: args.concurrency, signal: args.signal,
    });
    out.upserted += outcome.upserted;
    out.notLanded.push(...outcome.failures);
    if (outcome.failedIds.length > 0) {
      const failed = new Set(outcome.failedIds);
      for (const p of batch) if (failed.has(String(p.record._id))) filesFailed.add(p.file);
      if (outcome.failures.length === 0) out.notLanded.push({ ids: outcome.failedIds, message: args.signal.aborted ? "cancelled before it was sent" : "not sent" });
      out.stopped = args.signal.aborted ? "cancelled" : "a write failed";
    }
  };

  const total = found.files.length;
  for (let i = 0; i < found.files.length && out.stopped === undefined; i++) {
    if (args.signal.aborted) {
      out.stopped = "cancelled";
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
    chunkCounts.set(documentIdPrefix(file.source), records.length);
    out.files++;
    out.bytes += read.bytes.length;
    out.chunks += records.length;
    const plan = syncPlan(records, existing, () => false, false);
    out.added += plan.add.length;
    out.changed += plan.change.length;
    out.unchanged += plan.unchanged;
    filesRead.push(i);
    if (args.dryRun) continue;
    for (const r of [...plan.add, ...plan.change]) pending.push({ record: textRecord(r, args.field), file: i });
    if (pending.length >= SEND_EVERY) await send();
  }
  if (out.stopped === undefined) await send();
  out.filesDone = filesRead.filter((i) => !filesFailed.has(i)).length;
  if (out.stopped !== undefined) return out;

  const toPrune = syncPlan([], existing, gone, args.prune).prune;
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
