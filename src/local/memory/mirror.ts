// Every namespace's records in memory (vectors.ts), loaded from lmdb on first use and kept in step by the storage's
// commit path (storage/store.ts): a change is applied once its lmdb transaction is committed and flushed, in commit
// order, before the write is acknowledged. lmdb stays the truth; a namespace whose mirror could not follow a change is
// dropped and loaded again on its next use. What the engine keeps beside a namespace (its approximate index) follows
// it through a MirrorFollower.
import { MemoryLimitError, NamespaceVectors, type MemoryBudget } from "./vectors.js";
import type { RecordChange } from "../storage/store.js";

/** Fills a fresh NamespaceVectors from lmdb. */
export type NamespaceLoader = (space: string, namespace: string, into: NamespaceVectors) => void;
/** Fills it a slice at a time: each call loads up to `max` more records and says whether it is done. */
export type SliceLoader = (space: string, namespace: string, into: NamespaceVectors) => (max: number) => boolean;

/** The most records a slice of the background load takes; fewer when records cost more (below). */
const WARM_SLICE = 2000;
/**
 * A slice takes about this long, so requests are answered between slices: a record costs far more to load where its
 * text is analysed as it loads (a document index's full-text fields) than where only its vector is copied.
 */
const WARM_SLICE_MS = 20;
/** The first slice, before the cost of a record is measured. */
const FIRST_WARM_SLICE = 200;
/** Until measured: scanning lmdb is assumed to cost this share of loading, a record (measured ≈ 0.2–0.3 at 768). */
const SCAN_SHARE_GUESS = 0.3;

/** A namespace loading in the background, and what its loading and the scans answering for it have cost. */
interface Loading {
  space: string;
  namespace: string;
  /** For the log: 'index "docs", namespace "notes"'. */
  label: string;
  step: (max: number) => boolean;
  /** What loading a record costs lately, in ms (a moving average over the slices: a load slows as it goes on). */
  loadPerRecord?: number;
  scanMs: number;
  scannedRecords: number;
  scans: number;
  started: number;
  log: (line: string) => void;
}
/** A load of at least this many records is logged (how long it took, how many queries a scan answered meanwhile). */
const LOG_LOAD_RECORDS = 10_000;
/** Rows brought into the int8 copy or the metadata index per turn of the event loop (≈ 5 ms at 768 dimensions). */
const CATCH_UP_SLICE = 1500;

/** What follows the namespaces in memory: told when one is whole (loaded, or changed), a slot changed, one is gone. */
export interface MirrorFollower {
  whole(space: string, namespace: string, nv: NamespaceVectors): void;
  changed(nv: NamespaceVectors, slot: number): void;
  forget(nv: NamespaceVectors): void;
}

/** Fits a namespace made in memory before its records come in (e.g. the indexes its searches will need). */
export type NamespacePreparer = (nv: NamespaceVectors) => void;

export class Mirror implements MemoryBudget {
  private readonly spaces = new Map<string, Map<string, NamespaceVectors>>();
  /** Namespaces being loaded in the background, with the step that loads their next slice. */
  private readonly loading = new Map<NamespaceVectors, Loading>();
  private readonly catchingUp = new Set<NamespaceVectors>();
  private inUse = 0;
  /** Queries answered by scanning lmdb while their namespace loaded (scanInstead). */
  scans = 0;
  private stopped = false;
  /** Each space's preparation, once known (from a search, or from warm): its namespaces load with what it builds. */
  private readonly preparers = new Map<string, Map<string, NamespacePreparer>>();
  private follower?: MirrorFollower;

  constructor(
    private readonly load: NamespaceLoader,
    readonly limitBytes: number,
    private readonly slices?: SliceLoader,
  ) {}

  /** From now on `follower` hears of every namespace made whole, every slot changed, every namespace dropped. */
  follow(follower: MirrorFollower): void {
    this.follower = follower;
  }

  /**
   * The space's namespaces are searched with what `prepare` builds (text postings, documents' full-text fields), kept
   * under `key`: namespaces made from now on build it as their records load, in the background after a start.
   */
  learnPreparation(space: string, key: string, prepare: NamespacePreparer): void {
    let byKey = this.preparers.get(space);
    if (!byKey) this.preparers.set(space, (byKey = new Map()));
    byKey.set(key, prepare);
  }

