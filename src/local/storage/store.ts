// The storage layer: vector records in lmdb sub-databases of the service's root environment — durable, and the truth
// every layer above is loaded from.
//
//   vectors.records  [u32 space no][u32 ns no][id bytes] → encoded record (see keys.ts, codec.ts)
//   (spaces and namespaces: see spaces.ts)
//
// Every write is one lmdb transaction; nothing in a transaction callback throws (lmdb-js commits what was
// written even if the callback throws), so callers validate first. A write resolves after the commit is
// flushed to disk and its changes are applied by whoever follows them (the records in memory, memory/mirror.ts),
// in commit order: what a write acknowledges is what search sees. Knows nothing of memory, search or HTTP.
import type { Database, RootDatabase } from "lmdb";
import { decodeLongId, decodeMetadataJson, decodeRecord, decodeRecordParts, encodeRecord, type SparseVector } from "./codec.js";
import { idFromKey, KEY_HEADER, recordKey, scopeEnd, scopePrefix } from "./keys.js";
import { SpaceTable, type NsHolder } from "./spaces.js";

interface SparseValues { indices: number[]; values: number[] }
export interface VectorRecord { id: string; values: number[]; sparseValues?: SparseValues; metadata?: Record<string, unknown> }
export interface SpaceStats { namespaces: Record<string, { vectorCount: number; bytes?: number }>; totalVectorCount: number; bytes: number; dimension?: number }

/** A record as the data plane writes it: dense values already 32-bit floats, metadata already JSON text. */
export interface WriteRecord { id: string; values: Float32Array; sparse?: SparseVector; metadataJson?: string }
/** A record as read back. */
export interface StoredRecord extends WriteRecord { norm: number }

/** What a commit changed, as its followers hear it once it is on disk. */
export type RecordChange =
  | { kind: "put"; space: string; namespace: string; id: string; values: Float32Array; sparse?: SparseVector; metadataJson?: string }
  | { kind: "remove"; space: string; namespace: string; id: string }
  /** The namespace (or, without one, the whole space) changed wholesale: load it again when it is next used. */
  | { kind: "reload"; space: string; namespace?: string };

/** Where a namespace's records are loaded to (the records in memory), each as stored: dense values as their bytes. */
export interface RecordSink {
  reserve(more: number): void;
  put(id: string, dense: Uint8Array, sparse: SparseVector | undefined, metadataJson: string | undefined, norm: number): void;
}

const COPY_CHUNK_RECORDS = 1000;
const COPY_CHUNK_BYTES = 8 * 1024 * 1024;
const DELETE_CHUNK = 5000;

export class RecordStore {
  private readonly root: RootDatabase;
  private readonly spaceTable: SpaceTable;
  private readonly records: Database<Buffer, Buffer>;
  /**
   * The same records, each read as a view of lmdb-js's read buffer (reused by the next read) instead of a fresh copy:
   * for the load into memory, which copies what it keeps at once — at 1,000,000 × 768, 3 GB of short-lived buffers
   * the garbage collector no longer sees.
   */
  private readonly recordViews: Database<Buffer, Buffer>;
  /** Hears each commit's changes once it is on disk (the records in memory). */
  private follower: (changes: readonly RecordChange[]) => void = () => {};
  /** Resolves once every commit so far is applied by the follower. */
  private applied: Promise<void> = Promise.resolve();

  constructor(root: RootDatabase) {
    this.root = root;
    this.spaceTable = new SpaceTable(root);
    this.records = root.openDB<Buffer, Buffer>({ name: "vectors.records", encoding: "binary", keyEncoding: "binary" });
    // a decoder that copies nothing: lmdb-js then hands it its read buffer (the "binary" encoding copies it out);
    // `encoder` is in lmdb-js's documented options but not in its type declarations
    const views = { encode: (value: Buffer) => value, decode: (bytes: Uint8Array, size: number) => Buffer.from(bytes.buffer, bytes.byteOffset, size) };
    this.recordViews = root.openDB<Buffer, Buffer>({ name: "vectors.records", keyEncoding: "binary", encoder: views } as { name: string });
  }

