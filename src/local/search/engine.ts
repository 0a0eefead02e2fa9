// The engine: the one entry point to an index's records (as qdrant's segment puts its storages and indexes behind one),
// over three layers that depend downward only —
//   storage (storage/store.ts): the records in lmdb, the truth, written in commits;
//   memory (memory/): the records loaded from it — rows, norms, sparse and text postings, the metadata index — kept
//     in step inside the commit path (a write resolves once memory has applied it);
//   and here, the plan of a search: scan lmdb while the namespace is still loading | exact over memory | a large
//     namespace's approximate index | text over the postings, each with the request's filter compiled once.
// The HTTP layer (data/, control/) calls this and alone turns its refusals into the wire's answers.
import { totalmem } from "node:os";
import type { RootDatabase } from "lmdb";
import { Mirror, type NamespacePreparer } from "../memory/mirror.js";
import type { NamespaceVectors } from "../memory/vectors.js";
import { RecordStore, toWriteRecord, type SpaceStats, type StoredRecord, type VectorRecord, type WriteRecord } from "../storage/store.js";
import type { GraphThreadLoader } from "./ann-thread.js";
import { Approximate, DEFAULT_APPROXIMATE_ABOVE } from "./approximate.js";
import { searchNamespace, type Hit } from "./exact.js";
import type { FullTextOptions } from "./fulltext/analyzer.js";
import { documentText } from "./fulltext/search.js";
import { keepsJson, type CompiledFilter } from "./filter.js";
import { scanSearch } from "./scan-search.js";
import type { Metric, Query } from "./score.js";
import { searchPostings, type TextHit, type TextQuery } from "./text-search.js";

/** By default the records held in memory may take this share of the machine's memory. */
const DEFAULT_MEMORY_SHARE = 0.6;

export interface VectorStoreOptions {
  /** The most bytes the in-memory copy of the records may take (default: 60% of the machine's memory). */
  memoryLimitBytes?: number;
  /** Namespaces with at least this many records get an approximate index (search/approximate.ts); 0: never. */
  approximateAbove?: number;
  /** Starts the worker holding the approximate indexes (tests make it fail, or wrap it). */
  annLoader?: GraphThreadLoader;
  log?: (line: string) => void;
}

/** An index's space as the service warms it at start: its metric, and what its namespaces' searches need built. */
export interface WarmSpace {
  space: string;
  metric?: Metric;
  index?: string;
  /** Built as the records load: keyed by what it is (the same key, the same thing: built once). */
  prepare?: { key: string; run: NamespacePreparer };
}

export class VectorStore {
  /** The records in lmdb. */
  readonly storage: RecordStore;
  /** Every record in memory for search; lmdb stays the truth. */
  readonly mirror: Mirror;
  /** Large namespaces' approximate indexes, following the records in memory. */
  readonly approximate: Approximate;
  /** Each space's metric, once known (from a query, or from warm): an approximate index needs it. */
  private readonly metrics = new Map<string, Metric>();

  constructor(root: RootDatabase, options: VectorStoreOptions = {}) {
    const storage = new RecordStore(root);
    this.storage = storage;
    this.mirror = new Mirror(
      (space, namespace, into) => storage.loadInto(space, namespace, into)(Infinity),
      options.memoryLimitBytes ?? Math.floor(totalmem() * DEFAULT_MEMORY_SHARE),
      (space, namespace, into) => storage.loadInto(space, namespace, into),
    );
    this.approximate = new Approximate({ above: options.approximateAbove ?? DEFAULT_APPROXIMATE_ABOVE, budget: this.mirror, loader: options.annLoader, log: options.log });
    this.mirror.follow({
      whole: (space, namespace, nv) => {
        const metric = this.metrics.get(space);
        if (metric) this.approximate.consider(nv, metric, nsLabel(namespace));
      },
      changed: (nv, slot) => this.approximate.changed(nv, slot),
      forget: (nv) => this.approximate.forget(nv),
    });
    storage.follow((changes) => this.mirror.apply(changes));
  }

  // ---- the records, as storage holds them ---------------------------------------------------------------------

  copySpace(from: string, to: string, onChunk?: (copied: number) => void): Promise<SpaceStats> {
    return this.storage.copySpace(from, to, onChunk);
  }

  dropSpace(space: string): Promise<void> {
    return this.storage.dropSpace(space);
  }

  spaceStats(space: string): SpaceStats {
    return this.storage.spaceStats(space);
  }