  private create(space: string, namespace: string, dimension: number): NamespaceVectors {
    const nv = new NamespaceVectors(dimension, this, nsLabel(namespace));
    nv.deferIndexes();
    for (const prepare of this.preparers.get(space)?.values() ?? []) prepare(nv);
    return nv;
  }

  private consider(space: string, namespace: string, nv: NamespaceVectors): void {
    if (!this.loading.has(nv)) this.follower?.whole(space, namespace, nv);
  }

  get bytesInUse(): number {
    return this.inUse;
  }

  take(bytes: number, what: string): void {
    if (this.inUse + bytes > this.limitBytes) {
      const mb = (n: number) => `${Math.ceil(n / 1048576)} MB`;
      throw new MemoryLimitError(
        `the local service keeps every record in memory, and ${what} needs ${mb(bytes)} more, past its limit of ${mb(this.limitBytes)} ` +
          `(${mb(this.inUse)} in use). Delete records or namespaces, or start the service with a larger memory limit`,
      );
    }
    this.inUse += bytes;
  }

  give(bytes: number): void {
    this.inUse -= bytes;
  }

  /** The namespace's records in memory, loaded from lmdb if need be (throws MemoryLimitError). */
  namespace(space: string, namespace: string, dimension: number): NamespaceVectors {
    let byName = this.spaces.get(space);
    const found = byName?.get(namespace);
    if (found) {
      this.finishLoading(found);
      return found;
    }
    const nv = this.create(space, namespace, dimension);
    try {
      this.load(space, namespace, nv);
    } catch (e) {
      nv.release();
      throw e;
    }
    if (!byName) this.spaces.set(space, (byName = new Map()));
    byName.set(namespace, nv);
    void this.catchUpLater(nv);
    this.consider(space, namespace, nv);
    return nv;
  }

  /**
   * Loads namespaces in the background, a slice per turn of the event loop, so the service answers meanwhile. A
   * namespace needed before its turn is finished at once by namespace(). Writes landing during a load are applied
   * to what is loaded so far and read again from lmdb by the slices after them (a put or remove applied twice is
   * the same as once), so the result equals a load done at once.
   */
  async warm(targets: { space: string; namespace: string; dimension: number; index?: string }[], log: (line: string) => void): Promise<void> {
    for (const { space, namespace, dimension, index } of targets) {
      if (this.stopped) return;
      if (this.spaces.get(space)?.has(namespace) || !this.slices) continue;
      const nv = this.create(space, namespace, dimension);
      const step = this.slices(space, namespace, nv);
      let byName = this.spaces.get(space);
      if (!byName) this.spaces.set(space, (byName = new Map()));
      byName.set(namespace, nv);
      const label = `${index === undefined ? "" : `index ${JSON.stringify(index)}, `}${nsLabel(namespace)}`;
      const loading: Loading = { space, namespace, label, step, scanMs: 0, scannedRecords: 0, scans: 0, started: performance.now(), log };
      this.loading.set(nv, loading);
      try {
        for (;;) {
          if (!this.loading.has(nv) || this.stopped) break;
          const t = performance.now();
          const before = nv.count;
          const done = step(loading.loadPerRecord === undefined ? FIRST_WARM_SLICE : Math.max(1, Math.min(WARM_SLICE, Math.floor(WARM_SLICE_MS / loading.loadPerRecord))));
          const added = nv.count - before;
          if (added > 0) {
            const perRecord = (performance.now() - t) / added;
            loading.loadPerRecord = loading.loadPerRecord === undefined ? perRecord : 0.8 * loading.loadPerRecord + 0.2 * perRecord;
          }
          if (done) {
            this.loaded(loading, nv);
            break;
          }
          await new Promise((r) => setImmediate(r));
        }
        void this.catchUpLater(nv);
      } catch (e) {
        log(`vecdb-mcp local service: ${label} not loaded in advance (${(e as Error).message}); it loads on first use`);
        this.forget(space, namespace, nv);
      }
      this.loading.delete(nv);
      if (this.spaces.get(space)?.get(namespace) === nv) this.consider(space, namespace, nv);
    }
  }

