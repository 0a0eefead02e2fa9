// One namespace's records in memory, mirroring lmdb (which stays the truth): dense values in float32 blocks the
// search kernel reads, their norms, sparse values with an inverted index, metadata JSON with its index. Records sit
// in slots; a removed record's slot is reused by the next one, so a namespace's blocks stay dense.
import { norm, type SparseVector } from "../storage/codec.js";
import { VectorBlock } from "./kernel.js";
import { MetadataIndex } from "./metadata-index.js";
import { QuantizedBlock } from "./quantized-block.js";
import { FieldPostings } from "./text-postings.js";
import { termStream } from "../models/bm25.js";

/** A block holds about this many bytes of rows; the first block grows by doubling up to it. */
const BLOCK_BYTES = 64 * 1024 * 1024;
const FIRST_BLOCK_SLOTS = 64;

export class MemoryLimitError extends Error {}

/** Keeps the bytes all namespaces hold under one limit; a block that would pass it is refused. */
export interface MemoryBudget {
  take(bytes: number, what: string): void;
  give(bytes: number): void;
}

/** An index over the records' metadata kept beside the namespace's own (the full-text fields of documents). */
export interface SlotIndexer {
  add(slot: number, metadata: Record<string, unknown>): void;
  remove(slot: number, metadata: Record<string, unknown>): void;
}

export class NamespaceVectors {
  readonly dimPad: number;
  /** Slots per full block (every block but a still-growing first one). */
  readonly blockSlots: number;
  blocks: VectorBlock[] = [];
  /** Each block's int8 copy (quantized-block.ts), for the first pass of a dense query. */
  quantized: (QuantizedBlock | undefined)[] = [];
  /**
   * What a namespace loading from lmdb builds after the load (deferIndexes), so that it answers sooner: rows at and
   * past these slots may not be in the int8 copy / the metadata index yet (Infinity: all are). Until the int8 copy is
   * whole, dense queries take the float32 pass; a filter finishes the metadata index first (metadataIndex()).
   */
  quantizedBelow = Infinity;
  private metadataIndexedBelow = Infinity;
  /** slot → id (undefined: free). */
  ids: (string | undefined)[] = [];
  norms = new Float64Array(0);
  sparse: (SparseVector | undefined)[] = [];
  metadataJson: (string | undefined)[] = [];
  readonly slotOf = new Map<string, number>();
  private readonly metadata = new MetadataIndex();
  /** term → (slot → weight), for sparse queries. */
  readonly postings = new Map<number, Map<number, number>>();
  /**
   * Text postings, one per text field searched (text-postings.ts): a record's sparse vector gives its terms' counts
   * and its length (what local-bm25 made of the field's text), the field's text in its metadata gives the positions.
   */
  private readonly texts = new Map<string, FieldPostings>();
  private readonly indexers = new Map<string, SlotIndexer>();
  /** Slots below this have been used. */
  used = 0;
  /** No dense norm in the namespace is larger (it only grows: deletes leave it, which keeps it an upper bound). */
  maxNorm = 0;
  private readonly free: number[] = [];
  private bytes = 0;
  private released = false;

  constructor(readonly dimension: number, private readonly budget: MemoryBudget, private readonly label: string) {
    this.dimPad = Math.ceil(dimension / 8) * 8;
    this.blockSlots = dimension === 0 ? Infinity : Math.max(FIRST_BLOCK_SLOTS, Math.floor(BLOCK_BYTES / (this.dimPad * 4) / 8) * 8);
  }

  get count(): number {
    return this.slotOf.size;
  }

  get byteLength(): number {
    return this.bytes;
  }

  /** Makes room for `more` new records now, so that writing them later needs no memory (throws MemoryLimitError). */
  reserve(more: number): void {
    const need = this.slotOf.size + more;
    while (this.capacity() < need) this.grow(need);
  }

