// One index_documents run: find the files, learn what the index holds under the run's scopes (index-view.ts: the
// index is the truth, there is no local cache to drift), then go through the files one at a time:
//
// - a file whose size and modification time are what its first chunk records, with the same chunking, and whose
//   first chunk names a version its other chunks hold, is in step without being read;
// - any other file is read and chunked; its first chunk's fileHash tells whether it changed as a whole, and only a
//   file that did has its chunks' contentHashes fetched and compared;
//
// and send the new or changed chunks through the text-upsert path in groups (document-writes.ts: the order of writes
// that keeps a first chunk from claiming a version its other chunks do not hold), one group sent while the next is
// read; finally delete the chunks no file accounts for. A dry run stops before the first write. A cancel stops the
// run from sending anything new; what was sent is answered (cancel-grace.ts), so the account stays exact.
import { lstatSync, type Stats } from "node:fs";
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { openAllowedFile, readAsChecked } from "../../common/safe-open.js";
import { afterGrace } from "./cancel-grace.js";
import { chunkSections, type ChunkSizes } from "./chunks.js";
import { documentFormat, documentText, SUPPORTED_EXTENSIONS } from "./document-text.js";
import { chunkId, chunkingOf, documentIdPrefix, documentRecords, OWN_FIELDS, type DocumentRecord, type FileStamp } from "./document-records.js";
import { frontMatterMetadata } from "./front-matter.js";
import { DocumentWriter, type FileWrites } from "./document-writes.js";
import { checkDocumentPaths, type FoundDocuments, type SkippedFile } from "./find-documents.js";
import { inStep, learnIndex, otherChunkId, otherChunks, writtenByThisTool, type FirstChunk, type IndexView } from "./index-view.js";
import { filePlan, prunePlan } from "./sync-plan.js";

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
  /** Documents found (all the files of the run that were not skipped). */
  found: number;
  /** Documents in step after the run or handled by it: read, or unchanged by size and time. */
  files: number;
  /** Of `files`, those read (the others' size and modification time matched their first chunk's). */
  filesRead: number;
  skipped: SkippedFile[];
  /** Folders not entered (hidden or of installed packages). */
  skippedFolders: SkippedFile[];
  /** Files the include globs left out, and files the exclude globs left out. */
  notIncluded: number;
  excluded: number;
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
  /** Files of `files` whose every write landed. */
  filesDone: number;
  /** What had to be listed to account for every record of the namespace (index-view.ts). */
  listed: IndexView["listed"];
  /** Set when the run stopped early (cancelled, or a write failed): no pruning happened after that. */
  stopped?: string;
}

async function readDocument(path: string, roots: readonly string[]): Promise<{ bytes: Buffer; stat: Stats; readAtMs: number } | { reason: string }> {
  const opened = await openAllowedFile(path, roots);
  if (!opened.ok) return { reason: opened.message };
  try {
    if (opened.file.stat.size > MAX_DOCUMENT_BYTES) return { reason: `larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB` };
    const readAtMs = Date.now();
    return { bytes: await readAsChecked(opened.file), stat: opened.file.stat, readAtMs };
  } finally {
    await opened.file.close();
  }
}

/**
 * Each file's size and time, without opening it (lstat: a link is not followed; undefined when it is gone or not a
 * regular file). Only compared with what a first chunk records: a file is read through openAllowedFile. Synchronous
 * calls, a slice at a time with the event loop let through between slices: a fifth of the CPU of as many promises.
 */
async function statFiles(paths: readonly string[]): Promise<(Stats | undefined)[]> {
  const out: (Stats | undefined)[] = [];
  for (let i = 0; i < paths.length; i += 256) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const path of paths.slice(i, i + 256)) {
      let stat: Stats | undefined;
      try {
        stat = lstatSync(path, { throwIfNoEntry: false });
      } catch {
        stat = undefined; // e.g. a folder on the way became unreadable: the file is read (and refused) as any other
      }
      out.push(stat?.isFile() ? stat : undefined);
    }
  }
  return out;
}

/** Whether the index holds every chunk 2..n of the file (always, when only first chunks were listed). */
function othersComplete(view: IndexView, prefix: string, n: number): boolean {
  if (!view.others) return true;
  const listed = view.others.get(prefix);
  for (let c = 2; c <= n; c++) if (!listed?.has(c)) return false;
  return true;
}

/** A file in step that need not be read: its first chunk records this size, time and chunking. */
function unchangedOnDisk(first: FirstChunk | undefined, stat: Stats | undefined, chunking: string, view: IndexView): first is FirstChunk & { stamp: { chunks: number } } {
  if (!inStep(first) || stat === undefined) return false;
  const s = first.stamp;
  return s.modifiedMs !== undefined && s.modifiedMs >= 0 && s.modifiedMs === stat.mtimeMs && s.fileBytes === stat.size && s.chunking === chunking && othersComplete(view, first.prefix, s.chunks);
}

