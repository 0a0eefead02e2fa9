// Durable storage of vector records in lmdb sub-databases of the service's root environment.
//
//   vectors.records  [u32 space no][u32 ns no][id bytes] → encoded record (see keys.ts, codec.ts)
//   (spaces and namespaces: see spaces.ts)
//
// Every write is one lmdb transaction; nothing in a transaction callback throws (lmdb-js commits what was
// written even if the callback throws), so callers validate first. A write resolves after the commit is
// flushed to disk.
import type { Database, RootDatabase } from "lmdb";
import { decodeLongId, decodeMetadataJson, decodeRecord, encodeRecord, type SparseVector } from "./codec.js";
import { idFromKey, KEY_HEADER, recordKey, scopeEnd, scopePrefix } from "./keys.js";
import { SpaceCatalog, type NsHolder } from "./spaces.js";

export interface SparseValues { indices: number[]; values: number[] }
export interface VectorRecord { id: string; values: number[]; sparseValues?: SparseValues; metadata?: Record<string, unknown> }
export interface SpaceStats { namespaces: Record<string, { vectorCount: number }>; totalVectorCount: number; bytes: number; dimension?: number }

/** A record as the data plane writes it: dense values already 32-bit floats, metadata already JSON text. */
export interface WriteRecord { id: string; values: Float32Array; sparse?: SparseVector; metadataJson?: string }
/** A record as read back. */
export interface StoredRecord extends WriteRecord { norm: number }

const COPY_CHUNK_RECORDS = 1000;
const COPY_CHUNK_BYTES = 8 * 1024 * 1024;
const DELETE_CHUNK = 5000;

export class VectorStore {
  private readonly root: RootDatabase;
  private readonly catalog: SpaceCatalog;
  private readonly records: Database<Buffer, Buffer>;

  constructor(root: RootDatabase) {
    this.root = root;
    this.catalog = new SpaceCatalog(root);
    this.records = root.openDB<Buffer, Buffer>({ name: "vectors.records", encoding: "binary", keyEncoding: "binary" });
  }

  // ---- the contract with L1 -------------------------------------------------------------------------------

  /**
   * Replaces `to` with a copy of every namespace of `from`, read from one snapshot, written in chunks.
   * `onChunk` hears the number of records copied so far after each chunk's commit (restore jobs show it as percent).
   */
  async copySpace(from: string, to: string, onChunk?: (copied: number) => void): Promise<SpaceStats> {
    await this.dropSpace(to);
    const snapshot = this.root.useReadTransaction();
    try {
      const source = this.catalog.space(from, snapshot);
      if (!source) {
        await this.commit(() => this.catalog.ensureSpace(to, undefined));
        return this.spaceStats(to);
      }
      const namespaces = this.catalog.namespaces(source.no, snapshot);
      let targetNo = 0;
      await this.commit(() => {
        targetNo = this.catalog.allocSpaceNo();
      });
      // Records go under a space number nobody can see until the last transaction registers it, so a crash
      // mid-copy leaves only unreachable records (sweepOrphans removes them), never a half-filled space.
      let start: Buffer = scopePrefix(source.no);
      let exclusive = false;
      let copied = 0;
      const end = scopeEnd(source.no);
      for (;;) {
        const chunk: { key: Buffer; value: Buffer }[] = [];
        let bytes = 0;
        for (const entry of this.records.getRange({ start, end, exclusiveStart: exclusive, transaction: snapshot })) {
          chunk.push({ key: Buffer.from(entry.key), value: Buffer.from(entry.value) });
          bytes += entry.value.length;
          if (chunk.length >= COPY_CHUNK_RECORDS || bytes >= COPY_CHUNK_BYTES) break;
        }
        if (chunk.length === 0) break;
        await this.root.transaction(() => {
          for (const { key, value } of chunk) {
            const k = Buffer.from(key);
            k.writeUInt32BE(targetNo, 0);
            this.records.putSync(k, value);
          }
        });
        start = chunk[chunk.length - 1].key;
        exclusive = true;
        copied += chunk.length;
        onChunk?.(copied);
      }
      await this.commit(() => this.catalog.registerCopy(to, source, targetNo, namespaces));
    } finally {
      snapshot.done();
    }
    return this.spaceStats(to);
  }