  /** `storedNorm`: the values' norm as norm() computed it when they were stored (a load from lmdb spares the work). */
  put(id: string, values: Float32Array | Uint8Array, sparse: SparseVector | undefined, metadataJson: string | undefined, storedNorm?: number): void {
    let slot = this.slotOf.get(id);
    if (slot !== undefined) this.unindex(slot);
    else {
      slot = this.free.pop() ?? this.used;
      if (slot >= this.capacity()) this.grow(slot + 1);
      if (slot === this.used) this.used++;
      this.slotOf.set(id, slot);
      this.ids[slot] = id;
    }
    if (this.dimension > 0) {
      const row = this.row(slot);
      if (values instanceof Float32Array) row.set(values);
      else new Uint8Array(row.buffer, row.byteOffset, values.byteLength).set(values);
      const n = storedNorm ?? norm(row);
      this.norms[slot] = n;
      if (slot < this.quantizedBelow) this.quantize(slot);
      if (n > this.maxNorm) this.maxNorm = n;
    }
    this.sparse[slot] = sparse;
    this.metadataJson[slot] = metadataJson;
    this.index(slot);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.unindex(slot);
    this.slotOf.delete(id);
    this.ids[slot] = undefined;
    this.sparse[slot] = undefined;
    this.metadataJson[slot] = undefined;
    if (this.dimension > 0) {
      this.row(slot).fill(0);
      this.norms[slot] = 0;
      if (slot < this.quantizedBelow) this.quantize(slot);
    }
    this.free.push(slot);
  }

  /** Returns the memory to the budget; the object must not be used afterwards. */
  release(): void {
    this.released = true;
    this.budget.give(this.bytes);
    this.bytes = 0;
    this.blocks = [];
    this.quantized = [];
    this.texts.clear();
    this.indexers.clear();
  }

  /** The indexer kept under `key`: made and fed every record on first use, then kept in step by put and remove. */
  indexer<T extends SlotIndexer>(key: string, make: () => T): T {
    let indexer = this.indexers.get(key) as T | undefined;
    if (!indexer) {
      this.indexers.set(key, (indexer = make()));
      for (let slot = 0; slot < this.used; slot++) {
        const json = this.ids[slot] === undefined ? undefined : this.metadataJson[slot];
        if (json !== undefined) indexer.add(slot, JSON.parse(json) as Record<string, unknown>);
      }
    }
    return indexer;
  }

  /**
   * The postings of the text in metadata field `field` (undefined: a sparse index with no text field, positions
   * then stay empty): built from the records in memory on first use, then kept in step by put and remove.
   */
  textPostings(field: string | undefined): FieldPostings {
    const key = field ?? "";
    let postings = this.texts.get(key);
    if (!postings) {
      this.texts.set(key, (postings = new FieldPostings()));
      for (let slot = 0; slot < this.used; slot++) {
        if (this.ids[slot] !== undefined) this.indexText(key, postings, slot, undefined);
      }
    }
    return postings;
  }

  private indexText(field: string, postings: FieldPostings, slot: number, metadata: Record<string, unknown> | undefined): void {
    const sv = this.sparse[slot];
    if (!sv) return;
    let length = 0;
    for (let i = 0; i < sv.values.length; i++) length += sv.values[i];
    const json = this.metadataJson[slot];
    const text = field === "" || json === undefined ? undefined : (metadata ?? (JSON.parse(json) as Record<string, unknown>))[field];
    postings.add(slot, { terms: sv.indices, counts: sv.values, length, stream: typeof text === "string" ? termStream(text) : undefined });
  }

  /** The dense values of a slot: a view of dimension floats in its block. */
  row(slot: number): Float32Array {
    const b = Math.floor(slot / this.blockSlots);
    const block = this.blocks[b];
    const start = (slot - b * this.blockSlots) * this.dimPad;
    return block.rows.subarray(start, start + this.dimension);
  }

  deferIndexes(): void {
    this.quantizedBelow = 0;
    this.metadataIndexedBelow = 0;
  }

  /** Builds what deferIndexes put off for up to `max` more rows; true once all is built. */
  catchUp(max: number): boolean {
    if (this.released) return true;
    const from = this.metadataIndexedBelow;
    if (from !== Infinity) {
      const end = Math.min(this.used, from + max);
      for (let slot = from; slot < end; slot++) this.indexMetadata(slot);
      this.metadataIndexedBelow = end >= this.used ? Infinity : end;
      max -= end - from;
    }
    if (this.quantizedBelow !== Infinity && max > 0) {
      const end = Math.min(this.used, this.quantizedBelow + max);
      for (let slot = this.quantizedBelow; slot < end; slot++) this.quantize(slot);
      this.quantizedBelow = end >= this.used ? Infinity : end;
    }
    return this.quantizedBelow === Infinity && this.metadataIndexedBelow === Infinity;
  }

  /** Leaves these metadata fields out of the metadata index (the full-text fields of documents). */
  leaveOutOfMetadataIndex(fields: Iterable<string>): void {
    for (const f of fields) this.metadata.skip(f);
  }

  /** The metadata index, whole. */
  metadataIndex(): MetadataIndex {
    for (let slot = this.metadataIndexedBelow; slot < this.used; slot++) this.indexMetadata(slot);
    this.metadataIndexedBelow = Infinity;
    return this.metadata;
  }