  /**
   * For a query on a namespace still loading in the background (of `total()` records in lmdb): whether to answer it by
   * scanning lmdb (search/scan-search.ts) rather than finishing the load first — when the scan costs less than the
   * rest of the load, counting the scans already made for this load, so that a stream of queries never costs more
   * than twice the load. Costs are measured as the load and the scans go (the load's by its recent slices).
   */
  scanInstead(space: string, namespace: string, total: () => number): boolean {
    const nv = this.spaces.get(space)?.get(namespace);
    const loading = nv && this.loading.get(nv);
    if (!nv || !loading) return false;
    const loadPerRecord = loading.loadPerRecord;
    if (loadPerRecord === undefined) return true; // nothing measured yet: the load has hardly begun
    const records = total();
    const scanPerRecord = loading.scannedRecords > 0 ? loading.scanMs / loading.scannedRecords : loadPerRecord * SCAN_SHARE_GUESS;
    return loading.scanMs + records * scanPerRecord < Math.max(0, records - nv.count) * loadPerRecord;
  }

  /** A scan answered for a namespace loading (what it cost counts in scanInstead). */
  scanned(space: string, namespace: string, records: number, ms: number): void {
    const nv = this.spaces.get(space)?.get(namespace);
    const loading = nv && this.loading.get(nv);
    this.scans++;
    if (!loading) return;
    loading.scans++;
    loading.scanMs += ms;
    loading.scannedRecords += records;
  }

  private loaded(loading: Loading, nv: NamespaceVectors): void {
    const ms = performance.now() - loading.started;
    if (nv.count < LOG_LOAD_RECORDS) return;
    const scans = loading.scans > 0 ? `; ${loading.scans} ${loading.scans === 1 ? "query" : "queries"} answered from lmdb meanwhile` : "";
    loading.log(`vecdb-mcp local service: ${loading.label} in memory: ${nv.count} records loaded in ${(ms / 1000).toFixed(1)} s${scans}`);
  }

  /** Stops background loading (the store is closing). */
  stop(): void {
    this.stopped = true;
  }

  private finishLoading(nv: NamespaceVectors): void {
    const loading = this.loading.get(nv);
    if (!loading) return;
    this.loading.delete(nv);
    try {
      loading.step(Infinity);
    } catch (e) {
      this.forget(loading.space, loading.namespace, nv); // never leave a half-loaded namespace to search
      throw e;
    }
    this.loaded(loading, nv);
    this.consider(loading.space, loading.namespace, nv);
    void this.catchUpLater(nv);
  }

  /**
   * Builds a loaded namespace's int8 copy and metadata index a slice per turn of the event loop (vectors.ts,
   * deferIndexes): the first query after a restart waits for the records only.
   */
  private async catchUpLater(nv: NamespaceVectors): Promise<void> {
    if (this.catchingUp.has(nv)) return;
    this.catchingUp.add(nv);
    try {
      while (!this.stopped && !nv.catchUp(CATCH_UP_SLICE)) await new Promise((r) => setImmediate(r));
    } finally {
      this.catchingUp.delete(nv);
    }
  }

  private forget(space: string, namespace: string, nv: NamespaceVectors): void {
    this.loading.delete(nv);
    this.follower?.forget(nv);
    nv.release();
    const byName = this.spaces.get(space);
    if (byName?.get(namespace) === nv) byName.delete(namespace);
  }

  /** Applies committed changes to the namespaces in memory (those not loaded load later from lmdb). */
  apply(changes: readonly RecordChange[]): void {
    const touched = new Map<NamespaceVectors, { space: string; namespace: string }>();
    for (const c of changes) {
      const byName = this.spaces.get(c.space);
      if (!byName) continue;
      if (c.kind === "reload") {
        for (const [name, nv] of byName) {
          if (c.namespace !== undefined && name !== c.namespace) continue;
          this.forget(c.space, name, nv);
        }
        continue;
      }
      const nv = byName.get(c.namespace);
      if (!nv) continue;
      try {
        if (c.kind === "put") {
          nv.put(c.id, c.values, c.sparse, c.metadataJson);
          this.follower?.changed(nv, nv.slotOf.get(c.id)!);
        } else {
          const slot = nv.slotOf.get(c.id);
          nv.remove(c.id);
          if (slot !== undefined) this.follower?.changed(nv, slot);
        }
        touched.set(nv, c);
      } catch {
        // out of memory for a change that lmdb already holds: forget the namespace; its next use loads it again
        this.forget(c.space, c.namespace, nv);
        touched.delete(nv);
      }
    }
    for (const [nv, { space, namespace }] of touched) if (this.spaces.get(space)?.get(namespace) === nv) this.consider(space, namespace, nv);
  }
}

function nsLabel(namespace: string): string {
  return `namespace ${JSON.stringify(namespace)}`;
}
