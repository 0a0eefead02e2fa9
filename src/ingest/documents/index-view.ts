// What the index holds under a run's scopes, learnt from the index itself (no local cache to drift):
//
// 1. the first chunk of every file: listed under "/" + scope (one id a file, pages of 100) and fetched for its
//    metadata — the first chunks of the files found are fetched by id as soon as the walk names them, those only
//    the listing names (files that are gone) as it names them (fetch-pool.ts);
// 2. the namespace's record count (describe_index_stats). When the first chunks are all in step and their chunk
//    counts add up to it, every record of the namespace is accounted for: a file with a first chunk holds exactly
//    chunks 2..n besides it, and no other chunk exists (no orphans of a run that stopped, nothing past a file's end).
// 3. Otherwise — a run stopped part-way, chunks written by hand, other records sharing the namespace, or a hosted
//    count not yet up to date — every id under the scopes is listed, as each run did before first chunks had their
//    own prefix, and the run compares and prunes from that.
//
// A file whose path is too long for an id is named by the path's hash, outside every scope's listing: its first chunk
// is fetched by id. Once such a file is gone nothing lists its chunks, so they stay, and the count no longer adds up
// (later runs list every id) — as before, when the full listing never found them either.
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { chunkId, firstChunksPrefix, parseDocumentId, type FileStamp } from "./document-records.js";
import { FetchPool } from "./fetch-pool.js";

/** Hosted list pages hold at most 100 ids. */
const PAGE = 100;
/** Fetches of first chunks in flight at once while the listing goes on. */
const FETCHES_IN_FLIGHT = 4;

export interface FirstChunk {
  id: string;
  /** The file's id prefix ("notes/a.md#"). */
  prefix: string;
  source?: string;
  /** The version of the file its chunks hold; "" when it is not known to be in step (a run changed the file's other
   * chunks and did not get to write this one again). */
  fileHash: string;
  contentHash?: string;
  stamp: Partial<FileStamp>;
}

export interface IndexView {
  /** First chunks by file prefix. */
  firsts: Map<string, FirstChunk>;
  /**
   * Chunk numbers of the other ids under the scopes, by file prefix, when every id was listed (1 stands for a first
   * chunk of the earlier layout, "path#1"); undefined when the first chunks account for every record.
   */
  others?: Map<string, Set<number>>;
}

/** A first chunk whose file is known to be in step: it names a version and its chunk count. */
export function inStep(first: FirstChunk | undefined): first is FirstChunk & { stamp: { chunks: number } } {
  return first !== undefined && first.fileHash !== "" && Number.isInteger(first.stamp.chunks) && first.stamp.chunks! >= 1;
}

export interface LearnArgs {
  service: Service;
  index: IndexModel;
  namespace: string;
  signal: AbortSignal;
  /** Scope prefixes of the run: a folder's "notes/" ("" for a root), a file's "notes/a.md#". */
  scopes: readonly string[];
  /** First-chunk ids of the files found, once the folders are walked (which goes on meanwhile). Fetched without
   * waiting for the listing; and the only way to find the first chunk of a file named by its path's hash. */
  found: Promise<readonly string[]>;
}

/** Whether `prefix` (a file's) lies in the scope: under a folder's prefix, or the very file. */
function inScope(prefix: string, scope: string): boolean {
  return scope.endsWith("#") ? prefix === scope : prefix.startsWith(scope);
}

/**
 * The pages of ids under `prefix`. The next page is asked for before a page is handed on: what the caller then asks
 * for (a fetch of those ids) queues behind it, so the listing runs ahead and the service never waits for the client.
 */
async function* listPages(a: LearnArgs, prefix: string): AsyncGenerator<string[]> {
  const list = (token: string | undefined) =>
    a.service.data.listIds(a.index.host, { namespace: a.namespace, prefix: prefix === "" ? undefined : prefix, limit: PAGE, paginationToken: token }, a.signal);
  let page = await list(undefined);
  for (;;) {
    const next = page.next === undefined ? undefined : list(page.next);
    next?.catch(() => {}); // awaited below, unless the caller stops early
    yield page.ids;
    if (next === undefined) return;
    page = await next;
  }
}

function firstChunkOf(id: string, metadata: Record<string, unknown> | undefined): FirstChunk | undefined {
  const parsed = parseDocumentId(id);
  if (!parsed?.first) return undefined;
  const m = metadata ?? {};
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    id,
    prefix: parsed.prefix,
    source: str(m.source),
    fileHash: str(m.fileHash) ?? "",
    contentHash: str(m.contentHash),
    stamp: { chunks: num(m.chunks), fileBytes: num(m.fileBytes), modifiedMs: num(m.modifiedMs), chunking: str(m.chunking) },
  };
}