  async dropSpace(space: string): Promise<void> {
    const entry = this.catalog.space(space);
    if (!entry) return;
    await this.commit(() => this.catalog.removeSpace(space, entry.no));
    await this.removeRange(scopePrefix(entry.no), scopeEnd(entry.no));
  }

  spaceStats(space: string): SpaceStats {
    const entry = this.catalog.space(space);
    const stats: SpaceStats = { namespaces: {}, totalVectorCount: 0, bytes: 0 };
    if (!entry) return stats;
    if (entry.dimension !== undefined) stats.dimension = entry.dimension;
    for (const { entry: ns } of this.catalog.namespaces(entry.no)) {
      stats.namespaces[ns.name] = { vectorCount: ns.count };
      stats.totalVectorCount += ns.count;
      stats.bytes += ns.bytes;
    }
    return stats;
  }

  // ---- used by the data plane -----------------------------------------------------------------------------

  /** Writes all records in one transaction (later duplicates of an id win). */
  async upsert(space: string, namespace: string, records: WriteRecord[], dimension?: number): Promise<void> {
    await this.commit(() => {
      const sp = this.catalog.ensureSpace(space, dimension);
      const ns = this.catalog.ensureNamespace(space, sp, namespace);
      for (const r of records) this.putRecord(sp.no, ns, r);
      this.catalog.saveNamespace(sp.no, ns);
    });
  }

  /** Convenience for tests and tools: plain numbers in, stored as float32. */
  put(space: string, namespace: string, records: VectorRecord[], dimension?: number): Promise<void> {
    return this.upsert(space, namespace, records.map(toWriteRecord), dimension);
  }

  get(space: string, namespace: string, id: string): StoredRecord | undefined {
    const scope = this.catalog.scopeOf(space, namespace);
    if (!scope) return undefined;
    const value = this.records.getBinary(recordKey(scope.spaceNo, scope.nsNo, id).key);
    return value ? toStored(id, value) : undefined;
  }

  /** Every record of a namespace, in id order. `metadata: false` skips reading metadata. */
  *scan(space: string, namespace: string, opts: { metadata?: boolean } = {}): Generator<StoredRecord> {
    for (const { record } of this.scanFrom(space, namespace, opts)) yield record;
  }

  /** Like scan, from after an opaque `position` (as yielded with each record, e.g. for pagination). */
  *scanFrom(space: string, namespace: string, opts: { metadata?: boolean; after?: Buffer } = {}): Generator<{ position: Buffer; record: StoredRecord }> {
    const scope = this.catalog.scopeOf(space, namespace);
    if (!scope) return;
    const wantMeta = opts.metadata !== false;
    const base = scopePrefix(scope.spaceNo, scope.nsNo);
    const start = opts.after ? Buffer.concat([base, opts.after]) : base;
    const range = this.records.getRange({ start, exclusiveStart: opts.after !== undefined, end: scopeEnd(scope.spaceNo, scope.nsNo) });
    for (const { key, value } of range) {
      const d = decodeRecord(value, wantMeta);
      const id = idFromKey(key) ?? d.longId ?? "";
      yield { position: Buffer.from(key.subarray(KEY_HEADER)), record: { id, values: d.values, norm: d.norm, sparse: d.sparse, metadataJson: d.metadataJson } };
    }
  }

  /** Metadata JSON of every record, without decoding vectors: for filters on stats and deletes. */
  *scanMetadata(space: string, namespace: string): Generator<{ id: string; metadataJson: string | undefined }> {
    const scope = this.catalog.scopeOf(space, namespace);
    if (!scope) return;
    for (const { key, value } of this.records.getRange({ start: scopePrefix(scope.spaceNo, scope.nsNo), end: scopeEnd(scope.spaceNo, scope.nsNo) })) {
      yield { id: idFromKey(key) ?? decodeLongId(value) ?? "", metadataJson: decodeMetadataJson(value) };
    }
  }

