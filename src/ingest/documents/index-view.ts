// What the index holds under a run's scopes, learnt from the index itself (no local cache to drift), in as few
// steps as tell it all:
//
// 1. the namespace's record count (describe_index_stats): none, and there is nothing else to learn (a first run);
// 2. the first chunks of the files found, fetched by id as soon as the walk names them. A first chunk in step
//    records its file's chunk count, and its file holds exactly chunks 2..n besides it (document-writes.ts keeps
//    it so). When all are in step and their counts add up to the namespace's count, every record is accounted for:
//    no file is gone, no chunk is orphaned or past a file's end — nothing needs listing. This is a re-run with
//    nothing changed in a namespace of its own.
// 3. Otherwise the first chunks under "/" + scope are listed (one id a file) and fetched: files deleted since, and
//    files found but not read (excluded, skipped). If they now account for every record, that is all.
// 4. Otherwise — a run stopped part-way, chunks written by other means, other records sharing the namespace, or a
//    hosted count not yet up to date — every id under the scopes is listed too, as each run did before first chunks
//    had their own prefix, and the run compares and prunes from that.
//
// A file whose path is too long for an id is named by the path's hash, outside every scope's listing: its first chunk
// is fetched by id (step 2). Once such a file is gone nothing lists its chunks, so they stay, and the count no longer
// adds up (later runs list every id) — as before, when the full listing never found them either.
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { chunkId, documentIdPrefix, firstChunksPrefix, parseDocumentId, type FileStamp } from "./document-records.js";
import { FetchPool } from "./fetch-pool.js";

/** Hosted list pages hold at most 100 ids. */
const PAGE = 100;
/**
 * A fetch asks for as many first chunks as its query string holds: the 6,000 characters at which fetchMetadata would
 * split it (src/api/data.ts), each id weighing "&ids=" and its encoded form. Not imported from there: this module is
 * loaded lazily, and an import would move the data plane out of the bundle's startup file.
 */
const QUERY_CHARS = 6000;
const queryChars = (id: string) => encodeURIComponent(id).length + 5;
/** Fetches of first chunks in flight at once. */
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
  /** What had to be listed to account for every record (steps 2, 3 and 4 above). */
  listed: "nothing" | "first chunks" | "every id";
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
  /** First-chunk ids of the files found, once the folders are walked (which goes on while the count is asked). */
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
  counted.catch(() => {}); // awaited below; not an unhandled rejection if the walk fails first
  const scopes = [...new Set(a.scopes)];
  const firsts = new Map<string, FirstChunk>();
  const asked = new Set<string>();
  /** Fetches these first chunks, and those `more` adds while it runs; each id once over the whole run. */
  const fetchFirsts = async (ids: Iterable<string>, more?: (add: (ids: Iterable<string>) => void) => Promise<void>) => {
    const pool = new FetchPool(async (batch) => {
      for (const [id, metadata] of await a.service.data.fetchMetadata(a.index.host, batch, a.namespace, a.signal)) {
        const first = firstChunkOf(id, metadata);
        if (first) firsts.set(first.prefix, first);
      }
    }, FETCHES_IN_FLIGHT, queryChars, QUERY_CHARS);
    const add = (batch: Iterable<string>) => {
      const fresh = [...batch].filter((id) => !asked.has(id));
      for (const id of fresh) asked.add(id);
      pool.add(fresh);
    };
    add(ids);
    try {
      await more?.(add);
    } catch (err) {
      await pool.close().catch(() => {}); // no fetch runs on after the caller moved on
      throw err;
    }
    await pool.close();
  };
  const accounted = (count: number) => {
    let sum = 0;
    for (const first of firsts.values()) {
      if (!inStep(first)) return false;
      sum += first.stamp.chunks;
    }
    return sum === count;
  };

  // 1. An empty namespace has nothing to learn (a first run).
  const [count, found] = await Promise.all([counted, a.found]);
  if (count === 0) return { firsts, listed: "nothing" };

  // 2. The first chunks of the files found, by id: when they account for every record, nothing else exists.
  await fetchFirsts(found);
  if (accounted(count)) return { firsts, listed: "nothing" };

  // 3. The first chunks under the scopes (files that are gone, files found but not read), each page fetched as it
  //    comes; the next page is asked for first, so the listing does not wait for the fetches.
  await fetchFirsts([], async (add) => {
    for (const scope of scopes) {
      for await (const ids of listPages(a, firstChunksPrefix(scope))) {
        add(ids.filter((id) => {
          const parsed = parseDocumentId(id);
          return parsed?.first === true && inScope(parsed.prefix, scope);
        }));
      }
    }
  });
  if (accounted(count)) return { firsts, listed: "first chunks" };

  // 4. Every id under the scopes.
  const others = new Map<string, Set<number>>();
  for (const scope of scopes) {
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
    if (!scopes.some((scope) => inScope(first.prefix, scope)) && inStep(first)) {
      others.set(first.prefix, new Set(Array.from({ length: first.stamp.chunks - 1 }, (_, i) => i + 2)));
    }
  }
  return { firsts, others, listed: "every id" };
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

/**
 * Of `ids` (a prune plan), those this tool wrote: a record whose metadata names a source whose id prefix is the id's,
 * with the content hash every chunk carries. A record another tool wrote under a matching id ("ticket#12" from
 * upsert_records) has no such metadata and is never deleted. First chunks are known from the view; others are fetched.
 */
export async function writtenByThisTool(service: Service, index: IndexModel, namespace: string, ids: readonly string[], view: IndexView, signal: AbortSignal): Promise<string[]> {
  const firstsById = new Map([...view.firsts.values()].map((f) => [f.id, f]));
  const toFetch = ids.filter((id) => !firstsById.has(id));
  const fetched = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < toFetch.length; i += PAGE) {
    for (const [id, metadata] of await service.data.fetchMetadata(index.host, toFetch.slice(i, i + PAGE), namespace, signal)) fetched.set(id, metadata);
  }
  return ids.filter((id) => {
    const parsed = parseDocumentId(id);
    if (parsed === undefined) return false;
    const first = firstsById.get(id);
    const m = first ? { source: first.source, contentHash: first.contentHash } : fetched.get(id);
    return typeof m?.source === "string" && typeof m.contentHash === "string" && documentIdPrefix(m.source) === parsed.prefix;
  });
}
