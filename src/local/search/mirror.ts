// Every namespace's records in memory (search/vectors.ts), loaded from lmdb on first use and kept in step by the
// store's commit path: a change is applied once its lmdb transaction is committed and flushed, in commit order,
// before the write is acknowledged. lmdb stays the truth; a namespace whose mirror could not follow a change is
// dropped and loaded again on its next use.
import { MemoryLimitError, NamespaceVectors, type MemoryBudget } from "./vectors.js";
import { Approximate, DEFAULT_APPROXIMATE_ABOVE } from "./approximate.js";
import type { GraphHostLoader } from "./ann-host.js";
import type { Metric } from "./score.js";
import type { SparseVector } from "../storage/codec.js";

export type MirrorChange =
  | { kind: "put"; space: string; namespace: string; id: string; values: Float32Array; sparse?: SparseVector; metadataJson?: string }
  | { kind: "remove"; space: string; namespace: string; id: string }
  /** The namespace (or, without one, the whole space) changed wholesale: load it again when it is next used. */
  | { kind: "reload"; space: string; namespace?: string };

/** Fills a fresh NamespaceVectors from lmdb. */
export type NamespaceLoader = (space: string, namespace: string, into: NamespaceVectors) => void;
/** Fills it a slice at a time: each call loads up to `max` more records and says whether it is done. */
export type SliceLoader = (space: string, namespace: string, into: NamespaceVectors) => (max: number) => boolean;

const WARM_SLICE = 2000;
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

export interface MirrorOptions {
  /** Namespaces with at least this many records get an approximate index (search/approximate.ts); 0: never. */
  approximateAbove?: number;
  /** Starts the worker holding the approximate indexes (tests make it fail, or wrap it). */
  annLoader?: GraphHostLoader;
  log?: (line: string) => void;
}

export class Mirror implements MemoryBudget {
  private readonly spaces = new Map<string, Map<string, NamespaceVectors>>();
  /** Namespaces being loaded in the background, with the step that loads their next slice. */
  private readonly loading = new Map<NamespaceVectors, Loading>();
  private readonly catchingUp = new Set<NamespaceVectors>();
  private inUse = 0;
  /** Queries answered by scanning lmdb while their namespace loaded (scanInstead). */
  scans = 0;
  private stopped = false;
  /** Large namespaces' approximate indexes, kept in step by apply(). */
  readonly approximate: Approximate;
  /** Each space's metric, once known (from a query, or from warm): an approximate index needs it. */
  private readonly metrics = new Map<string, Metric>();
  /** Each space's text field, once known (from a text search, or from warm): its namespaces load with its postings. */
  private readonly textFields = new Map<string, string | undefined>();

  constructor(
    private readonly load: NamespaceLoader,
    readonly limitBytes: number,
    private readonly slices?: SliceLoader,
    options: MirrorOptions = {},
  ) {
    this.approximate = new Approximate({
      above: options.approximateAbove ?? DEFAULT_APPROXIMATE_ABOVE,
      budget: this,
      loader: options.annLoader,
      log: options.log,
    });
  }

  /** The space's metric: from now on its namespaces past the threshold get an approximate index. */
  learnMetric(space: string, metric: Metric): void {
    this.metrics.set(space, metric);
  }

  /** The space is searched by text in metadata field `field`: namespaces loaded from now on build its postings as they load. */
  learnTextField(space: string, field: string | undefined): void {
    this.textFields.set(space, field);
  }

  private create(space: string, namespace: string, dimension: number): NamespaceVectors {
    const nv = new NamespaceVectors(dimension, this, nsLabel(namespace));
    nv.deferIndexes();
    if (this.textFields.has(space)) nv.textPostings(this.textFields.get(space));
    return nv;
  }

  private consider(space: string, namespace: string, nv: NamespaceVectors): void {
    const metric = this.metrics.get(space);
    if (metric && !this.loading.has(nv)) this.approximate.consider(nv, metric, nsLabel(namespace));
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
  async warm(
    targets: { space: string; namespace: string; dimension: number; metric?: Metric; index?: string; textField?: string }[],
    log: (line: string) => void,
  ): Promise<void> {
    for (const { space, metric } of targets) if (metric) this.learnMetric(space, metric);
    for (const { space, textField } of targets) if (textField !== undefined) this.learnTextField(space, textField);
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
          const done = step(WARM_SLICE);
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
   * scanning lmdb (storage/scan-search.ts) rather than finishing the load first — when the scan costs less than the
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

  /** Stops background loading and the approximate indexes' worker (the store is closing); resolves once it has. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.approximate.stop();
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
    this.approximate.forget(nv);
    nv.release();
    const byName = this.spaces.get(space);
    if (byName?.get(namespace) === nv) byName.delete(namespace);
  }

  /** Applies committed changes to the namespaces in memory (those not loaded load later from lmdb). */
  apply(changes: MirrorChange[]): void {
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
          this.approximate.changed(nv, nv.slotOf.get(c.id)!);
        } else {
          const slot = nv.slotOf.get(c.id);
          nv.remove(c.id);
          if (slot !== undefined) this.approximate.changed(nv, slot);
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