/** The namespace's record count, as describe_index_stats tells it (the default namespace may be named "__default__"). */
async function namespaceCount(a: LearnArgs): Promise<number> {
  const stats = await a.service.data.describeIndexStats(a.index.host, a.signal);
  const ns = stats.namespaces ?? {};
  return (ns[a.namespace] ?? (a.namespace === "" ? ns.__default__ : undefined))?.vectorCount ?? 0;
}

export async function learnIndex(a: LearnArgs): Promise<IndexView> {
  const counted = namespaceCount(a);
  counted.catch(() => {}); // awaited below; not an unhandled rejection if listing fails first
  const firsts = new Map<string, FirstChunk>();
  const scopes = [...new Set(a.scopes)];
  const pool = new FetchPool(async (ids) => {
    for (const [id, metadata] of await a.service.data.fetchMetadata(a.index.host, ids, a.namespace, a.signal)) {
      const first = firstChunkOf(id, metadata);
      if (first) firsts.set(first.prefix, first);
    }
  }, FETCHES_IN_FLIGHT);

  // Whether the index holds any first chunk under the scopes, known from the first page of each: if not (a first
  // run), the files found are not fetched in vain.
  let answer!: (any: boolean) => void;
  const anyListed = new Promise<boolean>((resolve) => (answer = resolve));
  const listing = async () => {
    let unanswered = scopes.length;
    for (const scope of scopes) {
      let firstPage = true;
      for await (const ids of listPages(a, firstChunksPrefix(scope))) {
        const mine = ids.filter((id) => {
          const parsed = parseDocumentId(id);
          return parsed?.first === true && inScope(parsed.prefix, scope);
        });
        pool.add(mine);
        if (mine.length > 0) answer(true);
        if (firstPage && --unanswered === 0) answer(false);
        firstPage = false;
      }
    }
    answer(false);
  };
  const foundFiles = async () => {
    const found = await a.found;
    // A file named by its path's hash lies outside every scope's listing: fetched by id, whatever the listing says.
    pool.add(found.filter((id) => !scopes.some((scope) => inScope(parseDocumentId(id)?.prefix ?? "", scope))));
    if (await anyListed) pool.add(found);
  };
  try {
    await Promise.all([listing(), foundFiles()]);
  } catch (err) {
    await pool.close().catch(() => {}); // no fetch runs on after the caller moved on
    throw err;
  }
  await pool.close();

  let accounted = 0;
  let allInStep = true;
  for (const first of firsts.values()) {
    if (inStep(first)) accounted += first.stamp.chunks;
    else allInStep = false;
  }
  if (allInStep && accounted === (await counted)) return { firsts };

  const others = new Map<string, Set<number>>();
  for (const scope of new Set(a.scopes)) {
    for await (const ids of listPages(a, scope)) {
      for (const id of ids) {
        const parsed = parseDocumentId(id);
        if (!parsed || parsed.first || !inScope(parsed.prefix, scope)) continue;
        const chunks = others.get(parsed.prefix) ?? new Set<number>();
        chunks.add(parsed.chunk);
        others.set(parsed.prefix, chunks);
      }
    }
  }
  // A file named by its path's hash lies outside every scope's listing: its first chunk speaks for its other chunks.
  for (const first of firsts.values()) {
    if (!a.scopes.some((scope) => inScope(first.prefix, scope)) && inStep(first)) {
      others.set(first.prefix, new Set(Array.from({ length: first.stamp.chunks - 1 }, (_, i) => i + 2)));
    }
  }
  return { firsts, others };
}

/**
 * The ids the index holds for a file besides its first chunk (chunk 1 here is a first chunk of the earlier layout).
 * Without a full listing they follow from the first chunk: chunks 2..n when it is in step, none when there is none.
 */
export function otherChunks(view: IndexView, prefix: string): number[] {
  if (view.others) return [...(view.others.get(prefix) ?? [])].sort((x, y) => x - y);
  const first = view.firsts.get(prefix);
  if (!inStep(first)) return [];
  return Array.from({ length: first.stamp.chunks - 1 }, (_, i) => i + 2);
}

/** The id of a listed chunk number of a file (1: the earlier layout's first chunk, "path#1"). */
export function otherChunkId(prefix: string, chunk: number): string {
  return chunk === 1 ? `${prefix}1` : chunkId(prefix, chunk);
}
