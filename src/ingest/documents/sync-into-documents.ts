// index_documents into a documents index (API 2026-07): the same files, chunks and ids as the records path, each
// chunk a document whose text field holds the chunk's text (searchable by words and phrases) beside the chunk's
// metadata. What the index holds is learnt by listing every id under the run's scopes and fetching their content
// hashes, so only new or changed chunks are sent, and chunks no file accounts for any more are deleted. No per-file
// shortcut as on the records path: a run reads every file (notes folders are small) and compares chunk by chunk.
import type { Document } from "../../api/documents.js";
import type { Service } from "../../api/service.js";
import { openAllowedFile, readAsChecked } from "../../common/safe-open.js";
import { chunkSections, type ChunkSizes } from "./chunks.js";
import { chunkingOf, documentIdPrefix, documentRecords, OWN_FIELDS } from "./document-records.js";
import { documentFormat, documentText, SUPPORTED_EXTENSIONS } from "./document-text.js";
import { checkDocumentPaths } from "./find-documents.js";
import type { SyncDocumentsOutcome } from "./sync-documents.js";
import { frontMatterMetadata } from "./front-matter.js";

const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
const UPSERT_BATCH = 200;

export interface SyncIntoDocumentsArgs {
  service: Service;
  host: string;
  namespace: string;
  /** The full-text field that holds a chunk's text. */
  field: string;
  paths: readonly string[];
  roots: readonly string[];
  include?: readonly string[];
  exclude?: readonly string[];
  sizes: ChunkSizes;
  dryRun: boolean;
  prune: boolean;
  /** Adds what the index needs besides the text (the meaning field's vectors) to documents about to be written. */
  complete(documents: Document[]): Promise<void>;
  signal: AbortSignal;
  progress: (done: number, total: number, message: string) => void;
}

/** The records path's account, less what only it has (every file found is read: filesRead is files). */
export type SyncIntoDocumentsOutcome = Omit<SyncDocumentsOutcome, "found" | "filesDone" | "listed" | "stopped">;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Every id under a prefix, and each one's contentHash. */
async function heldUnder(args: SyncIntoDocumentsArgs, prefixes: readonly string[]): Promise<Map<string, string | undefined>> {
  const ids: string[] = [];
  for (const prefix of prefixes) {
    let token: string | undefined;
    do {
      const page = await args.service.documents.list(args.host, args.namespace, { ...(prefix && { prefix }), limit: 100, ...(token && { pagination_token: token }) }, args.signal);
      ids.push(...page.ids);
      token = page.next;
    } while (token);
  }
  const held = new Map<string, string | undefined>();
  for (let i = 0; i < ids.length; i += 1000) {
    const { documents } = await args.service.documents.fetch(args.host, args.namespace, { ids: ids.slice(i, i + 1000), include_fields: ["contentHash"] }, args.signal);
    for (const d of documents) held.set(d._id, typeof d.contentHash === "string" ? d.contentHash : undefined);
  }
  for (const id of ids) if (!held.has(id)) held.set(id, undefined);
  return held;
}

export async function syncIntoDocuments(args: SyncIntoDocumentsArgs): Promise<SyncIntoDocumentsOutcome> {
  const checked = await checkDocumentPaths(args.paths, args.roots, { include: args.include, exclude: args.exclude });
  const found = await checked.find();
  // A scope "notes/" holds the first chunks under "/notes/" too (document-records.ts).
  const held = await heldUnder(args, [...new Set(checked.scopes.flatMap((s) => [s, `/${s}`]))]);
  const out: SyncIntoDocumentsOutcome = {
    files: 0, filesRead: 0, skipped: [...found.skipped], skippedFolders: found.skippedFolders, notIncluded: found.notIncluded, excluded: found.excluded,
    chunks: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, pruned: 0, upserted: 0, notLanded: [],
  };
  const chunking = chunkingOf(args.sizes);
  const written = new Set<string>();
  const toWrite: Document[] = [];
  for (const [i, file] of found.files.entries()) {
    args.progress(i, found.files.length, `reading ${file.source}`);
    const opened = await openAllowedFile(file.path, args.roots);
    if (!opened.ok) {
      out.skipped.push({ path: file.path, reason: opened.message });
      continue;
    }
    let bytes: Buffer;
    const stat = opened.file.stat;
    try {
      if (stat.size > MAX_DOCUMENT_BYTES) {
        out.skipped.push({ path: file.path, reason: `larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB` });
        continue;
      }
      bytes = await readAsChecked(opened.file);
    } finally {
      await opened.file.close();
    }
    const format = documentFormat(file.path);
    const text = format === undefined ? undefined : documentText(bytes, format);
    if (!text?.ok) {
      out.skipped.push({ path: file.path, reason: text ? text.reason : `not a supported format (${SUPPORTED_EXTENSIONS.join(", ")})` });
      continue;
    }
    const frontMatter = frontMatterMetadata(text.frontMatter, new Set([...OWN_FIELDS, args.field]));
    const records = documentRecords(file.source, stat, Date.now(), chunkSections(text.sections, args.sizes), chunking, frontMatter);
    out.files++;
    out.filesRead++;
    out.bytes += bytes.length;
    out.chunks += records.length;
    for (const r of records) {
      written.add(r.id);
      const had = held.get(r.id);
      if (had === r.metadata.contentHash) {
        out.unchanged++;
        continue;
      }
      if (held.has(r.id)) out.changed++;
      else out.added++;
      const metadata = Object.fromEntries(Object.entries(r.metadata).filter(([, v]) => v !== undefined));
      toWrite.push({ _id: r.id, ...metadata, [args.field]: r.text });
    }
  }
  const present = new Set(found.scopes.flatMap((s) => [...s.present].map(documentIdPrefix)));
  const kept = found.scopes.flatMap((s) => s.keptFolders);
  const gone = [...held.keys()].filter((id) => {
    if (written.has(id)) return false;
    const prefix = (id.startsWith("/") ? id.slice(1) : id).replace(/[0-9]+$/, "");
    // A file found but not read this run (skipped) keeps its chunks, as do folders not entered.
    return !(present.has(prefix) && !found.files.some((f) => documentIdPrefix(f.source) === prefix)) && !kept.some((folder) => prefix.startsWith(folder));
  });
  if (args.dryRun) {
    out.pruned = args.prune ? gone.length : 0;
    return out;
  }
  for (let i = 0; i < toWrite.length; i += UPSERT_BATCH) {
    const batch = toWrite.slice(i, i + UPSERT_BATCH);
    try {
      args.signal.throwIfAborted();
      await args.complete(batch);
      out.upserted += await args.service.documents.upsert(args.host, args.namespace, batch, args.signal);
    } catch (err) {
      // What is left is not sent: the next run compares again and sends it.
      out.notLanded.push({ ids: toWrite.slice(i).map((d) => d._id), message: args.signal.aborted ? "cancelled" : messageOf(err) });
      return out;
    }
    args.progress(found.files.length, found.files.length, `${out.upserted} of ${toWrite.length} chunks written`);
  }
  if (args.prune) {
    for (let i = 0; i < gone.length; i += 1000) {
      await args.service.documents.delete(args.host, args.namespace, { ids: gone.slice(i, i + 1000) }, args.signal);
      out.pruned += Math.min(1000, gone.length - i);
    }
  }
  return out;
}