const sameStamp = (a: Partial<FileStamp>, b: FileStamp) => a.chunks === b.chunks && a.fileBytes === b.fileBytes && a.modifiedMs === b.modifiedMs && a.chunking === b.chunking;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function syncDocuments(args: SyncDocumentsArgs): Promise<SyncDocumentsOutcome> {
  const checked = await checkDocumentPaths(args.paths, args.roots, { include: args.include, exclude: args.exclude });
  // The folders are walked while the namespace's count is asked; the files' first chunks are fetched while their
  // sizes and times are taken.
  const finding = checked.find();
  const walked = finding.then(async (found) => ({ found, stats: await statFiles(found.files.map((f) => f.path)) }));
  walked.catch(() => {}); // awaited below
  const foundFirsts = finding.then((found) => found.files.map((f) => chunkId(documentIdPrefix(f.source), 1)));
  let view: IndexView;
  let found: FoundDocuments;
  let stats: (Stats | undefined)[];
  try {
    [view, { found, stats }] = await Promise.all([
      learnIndex({ service: args.service, index: args.index, namespace: args.namespace, signal: args.signal, scopes: checked.scopes, found: foundFirsts }),
      walked,
    ]);
  } catch (err) {
    if (!args.signal.aborted) throw err;
    // Nothing was written.
    return { ...emptyOutcome(0, []), stopped: "cancelled" };
  }
  const out = { ...emptyOutcome(found.files.length, found.skipped), skippedFolders: found.skippedFolders, notIncluded: found.notIncluded, excluded: found.excluded };
  out.listed = view.listed;
  const stop = (why: string) => (out.stopped ??= why);
  const chunking = chunkingOf(args.sizes);
  const prefixes = found.files.map((f) => documentIdPrefix(f.source));

  const grace = afterGrace(args.signal);
  const writer = new DocumentWriter(
    { service: args.service, index: args.index, field: args.field, namespace: args.namespace, concurrency: args.concurrency, stopSending: args.signal, signal: grace.signal },
    { upserted: 0, notLanded: out.notLanded, filesFailed: new Set() },
  );
  try {
    const counts = await sendChanges({ args, files: found.files, prefixes, stats, view, chunking, writer, out });
    out.upserted = writer.account.upserted;
    if (writer.account.stopped !== undefined) stop(writer.account.stopped);
    if (out.stopped !== undefined) return out;
    const present = new Set(found.scopes.flatMap((s) => [...s.present].map(documentIdPrefix)));
    const kept = found.scopes.flatMap((s) => s.keptFolders);
    const stays = (prefix: string) => present.has(prefix) || kept.some((folder) => prefix.startsWith(folder));
    let toPrune: string[] = [];
    try {
      if (args.prune) toPrune = await writtenByThisTool(args.service, args.index, args.namespace, prunePlan(view, counts, stays), view, args.signal);
    } catch (err) {
      out.stopped = args.signal.aborted ? "cancelled" : `reading the index before pruning failed: ${messageOf(err)}`;
      return out;
    }
    if (args.dryRun) out.pruned = toPrune.length;
    else await prune(args, toPrune, grace.signal, out);
    if (out.stopped === undefined) args.progress(found.files.length, found.files.length, "done");
    return out;
  } finally {
    grace.dispose();
  }
}

function emptyOutcome(found: number, skipped: readonly SkippedFile[]): SyncDocumentsOutcome {
  return {
    found, files: 0, filesRead: 0, skipped: [...skipped], skippedFolders: [], notIncluded: 0, excluded: 0, chunks: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, pruned: 0,
    upserted: 0, notLanded: [], filesDone: 0, listed: "nothing",
  };
}

/** Deletes in requests of 1,000 ids, none started after a cancel; `out.pruned` counts what was deleted. */
async function prune(args: SyncDocumentsArgs, ids: readonly string[], signal: AbortSignal, out: SyncDocumentsOutcome): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    if (args.signal.aborted) return void (out.stopped ??= "cancelled");
    const batch = ids.slice(i, i + 1000);
    try {
      await args.service.data.deleteVectors(args.index.host, { namespace: args.namespace, ids: batch }, signal);
    } catch (err) {
      return void (out.stopped ??= args.signal.aborted ? "cancelled" : `pruning failed: ${messageOf(err)}`);
    }
    out.pruned += batch.length;
  }
}

interface Pass {
  args: SyncDocumentsArgs;
  files: readonly { path: string; source: string }[];
  prefixes: readonly string[];
  stats: readonly (Stats | undefined)[];
  view: IndexView;
  chunking: string;
  writer: DocumentWriter;
  out: SyncDocumentsOutcome;
}

/**
 * Goes through the files: counts what is in step, reads the others, and hands what they need written to the writer
 * a group at a time (one group sent while the next is read; a stop is seen when the next group would go, and what
 * was read meanwhile is not sent). Returns the chunk count of each file in step after the run, by id prefix.
 */