  /** Writes all records in one transaction (later duplicates of an id win); resolves once search sees them. */
  async upsert(space: string, namespace: string, records: WriteRecord[], dimension?: number): Promise<void> {
    // Room in memory first: a write that could not be searched is refused before anything is written.
    this.vectors(space, namespace, dimension ?? records[0]?.values.length ?? 0).reserve(records.length);
    await this.storage.upsert(space, namespace, records, dimension);
  }

  /** Convenience for tests and tools: plain numbers in, stored as float32. */
  put(space: string, namespace: string, records: VectorRecord[], dimension?: number): Promise<void> {
    return this.upsert(space, namespace, records.map(toWriteRecord), dimension);
  }

  get(space: string, namespace: string, id: string): StoredRecord | undefined {
    return this.storage.get(space, namespace, id);
  }

  scan(space: string, namespace: string, opts: { metadata?: boolean } = {}): Generator<StoredRecord> {
    return this.storage.scan(space, namespace, opts);
  }

  scanFrom(space: string, namespace: string, opts: { metadata?: boolean; after?: Buffer } = {}): Generator<{ position: Buffer; record: StoredRecord }> {
    return this.storage.scanFrom(space, namespace, opts);
  }

  deleteIds(space: string, namespace: string, ids: string[]): Promise<number> {
    return this.storage.deleteIds(space, namespace, ids);
  }

  deleteAll(space: string, namespace: string): Promise<void> {
    return this.storage.deleteAll(space, namespace);
  }

  update(space: string, namespace: string, id: string, change: (r: StoredRecord) => WriteRecord | undefined): Promise<boolean> {
    return this.storage.update(space, namespace, id, change);
  }

  rewriteWhere(space: string, namespace: string, change: (r: StoredRecord) => WriteRecord | undefined, write?: (selected: WriteRecord[]) => boolean): Promise<number> {
    return this.storage.rewriteWhere(space, namespace, change, write);
  }

  listIds(space: string, namespace: string, opts: { prefix?: string; after?: Buffer; limit: number }): { ids: string[]; next?: Buffer } {
    return this.storage.listIds(space, namespace, opts);
  }

  sweepOrphans(): Promise<number> {
    return this.storage.sweepOrphans();
  }

  // ---- search: the plan ---------------------------------------------------------------------------------------

  /**
   * The best `topK` records for the query, optionally filtered: exactly as scoring every record would rank them, or,
   * for a large namespace's approximate index (search/approximate.ts), its candidates scored exactly.
   */
  async search(space: string, namespace: string, metric: Metric, q: Query, topK: number, filter?: CompiledFilter): Promise<{ hits: Hit[]; considered: number }> {
    if (!this.storage.has(space, namespace)) return { hits: [], considered: 0 };
    this.metrics.set(space, metric);
    // (the record count is read from lmdb only for a namespace still loading)
    const total = () => this.storage.count(space, namespace);
    if (this.mirror.scanInstead(space, namespace, total)) {
      // still loading after a restart, and reading lmdb through is quicker than finishing the load
      const t = performance.now();
      const found = scanSearch(this.storage.views(space, namespace), metric, q, topK, filter?.keeps);
      this.mirror.scanned(space, namespace, total(), performance.now() - t);
      return found;
    }
    const nv = this.vectors(space, namespace);
    const allowed = filter === undefined ? undefined : this.select(nv, filter);
    if (this.approximate.answers(nv, metric, q, topK, allowed, nsLabel(namespace))) {
      const hits = await this.approximate.search(nv, metric, q, topK, allowed);
      if (hits) return { hits, considered: allowed ? allowed.length : nv.count };
      return this.exactSearch(space, namespace, metric, q, topK, filter); // the namespace as it is after the wait
    }
    return { hits: searchNamespace(nv, metric, q, topK, allowed), considered: allowed ? allowed.length : nv.count };
  }

  private exactSearch(space: string, namespace: string, metric: Metric, q: Query, topK: number, filter?: CompiledFilter): { hits: Hit[]; considered: number } {
    if (!this.storage.has(space, namespace)) return { hits: [], considered: 0 };
    const nv = this.vectors(space, namespace);
    const allowed = filter === undefined ? undefined : this.select(nv, filter);
    return { hits: searchNamespace(nv, metric, q, topK, allowed), considered: allowed ? allowed.length : nv.count };
  }

