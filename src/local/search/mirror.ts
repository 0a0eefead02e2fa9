// Every namespace's records in memory (search/vectors.ts), loaded from lmdb on first use and kept in step by the
// store's commit path: a change is applied once its lmdb transaction is committed and flushed, in commit order,
// before the write is acknowledged. lmdb stays the truth; a namespace whose mirror could not follow a change is
// dropped and loaded again on its next use.
import { MemoryLimitError, NamespaceVectors, type MemoryBudget } from "./vectors.js";
import type { SparseVector } from "../storage/codec.js";

export type MirrorChange =
  | { kind: "put"; space: string; namespace: string; id: string; values: Float32Array; sparse?: SparseVector; metadataJson?: string }
  | { kind: "remove"; space: string; namespace: string; id: string }
  /** The namespace (or, without one, the whole space) changed wholesale: load it again when it is next used. */
  | { kind: "reload"; space: string; namespace?: string };

/** Fills a fresh NamespaceVectors from lmdb. */
export type NamespaceLoader = (space: string, namespace: string, into: NamespaceVectors) => void;

export class Mirror implements MemoryBudget {
  private readonly spaces = new Map<string, Map<string, NamespaceVectors>>();
  private inUse = 0;

  constructor(private readonly load: NamespaceLoader, readonly limitBytes: number) {}

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
    if (found) return found;
    const nv = new NamespaceVectors(dimension, this, `namespace ${JSON.stringify(namespace)}`);
    try {
      this.load(space, namespace, nv);
    } catch (e) {
      nv.release();
      throw e;
    }
    if (!byName) this.spaces.set(space, (byName = new Map()));
    byName.set(namespace, nv);
    return nv;
  }

  /** Applies committed changes to the namespaces in memory (those not loaded load later from lmdb). */
  apply(changes: MirrorChange[]): void {
    for (const c of changes) {
      const byName = this.spaces.get(c.space);
      if (!byName) continue;
      if (c.kind === "reload") {
        for (const [name, nv] of byName) {
          if (c.namespace !== undefined && name !== c.namespace) continue;
          nv.release();
          byName.delete(name);
        }
        continue;
      }
      const nv = byName.get(c.namespace);
      if (!nv) continue;
      try {
        if (c.kind === "put") nv.put(c.id, c.values, c.sparse, c.metadataJson);
        else nv.remove(c.id);
      } catch {
        // out of memory for a change that lmdb already holds: forget the namespace; its next use loads it again
        nv.release();
        byName.delete(c.namespace);
      }
    }
  }
}