  /** Removes the ids that exist; returns how many did. */
  async deleteIds(space: string, namespace: string, ids: string[]): Promise<number> {
    let removed = 0;
    await this.commit(() => {
      const scope = this.catalog.scopeOf(space, namespace);
      if (!scope) return;
      const ns = this.catalog.holder(scope);
      for (const id of ids) {
        const { key } = recordKey(scope.spaceNo, scope.nsNo, id);
        const old = this.records.getBinaryFast(key);
        if (!old) continue;
        ns.entry.bytes -= old.length + key.length;
        ns.entry.count--;
        this.records.removeSync(key);
        removed++;
      }
      this.catalog.saveNamespace(scope.spaceNo, ns);
    });
    return removed;
  }

  async deleteAll(space: string, namespace: string): Promise<void> {
    const scope = this.catalog.scopeOf(space, namespace);
    if (!scope) return;
    // The namespace goes first (a new write to the same name gets a new number), then its records in chunks.
    await this.commit(() => this.catalog.removeNamespace(scope));
    await this.removeRange(scopePrefix(scope.spaceNo, scope.nsNo), scopeEnd(scope.spaceNo, scope.nsNo));
  }

  /**
   * Reads the record inside the write transaction, lets `change` produce its new form (or undefined to leave
   * it), writes it. Returns whether the record existed. `change` must not throw.
   */
  async update(space: string, namespace: string, id: string, change: (r: StoredRecord) => WriteRecord | undefined): Promise<boolean> {
    let found = false;
    await this.commit(() => {
      const scope = this.catalog.scopeOf(space, namespace);
      if (!scope) return;
      const value = this.records.getBinary(recordKey(scope.spaceNo, scope.nsNo, id).key);
      if (!value) return;
      found = true;
      const next = change(toStored(id, value));
      if (!next) return;
      const ns = this.catalog.holder(scope);
      this.putRecord(scope.spaceNo, ns, next);
      this.catalog.saveNamespace(scope.spaceNo, ns);
    });
    return found;
  }

  /**
   * In one transaction: every record for which `change` returns a new form is rewritten, if `write` (asked
   * with all new forms) agrees. Returns how many records `change` selected. Neither callback may throw.
   */
  async rewriteWhere(
    space: string,
    namespace: string,
    change: (r: StoredRecord) => WriteRecord | undefined,
    write: (selected: WriteRecord[]) => boolean = () => true,
  ): Promise<number> {
    let matched = 0;
    await this.commit(() => {
      const scope = this.catalog.scopeOf(space, namespace);
      if (!scope) return;
      const next: WriteRecord[] = [];
      for (const r of this.scan(space, namespace)) {
        const w = change(r);
        if (w) next.push(w);
      }
      matched = next.length;
      if (next.length === 0 || !write(next)) return;
      const ns = this.catalog.holder(scope);
      for (const w of next) this.putRecord(scope.spaceNo, ns, w);
      this.catalog.saveNamespace(scope.spaceNo, ns);
    });
    return matched;
  }

  /** In one transaction, removes every record whose metadata `select` accepts; returns how many. */
  async deleteWhere(space: string, namespace: string, select: (metadataJson: string | undefined) => boolean): Promise<number> {
    let removed = 0;
    await this.commit(() => {
      const scope = this.catalog.scopeOf(space, namespace);
      if (!scope) return;
      const ns = this.catalog.holder(scope);
      const doomed: Buffer[] = [];
      for (const { key, value } of this.records.getRange({ start: scopePrefix(scope.spaceNo, scope.nsNo), end: scopeEnd(scope.spaceNo, scope.nsNo) })) {
        if (select(decodeMetadataJson(value))) {
          doomed.push(Buffer.from(key));
          ns.entry.bytes -= key.length + value.length;
        }
      }
      for (const key of doomed) this.records.removeSync(key);
      ns.entry.count -= doomed.length;
      removed = doomed.length;
      this.catalog.saveNamespace(scope.spaceNo, ns);
    });
    return removed;
  }