  private quantize(slot: number): void {
    const b = Math.floor(slot / this.blockSlots);
    this.quantized[b]?.set(slot - b * this.blockSlots, this.row(slot));
  }

  /** Live slots in ascending order. */
  liveSlots(): number[] {
    const out: number[] = [];
    for (let s = 0; s < this.used; s++) if (this.ids[s] !== undefined) out.push(s);
    return out;
  }

  private capacity(): number {
    if (this.dimension === 0) return Infinity;
    if (this.blocks.length === 0) return 0;
    return (this.blocks.length - 1) * this.blockSlots + this.blocks[this.blocks.length - 1].capacity;
  }

  private grow(need: number): void {
    const first = this.blocks[0];
    if (!first || first.capacity < this.blockSlots) {
      let slots = first ? first.capacity : FIRST_BLOCK_SLOTS;
      while (slots < Math.min(need, this.blockSlots)) slots *= 2;
      slots = Math.min(slots, this.blockSlots);
      const [block, quantized] = this.newBlock(slots);
      if (first) {
        block.rows.set(first.rows);
        if (quantized && this.quantized[0]) quantized.copyFrom(this.quantized[0]);
        const old = this.blockBytes(first.capacity);
        this.budget.give(old);
        this.bytes -= old;
      }
      this.blocks[0] = block;
      this.quantized[0] = quantized;
    } else {
      const [block, quantized] = this.newBlock(this.blockSlots);
      this.blocks.push(block);
      this.quantized.push(quantized);
    }
    const norms = new Float64Array(this.capacity());
    norms.set(this.norms.subarray(0, Math.min(this.norms.length, norms.length)));
    this.norms = norms;
  }

  /** A block's bytes: its float32 rows with the query and scores beside them, and its int8 copy. */
  private blockBytes(slots: number): number {
    return slots * this.dimPad * 4 + (this.dimPad + slots) * 4 + QuantizedBlock.bytesFor(this.dimPad, slots);
  }

  private newBlock(slots: number): [VectorBlock, QuantizedBlock | undefined] {
    const bytes = this.blockBytes(slots);
    this.budget.take(bytes, this.label);
    try {
      const block = new VectorBlock(this.dimPad, slots);
      const quantized = QuantizedBlock.create(this.dimPad, slots);
      this.bytes += bytes;
      return [block, quantized];
    } catch (e) {
      this.budget.give(bytes);
      throw new MemoryLimitError(`could not allocate ${Math.round(bytes / 1048576)} MB for ${this.label}: ${(e as Error).message}`);
    }
  }

  private indexMetadata(slot: number, parsed?: Record<string, unknown>): void {
    const json = this.metadataJson[slot];
    if (json !== undefined) this.metadata.add(slot, parsed ?? (JSON.parse(json) as Record<string, unknown>));
  }

  private index(slot: number): void {
    const json = this.metadataJson[slot];
    // parsed once for both the metadata index and the text postings' positions
    const parsed =
      json !== undefined && (slot < this.metadataIndexedBelow || this.indexers.size > 0 || this.texts.size > (this.texts.has("") ? 1 : 0))
        ? (JSON.parse(json) as Record<string, unknown>)
        : undefined;
    if (slot < this.metadataIndexedBelow) this.indexMetadata(slot, parsed);
    if (parsed) for (const indexer of this.indexers.values()) indexer.add(slot, parsed);
    for (const [field, postings] of this.texts) this.indexText(field, postings, slot, parsed);
    const sv = this.sparse[slot];
    if (sv) {
      for (let i = 0; i < sv.indices.length; i++) {
        let list = this.postings.get(sv.indices[i]);
        if (!list) this.postings.set(sv.indices[i], (list = new Map()));
        list.set(slot, sv.values[i]);
      }
    }
  }

  private unindex(slot: number): void {
    const json = slot < this.metadataIndexedBelow || this.indexers.size > 0 ? this.metadataJson[slot] : undefined;
    const parsed = json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
    if (parsed && slot < this.metadataIndexedBelow) this.metadata.remove(slot, parsed);
    if (parsed) for (const indexer of this.indexers.values()) indexer.remove(slot, parsed);
    const sv = this.sparse[slot];
    if (sv) {
      for (const postings of this.texts.values()) postings.remove(slot, sv.indices);
      for (let i = 0; i < sv.indices.length; i++) {
        const list = this.postings.get(sv.indices[i]);
        list?.delete(slot);
        if (list?.size === 0) this.postings.delete(sv.indices[i]);
      }
    }
  }
}