  /** From now on every commit's changes go to `follower`, in commit order, before the write resolves. */
  follow(follower: (changes: readonly RecordChange[]) => void): void {
    this.follower = follower;
  }

  /** Resolves once every commit asked for so far is applied by the follower. */
  settled(): Promise<void> {
    return this.applied;
  }

  /** Whether the namespace exists (has been written to and not deleted). */
  has(space: string, namespace: string): boolean {
    return this.spaceTable.scopeOf(space, namespace) !== undefined;
  }

  /** The space's dimension, once set. */
  dimension(space: string): number | undefined {
    return this.spaceTable.space(space)?.dimension;
  }

  /** The namespace's record count as lmdb holds it. */
  count(space: string, namespace: string): number {
    const scope = this.spaceTable.scopeOf(space, namespace);
    return scope ? this.spaceTable.holder(scope).entry.count : 0;
  }

  /** The names of the space's namespaces. */
  namespaces(space: string): string[] {
    const entry = this.spaceTable.space(space);
    return entry ? this.spaceTable.namespaces(entry.no).map(({ entry: ns }) => ns.name) : [];
  }

  // ---- spaces, for the control plane: copy, drop, count -----------------------------------------------------

  /**
   * Replaces `to` with a copy of every namespace of `from`, read from one snapshot, written in chunks.
   * `onChunk` hears the number of records copied so far after each chunk's commit (restore jobs show it as percent).
   */
  async copySpace(from: string, to: string, onChunk?: (copied: number) => void): Promise<SpaceStats> {
    await this.dropSpace(to);
    const snapshot = this.root.useReadTransaction();
    try {
      const source = this.spaceTable.space(from, snapshot);
      if (!source) {
        await this.commit(() => this.spaceTable.ensureSpace(to, undefined));
        return this.spaceStats(to);
      }
      const namespaces = this.spaceTable.namespaces(source.no, snapshot);
      let targetNo = 0;
      await this.commit(() => {
        targetNo = this.spaceTable.allocSpaceNo();
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
      await this.commit((changes) => {
        this.spaceTable.registerCopy(to, source, targetNo, namespaces);
        changes.push({ kind: "reload", space: to });
      });
    } finally {
      snapshot.done();
    }
    return this.spaceStats(to);
  }

  async dropSpace(space: string): Promise<void> {
    const entry = this.spaceTable.space(space);
    if (!entry) return;
    await this.commit((changes) => {
      this.spaceTable.removeSpace(space, entry.no);
      changes.push({ kind: "reload", space });
    });
    await this.removeRange(scopePrefix(entry.no), scopeEnd(entry.no));
  }

  spaceStats(space: string): SpaceStats {
    const entry = this.spaceTable.space(space);
    const stats: SpaceStats = { namespaces: {}, totalVectorCount: 0, bytes: 0 };
    if (!entry) return stats;
    if (entry.dimension !== undefined) stats.dimension = entry.dimension;
    for (const { entry: ns } of this.spaceTable.namespaces(entry.no)) {
      stats.namespaces[ns.name] = { vectorCount: ns.count, bytes: ns.bytes };
      stats.totalVectorCount += ns.count;
      stats.bytes += ns.bytes;
    }
    return stats;
  }

  // ---- used by the data plane -----------------------------------------------------------------------------

  /** Writes all records in one transaction (later duplicates of an id win). */
  async upsert(space: string, namespace: string, records: WriteRecord[], dimension?: number): Promise<void> {
    await this.commit((changes) => {
      const sp = this.spaceTable.ensureSpace(space, dimension);
      const ns = this.spaceTable.ensureNamespace(space, sp, namespace);
      for (const r of records) {
        this.putRecord(sp.no, ns, r);
        changes.push(putChange(space, namespace, r));
      }
      this.spaceTable.saveNamespace(sp.no, ns);
    });
  }

  get(space: string, namespace: string, id: string): StoredRecord | undefined {
    const scope = this.spaceTable.scopeOf(space, namespace);
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
    const scope = this.spaceTable.scopeOf(space, namespace);
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

  /** Removes the ids that exist; returns how many did. */
  deleteIds(space: string, namespace: string, ids: string[]): Promise<number> {
    return this.removeIds(space, namespace, ids, () => true);
  }

  /** In one commit: removes each of `ids` that exists and whose metadata (JSON text) `keeps` accepts; returns how many. */
  removeIdsWhere(space: string, namespace: string, ids: readonly string[], keeps: (metadataJson: string | undefined) => boolean): Promise<number> {
    return this.removeIds(space, namespace, ids, (old) => keeps(decodeMetadataJson(old)));
  }

  /** In one commit: removes each of `ids` that exists and that `select` (asked with its stored record) keeps. */
  private async removeIds(space: string, namespace: string, ids: readonly string[], select: (stored: Buffer) => boolean): Promise<number> {
    let removed = 0;
    await this.commit((changes) => {
      const scope = this.spaceTable.scopeOf(space, namespace);
      if (!scope) return;
      const ns = this.spaceTable.holder(scope);
      for (const id of ids) {
        const { key } = recordKey(scope.spaceNo, scope.nsNo, id);
        const old = this.records.getBinaryFast(key);
        if (!old || !select(old)) continue;
        ns.entry.bytes -= old.length + key.length;
        ns.entry.count--;
        this.records.removeSync(key);
        changes.push({ kind: "remove", space, namespace, id });
        removed++;
      }
      this.spaceTable.saveNamespace(scope.spaceNo, ns);
    });
    return removed;
  }

  async deleteAll(space: string, namespace: string): Promise<void> {
    const scope = this.spaceTable.scopeOf(space, namespace);
    if (!scope) return;
    // The namespace goes first (a new write to the same name gets a new number), then its records in chunks.
    await this.commit((changes) => {
      this.spaceTable.removeNamespace(scope);
      changes.push({ kind: "reload", space, namespace });
    });
    await this.removeRange(scopePrefix(scope.spaceNo, scope.nsNo), scopeEnd(scope.spaceNo, scope.nsNo));
  }

  /**
   * Reads the record inside the write transaction, lets `change` produce its new form (or undefined to leave
   * it), writes it. Returns whether the record existed. `change` must not throw.
   */
  async update(space: string, namespace: string, id: string, change: (r: StoredRecord) => WriteRecord | undefined): Promise<boolean> {
    let found = false;
    await this.commit((changes) => {
      const scope = this.spaceTable.scopeOf(space, namespace);
      if (!scope) return;
      const value = this.records.getBinary(recordKey(scope.spaceNo, scope.nsNo, id).key);
      if (!value) return;
      found = true;
      const next = change(toStored(id, value));
      if (!next) return;
      const ns = this.spaceTable.holder(scope);
      this.putRecord(scope.spaceNo, ns, next);
      changes.push(putChange(space, namespace, next));
      this.spaceTable.saveNamespace(scope.spaceNo, ns);
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
    await this.commit((changes) => {
      const scope = this.spaceTable.scopeOf(space, namespace);
      if (!scope) return;
      const next: WriteRecord[] = [];
      for (const r of this.scan(space, namespace)) {
        const w = change(r);
        if (w) next.push(w);
      }
      matched = next.length;
      if (next.length === 0 || !write(next)) return;
      const ns = this.spaceTable.holder(scope);
      for (const w of next) {
        this.putRecord(scope.spaceNo, ns, w);
        changes.push(putChange(space, namespace, w));
      }
      this.spaceTable.saveNamespace(scope.spaceNo, ns);
    });
    return matched;
  }

  /** Ids in a namespace, in byte order, starting with `prefix`, after the key position `after`. */
  listIds(space: string, namespace: string, opts: { prefix?: string; after?: Buffer; limit: number }): { ids: string[]; next?: Buffer } {
    const scope = this.spaceTable.scopeOf(space, namespace);
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
    const live = this.spaceTable.liveSpaceNos();
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

  /** The records of `ids` that exist, in id (key) order, after the opaque `after` position: like scanFrom, for a few. */
  *recordsOf(space: string, namespace: string, ids: readonly string[], opts: { after?: Buffer } = {}): Generator<{ position: Buffer; record: StoredRecord }> {
    const scope = this.spaceTable.scopeOf(space, namespace);
    if (!scope) return;
    const keyed = ids
      .map((id) => ({ id, key: recordKey(scope.spaceNo, scope.nsNo, id).key }))
      .filter(({ key }) => !opts.after || Buffer.compare(key.subarray(KEY_HEADER), opts.after) > 0)
      .sort((a, b) => Buffer.compare(a.key, b.key));
    for (const { id, key } of keyed) {
      const value = this.records.getBinary(key);
      if (value) yield { position: Buffer.from(key.subarray(KEY_HEADER)), record: toStored(id, value) };
    }
  }

  /**
   * The namespace's records as lmdb holds them, each value a view of lmdb-js's read buffer valid until the next (decode
   * with codec.ts, the id with keys.ts): for a search that reads them where they lie (search/scan-search.ts).
   */
  views(space: string, namespace: string): Iterable<{ key: Buffer; value: Buffer }> {
    const scope = this.spaceTable.scopeOf(space, namespace);
    if (!scope) return [];
    return this.recordViews.getRange({ start: scopePrefix(scope.spaceNo, scope.nsNo), end: scopeEnd(scope.spaceNo, scope.nsNo) });
  }

  /** Loads the records into `into` from the current lmdb state, `max` at a time; the step says when all are in. */
  loadInto(space: string, namespace: string, into: RecordSink): (max: number) => boolean {
    const scope = this.spaceTable.scopeOf(space, namespace);
    if (!scope) return () => true;
    into.reserve(this.spaceTable.holder(scope).entry.count);
    const end = scopeEnd(scope.spaceNo, scope.nsNo);
    let after: Buffer | undefined;
    return (max) => {
      let n = 0;
      const range = this.recordViews.getRange({ start: after ?? scopePrefix(scope.spaceNo, scope.nsNo), exclusiveStart: after !== undefined, end });
      for (const { key, value } of range) {
        const parts = decodeRecordParts(value);
        into.put(idFromKey(key) ?? parts.longId ?? "", parts.dense, parts.sparse, parts.metadataJson, parts.norm);
        if (++n >= max) {
          after = Buffer.from(key); // the next slice starts past it (lmdb reuses the key's bytes, hence the copy)
          return false;
        }
      }
      return true;
    };
  }

  // ---- internals ------------------------------------------------------------------------------------------

  /**
   * Runs `action` in one lmdb transaction, waits until it is on disk, then hands the changes it listed to the
   * follower — in commit order (lmdb runs transactions in the order they are asked for, and the chain of `applied`
   * keeps that order) — and only then resolves, so what a write acknowledges is what search sees.
   */
  private async commit(action: (changes: RecordChange[]) => void): Promise<void> {
    const changes: RecordChange[] = [];
    const committed = this.root.transaction(() => action(changes));
    const applied = this.applied.then(async () => {
      try {
        await committed;
        await this.root.flushed;
      } catch {
        return; // nothing committed, nothing to apply; the caller sees the error below
      }
      this.follower(changes);
    });
    this.applied = applied;
    await committed;
    await this.root.flushed;
    await applied;
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


function putChange(space: string, namespace: string, r: WriteRecord): RecordChange {
  return { kind: "put", space, namespace, id: r.id, values: r.values, sparse: r.sparse, metadataJson: r.metadataJson };
}

function toStored(id: string, value: Buffer): StoredRecord {
  const d = decodeRecord(value);
  return { id, values: d.values, norm: d.norm, sparse: d.sparse, metadataJson: d.metadataJson };
}

/** A record given as plain numbers (tests and tools), as it is written: float32 values, metadata as JSON text. */
export function toWriteRecord(r: VectorRecord): WriteRecord {
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