  /** Ids in a namespace, in byte order, starting with `prefix`, after the key position `after`. */
  listIds(space: string, namespace: string, opts: { prefix?: string; after?: Buffer; limit: number }): { ids: string[]; next?: Buffer } {
    const scope = this.catalog.scopeOf(space, namespace);
    if (!scope) return { ids: [] };
    const base = scopePrefix(scope.spaceNo, scope.nsNo);
    const prefix = opts.prefix ?? "";
    // Keys of very long ids hold only a prefix of the id (keys.ts); longer prefixes are checked on the id.
    const prefixKey = Buffer.concat([base, Buffer.from(prefix, "utf8").subarray(0, 1800)]);
    let start = prefixKey;
    let exclusive = false;
    if (opts.after) {
      const afterKey = Buffer.concat([base, opts.after]);
      if (Buffer.compare(afterKey, prefixKey) >= 0) {
        start = afterKey;
        exclusive = true;
      }
    }
    const ids: string[] = [];
    let lastKey: Buffer | undefined;
    for (const key of this.records.getKeys({ start, exclusiveStart: exclusive, end: scopeEnd(scope.spaceNo, scope.nsNo) })) {
      if (!startsWith(key, prefixKey)) break;
      let id = idFromKey(key);
      if (id === undefined) {
        const value = this.records.getBinary(key);
        id = value ? decodeLongId(value) ?? "" : "";
      }
      if (!id.startsWith(prefix)) continue;
      if (ids.length === opts.limit) return { ids, next: lastKey?.subarray(KEY_HEADER) };
      ids.push(id);
      lastKey = Buffer.from(key);
    }
    return { ids };
  }

  /** Removes records of space numbers no space names any more (left by a crash during copy or drop). */
  async sweepOrphans(): Promise<number> {
    const live = this.catalog.liveSpaceNos();
    let swept = 0;
    let no = 0;
    for (;;) {
      const first = [...this.records.getKeys({ start: scopePrefix(no), limit: 1 })][0];
      if (!first) break;
      no = first.readUInt32BE(0);
      if (!live.has(no)) {
        await this.removeRange(scopePrefix(no), scopeEnd(no));
        swept++;
      }
      if (no >= 0xfffffffe) break;
      no++;
    }
    return swept;
  }

  // ---- internals ------------------------------------------------------------------------------------------

  private async commit(action: () => void): Promise<void> {
    await this.root.transaction(action);
    await this.root.flushed;
  }

  /** Removes the records in [start, end) in chunks, so a big space does not hold one huge transaction. */
  private async removeRange(start: Buffer, end: Buffer): Promise<void> {
    for (;;) {
      const keys = [...this.records.getKeys({ start, end, limit: DELETE_CHUNK })].map((k) => Buffer.from(k));
      if (keys.length === 0) break;
      await this.root.transaction(() => {
        for (const k of keys) this.records.removeSync(k);
      });
    }
    await this.root.flushed;
  }

  private putRecord(spaceNo: number, ns: NsHolder, r: WriteRecord): void {
    const { key, long } = recordKey(spaceNo, ns.no, r.id);
    const value = encodeRecord({ values: r.values, sparse: r.sparse, metadataJson: r.metadataJson, longId: long ? r.id : undefined });
    const old = this.records.getBinaryFast(key);
    if (old) ns.entry.bytes -= old.length + key.length;
    else ns.entry.count++;
    ns.entry.bytes += value.length + key.length;
    this.records.putSync(key, value);
  }
}


function toStored(id: string, value: Buffer): StoredRecord {
  const d = decodeRecord(value);
  return { id, values: d.values, norm: d.norm, sparse: d.sparse, metadataJson: d.metadataJson };
}

function toWriteRecord(r: VectorRecord): WriteRecord {
  return {
    id: r.id,
    values: Float32Array.from(r.values),
    sparse: r.sparseValues ? { indices: Uint32Array.from(r.sparseValues.indices), values: Float32Array.from(r.sparseValues.values) } : undefined,
    metadataJson: r.metadata !== undefined ? JSON.stringify(r.metadata) : undefined,
  };
}

function startsWith(key: Buffer, prefix: Buffer): boolean {
  return key.length >= prefix.length && key.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}