  /**
   * BM25 over the namespace's postings of text field `field` (in memory: search/text-search.ts), a filter answered by
   * the metadata index. `read`: the documents searched.
   */
  searchText(space: string, namespace: string, field: string | undefined, query: Omit<TextQuery, "allowed">, filter?: CompiledFilter): { hits: TextHit[]; read: number } {
    if (!this.storage.has(space, namespace)) return { hits: [], read: 0 };
    const text = textPreparation(field);
    this.mirror.learnPreparation(space, text.key, text.run);
    const nv = this.vectors(space, namespace);
    const postings = nv.textPostings(field);
    let allowed: Uint8Array | undefined;
    if (filter !== undefined) {
      allowed = new Uint8Array(postings.slotCapacity);
      for (const slot of this.select(nv, filter)) if (slot < allowed.length) allowed[slot] = 1;
    }
    return searchPostings(postings, nv.ids, { ...query, allowed });
  }

  /** The namespace's records in memory (a load under way is finished first), for the engines that search them (full text). */
  namespaceInMemory(space: string, namespace: string): NamespaceVectors | undefined {
    return this.storage.has(space, namespace) ? this.vectors(space, namespace) : undefined;
  }

  /** How many records of the namespace a filter keeps (from the metadata index). */
  countMatching(space: string, namespace: string, filter: CompiledFilter): number {
    if (!this.storage.has(space, namespace)) return 0;
    return this.select(this.vectors(space, namespace), filter).length;
  }

  /** The records a filter keeps, in id (key) order, after the opaque `after` position: like scanFrom, without a scan. */
  scanMatching(space: string, namespace: string, filter: CompiledFilter, opts: { after?: Buffer } = {}): Generator<{ position: Buffer; record: StoredRecord }> {
    return this.storage.recordsOf(space, namespace, this.idsMatching(space, namespace, filter), opts);
  }

  /**
   * Removes every record a filter keeps, found by the metadata index; its predicate checks each again inside the
   * transaction, so a record changed meanwhile is left alone. Returns how many.
   */
  async deleteMatching(space: string, namespace: string, filter: CompiledFilter): Promise<number> {
    await this.storage.settled();
    const ids = this.idsMatching(space, namespace, filter);
    if (ids.length === 0) return 0;
    return this.storage.removeIdsWhere(space, namespace, ids, (metadataJson) => keepsJson(filter, metadataJson));
  }

  private idsMatching(space: string, namespace: string, filter: CompiledFilter): string[] {
    if (!this.storage.has(space, namespace)) return [];
    const nv = this.vectors(space, namespace);
    return this.select(nv, filter).map((slot) => nv.ids[slot]!);
  }

  private select(nv: NamespaceVectors, filter: CompiledFilter): number[] {
    return nv.metadataIndex().select(filter.source, () => nv.liveSlots());
  }

  private vectors(space: string, namespace: string, dimension?: number): NamespaceVectors {
    return this.mirror.namespace(space, namespace, this.storage.dimension(space) ?? dimension ?? 0);
  }

  /**
   * Starts loading every namespace of these spaces into memory in the background (the service's indexes at start),
   * with what their searches need built as they load; a space given with its metric also gets approximate indexes
   * for its large namespaces.
   */
  warm(spaces: (string | WarmSpace)[], log: (line: string) => void): Promise<void> {
    const given = spaces.map((s) => (typeof s === "string" ? { space: s } : s));
    for (const { space, metric, prepare } of given) {
      if (metric) this.metrics.set(space, metric);
      if (prepare) this.mirror.learnPreparation(space, prepare.key, prepare.run);
    }
    const dimension = (space: string) => this.storage.dimension(space) ?? 0;
    return this.mirror.warm(
      given.flatMap(({ space, index }) => this.storage.namespaces(space).map((namespace) => ({ space, namespace, dimension: dimension(space), index }))),
      log,
    );
  }

  /** Stops background loading and the approximate indexes' worker (the service is closing); resolves once it has. */
  stop(): Promise<void> {
    this.mirror.stop();
    return this.approximate.stop();
  }
}

/** What a records index's text search builds for field `field` (a sparse index of local-bm25: its postings). */
export function textPreparation(field: string | undefined): { key: string; run: NamespacePreparer } {
  return { key: `text ${field ?? ""}`, run: (nv) => nv.textPostings(field) };
}

/** What a document index's search builds: its full-text fields' postings (search/fulltext/). */
export function documentsPreparation(fullText: ReadonlyMap<string, FullTextOptions>): { key: string; run: NamespacePreparer } {
  return { key: "documents", run: (nv) => void documentText(nv, fullText) };
}

function nsLabel(namespace: string): string {
  return `namespace ${JSON.stringify(namespace)}`;
}