async function sendChanges(p: Pass): Promise<Map<string, number>> {
  const { args, view, out, writer } = p;
  const counts = new Map<string, number>();
  const handled: number[] = [];
  let pending: FileWrites[] = [];
  let pendingRecords = 0;
  let sending: Promise<void> = Promise.resolve();
  const total = p.files.length;

  for (let i = 0; i < total && out.stopped === undefined && writer.account.stopped === undefined; i++) {
    if (args.signal.aborted) {
      out.stopped = "cancelled";
      break;
    }
    const file = p.files[i];
    const prefix = p.prefixes[i];
    const first = view.firsts.get(prefix);
    if (unchangedOnDisk(first, p.stats[i], p.chunking, view)) {
      counts.set(prefix, first.stamp.chunks);
      out.files++;
      out.bytes += p.stats[i]!.size;
      out.chunks += first.stamp.chunks;
      out.unchanged += first.stamp.chunks;
      handled.push(i);
      continue;
    }

    args.progress(i, total, `reading ${file.source}`);
    const read = await readDocument(file.path, args.roots);
    if ("reason" in read) {
      out.skipped.push({ path: file.path, reason: read.reason });
      continue;
    }
    const format = documentFormat(file.path);
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
    const frontMatter = frontMatterMetadata(text.frontMatter, new Set([...OWN_FIELDS, args.field]));
    const records = documentRecords(file.source, read.stat, read.readAtMs, chunkSections(text.sections, args.sizes), p.chunking, frontMatter);
    counts.set(prefix, records.length);
    out.files++;
    out.filesRead++;
    out.bytes += read.bytes.length;
    out.chunks += records.length;
    handled.push(i);

    let writes: FileWrites | undefined;
    try {
      writes = await fileWrites(p, i, prefix, first, records);
    } catch (err) {
      out.stopped = args.signal.aborted ? "cancelled" : `reading the index failed: ${messageOf(err)}`;
      break;
    }
    if (writes === undefined || args.dryRun) continue;
    pending.push(writes);
    pendingRecords += writes.others.length + 1;
    if (pendingRecords >= SEND_EVERY) {
      await sending;
      const group = pending;
      pending = [];
      pendingRecords = 0;
      sending = writer.write(group);
    }
  }
  await sending;
  await writer.write(pending); // after a stop, this accounts for them as not sent
  out.filesDone = handled.filter((i) => !writer.account.filesFailed.has(i)).length;
  return counts;
}

/** What one file read needs written, counting its chunks as added, changed or unchanged; undefined: nothing. */
async function fileWrites(p: Pass, file: number, prefix: string, first: FirstChunk | undefined, records: DocumentRecord[]): Promise<FileWrites | undefined> {
  const { view, out } = p;
  const head = records[0];
  const others = otherChunks(view, prefix);
  if (head && inStep(first) && first.fileHash === head.metadata.fileHash && first.stamp.chunks === records.length && othersComplete(view, prefix, records.length)) {
    out.unchanged += records.length; // in step as a whole; only its stamp may be behind (the file was touched)
    const stamp = stampOf(head);
    return sameStamp(first.stamp, stamp) ? undefined : { file, others: [], stamp: { id: first.id, fields: { fileHash: head.metadata.fileHash, ...stamp } } };
  }
  const existing = new Map<string, string | undefined>();
  if (first) existing.set(first.id, first.contentHash);
  const otherIds = others.filter((c) => c >= 2 && c <= records.length).map((c) => otherChunkId(prefix, c));
  if (otherIds.length > 0) {
    const fetched = await p.args.service.data.fetchMetadata(p.args.index.host, otherIds, p.args.namespace, p.args.signal);
    for (const [id, metadata] of fetched) {
      const hash = metadata.contentHash;
      existing.set(id, typeof hash === "string" ? hash : undefined);
    }
  }
  const plan = filePlan(records, existing);
  out.added += plan.add.length;
  out.changed += plan.change.length;
  out.unchanged += plan.unchanged;
  if (head === undefined) return undefined; // an empty file: its chunks are pruned
  const upserts = [...plan.add, ...plan.change];
  const firstWrite = upserts.find((r) => r.id === head.id);
  const otherWrites = upserts.filter((r) => r !== firstWrite);
  const before = first && first.fileHash !== "" && otherWrites.length > 0 ? { id: first.id, how: firstWrite ? ("delete" as const) : ("invalidate" as const) } : undefined;
  const stamp =
    firstWrite === undefined && first !== undefined && (before !== undefined || first.fileHash !== head.metadata.fileHash || !sameStamp(first.stamp, stampOf(head)))
      ? { id: first.id, fields: { fileHash: head.metadata.fileHash, ...stampOf(head) } }
      : undefined;
  if (upserts.length === 0 && stamp === undefined) return undefined;
  return { file, others: otherWrites, ...(firstWrite ? { first: firstWrite } : {}), ...(stamp ? { stamp } : {}), ...(before ? { before } : {}) };
}

function stampOf(head: DocumentRecord): FileStamp {
  const { chunks, fileBytes, modifiedMs, chunking } = head.metadata;
  return { chunks: chunks!, fileBytes: fileBytes!, modifiedMs: modifiedMs!, chunking: chunking! };
}
