// One text field's inverted index over a namespace's slots (memory/vectors.ts): for each term the slots holding it,
// with the term's count there (BM25's tf) and its positions in the text (for phrases); each slot's length; the
// number of documents and their total length. A namespace keeps one per text field it searches, in step with its
// records (put and remove), so a text search reads no record.
//
// A removed document is not looked for in its terms' lists: its slot's generation moves on, which makes every
// posting written under the old generation dead at once (the slot may be reused right away); a list is compacted
// when its dead postings outnumber the live ones.
//
// A list is kept in slot order where it costs nothing: postings added in ascending slots (a namespace filled or
// loaded) extend its sorted run; one added below the last (a document rewritten in place, a reused slot) starts an
// unsorted tail. Whoever seeks through a list (phrases and words all required: the rarest term's postings, each
// looked up in the others by galloping) settles it first: the tail merged into the run and the dead postings dropped,
// once until the next out-of-order write.

/** A document as the field's analysis made it. */
export interface AnalysedDocument {
  /** Distinct terms (any order). */
  terms: ArrayLike<number>;
  /** Each term's count in the document (BM25's tf), in the order of `terms`. */
  counts: ArrayLike<number>;
  /** The document's length for BM25. */
  length: number;
  /** The text's terms in order, one per position; without it the postings hold no positions. */
  stream?: ArrayLike<number>;
  /** Each stream entry's position, where they are not simply 0, 1, 2… (a removed stop word leaves a gap). */
  streamPositions?: ArrayLike<number>;
  /** The positions of `terms[i]`, ascending, when the caller has them grouped already (instead of a stream). */
  positionsOf?: (i: number) => ArrayLike<number>;
}

const FIRST_CAPACITY = 4;
const MAX_POSITIONS = 65_536;

/** The postings of one term, in the order they were added. */
export class PostingList {
  /** Postings written, dead ones included. */
  size = 0;
  /** Live postings: the term's document frequency. */
  live = 0;
  /** The first `sorted` postings are in ascending slot order (a slot's dead postings before its live one). */
  sorted = 0;
  slots = new Int32Array(FIRST_CAPACITY);
  /** The slot's generation when the posting was written (live while it is still the slot's). */
  generations = new Uint32Array(FIRST_CAPACITY);
  counts = new Float32Array(FIRST_CAPACITY);
  /** Where each posting's positions end in `positions` (they start where the previous posting's end). */
  positionEnds = new Uint32Array(FIRST_CAPACITY);
  /** Positions fit 16 bits: the texts analysed stop long before (local-bm25 reads 2,048 tokens, a full-text value 10,000). */
  positions = new Uint16Array(0);

  positionsOf(i: number): Uint16Array {
    return this.positions.subarray(i === 0 ? 0 : this.positionEnds[i - 1], this.positionEnds[i]);
  }

  get byteLength(): number {
    return this.slots.byteLength + this.generations.byteLength + this.counts.byteLength + this.positionEnds.byteLength + this.positions.byteLength;
  }

  append(slot: number, generation: number, count: number, positions: ArrayLike<number> | undefined): void {
    if (this.size === this.slots.length) this.resize(this.size * 2);
    const i = this.size++;
    if (this.sorted === i && (i === 0 || this.slots[i - 1] <= slot)) this.sorted++;
    this.slots[i] = slot;
    this.generations[i] = generation;
    this.counts[i] = count;
    const start = i === 0 ? 0 : this.positionEnds[i - 1];
    const n = positions?.length ?? 0;
    if (start + n > this.positions.length) {
      const grown = new Uint16Array(Math.max(start + n, this.positions.length * 2, 8));
      grown.set(this.positions.subarray(0, start));
      this.positions = grown;
    }
    if (positions) this.positions.set(positions, start);
    this.positionEnds[i] = start + n;
    this.live++;
  }

  /** Drops the dead postings (those whose generation is no longer their slot's). */
  compact(slotGenerations: Uint32Array): void {
    let kept = 0;
    let keptPositions = 0;
    let keptSorted = 0;
    for (let i = 0; i < this.size; i++) {
      if (this.generations[i] !== slotGenerations[this.slots[i]]) continue;
      if (i < this.sorted) keptSorted++;
      const from = i === 0 ? 0 : this.positionEnds[i - 1];
      const to = this.positionEnds[i];
      this.positions.copyWithin(keptPositions, from, to);
      keptPositions += to - from;
      this.slots[kept] = this.slots[i];
      this.generations[kept] = this.generations[i];
      this.counts[kept] = this.counts[i];
      this.positionEnds[kept] = keptPositions;
      kept++;
    }
    this.size = kept;
    this.sorted = keptSorted;
    this.resize(Math.max(FIRST_CAPACITY, kept * 2));
    this.positions = this.positions.slice(0, keptPositions);
  }

  /** Puts every posting in slot order, dropping the dead ones, unless they are in order already. */
  settle(slotGenerations: Uint32Array): void {
    if (this.sorted === this.size) return;
    const order = new Int32Array(this.size - this.sorted);
    for (let i = 0; i < order.length; i++) order[i] = this.sorted + i;
    order.sort((a, b) => this.slots[a] - this.slots[b] || a - b);
    const capacity = Math.max(FIRST_CAPACITY, this.live * 2);
    const slots = new Int32Array(capacity);
    const generations = new Uint32Array(capacity);
    const counts = new Float32Array(capacity);
    const positionEnds = new Uint32Array(capacity);
    const positions = new Uint16Array(this.positions.length);
    let kept = 0;
    let keptPositions = 0;
    const take = (i: number) => {
      const slot = this.slots[i];
      if (this.generations[i] !== slotGenerations[slot]) return;
      slots[kept] = slot;
      generations[kept] = this.generations[i];
      counts[kept] = this.counts[i];
      const own = this.positionsOf(i);
      positions.set(own, keptPositions);
      keptPositions += own.length;
      positionEnds[kept++] = keptPositions;
    };
    // merge the sorted run with the sorted tail; on equal slots the run's posting first (it was written earlier)
    let i = 0;
    let t = 0;
    while (i < this.sorted || t < order.length) {
      if (t === order.length || (i < this.sorted && this.slots[i] <= this.slots[order[t]])) take(i++);
      else take(order[t++]);
    }
    this.slots = slots;
    this.generations = generations;
    this.counts = counts;
    this.positionEnds = positionEnds;
    this.positions = positions.slice(0, keptPositions);
    this.size = this.sorted = kept;
  }

  /**
   * On a settled list: the first posting at or after `from` whose slot is not below `slot` (`size` if none), found by
   * galloping — steps doubling from `from`, then a binary search — so a walk of ascending slots through a long list
   * costs the logarithm of the distance between them, not the distance.
   */
  seek(slot: number, from: number): number {
    const slots = this.slots;
    const size = this.size;
    if (from >= size || slots[from] >= slot) return from;
    let lo = from; // slots[lo] < slot
    let step = 1;
    let hi = from + step;
    while (hi < size && slots[hi] < slot) {
      lo = hi;
      step *= 2;
      hi = from + step;
    }
    if (hi > size) hi = size;
    while (lo + 1 < hi) {
      const mid = (lo + hi) >>> 1;
      if (slots[mid] < slot) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  private resize(capacity: number): void {
    const grow = <T extends Int32Array | Uint32Array | Float32Array>(a: T, make: new (n: number) => T): T => {
      const b = new make(capacity);
      b.set(a.subarray(0, Math.min(this.size, capacity)));
      return b;
    };
    this.slots = grow(this.slots, Int32Array);
    this.generations = grow(this.generations, Uint32Array);
    this.counts = grow(this.counts, Float32Array);
    this.positionEnds = grow(this.positionEnds, Uint32Array);
  }
}

export class FieldPostings {
  private readonly lists = new Map<number, PostingList>();
  /** slot → its generation (a posting is live while it carries it). */
  generations = new Uint32Array(64);
  /** slot → its document's length (valid while `holds` says so). */
  lengths = new Float64Array(64);
  private holds = new Uint8Array(64);
  /** Documents in the field, and their total length. */
  documents = 0;
  totalLength = 0;

  get averageLength(): number {
    return this.documents ? this.totalLength / this.documents : 0;
  }

  /** The slots below this may hold a document. */
  get slotCapacity(): number {
    return this.holds.length;
  }

  list(term: number): PostingList | undefined {
    return this.lists.get(term);
  }

  documentFrequency(term: number): number {
    return this.lists.get(term)?.live ?? 0;
  }

  has(slot: number): boolean {
    return slot < this.holds.length && this.holds[slot] === 1;
  }

  add(slot: number, doc: AnalysedDocument): void {
    if (slot >= this.holds.length) this.grow(slot + 1);
    const positions = doc.stream ? positionsByTerm(doc.stream, doc.streamPositions) : undefined;
    const generation = this.generations[slot];
    for (let i = 0; i < doc.terms.length; i++) {
      const term = doc.terms[i];
      let list = this.lists.get(term);
      if (!list) this.lists.set(term, (list = new PostingList()));
      list.append(slot, generation, doc.counts[i], doc.positionsOf ? doc.positionsOf(i) : positions?.get(term));
    }
    this.holds[slot] = 1;
    this.lengths[slot] = doc.length;
    this.documents++;
    this.totalLength += doc.length;
  }

  /** Removes the document in `slot`; `terms` are the distinct terms it was added with. */
  remove(slot: number, terms: ArrayLike<number>): void {
    if (!this.has(slot)) return;
    this.generations[slot] = (this.generations[slot] + 1) >>> 0;
    this.holds[slot] = 0;
    this.documents--;
    this.totalLength -= this.lengths[slot];
    if (this.documents === 0) this.totalLength = 0;
    for (let i = 0; i < terms.length; i++) {
      const list = this.lists.get(terms[i]);
      if (!list) continue;
      list.live--;
      if (list.live === 0) this.lists.delete(terms[i]);
      else if (list.size - list.live > Math.max(8, list.live)) list.compact(this.generations);
    }
  }

  /** Bytes held by the postings and the per-slot arrays (typed arrays only; the term map's own overhead aside). */
  get byteLength(): number {
    let bytes = this.generations.byteLength + this.lengths.byteLength + this.holds.byteLength;
    for (const list of this.lists.values()) bytes += list.byteLength;
    return bytes;
  }

  private grow(need: number): void {
    let n = this.holds.length;
    while (n < need) n *= 2;
    const generations = new Uint32Array(n);
    generations.set(this.generations);
    this.generations = generations;
    const lengths = new Float64Array(n);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const holds = new Uint8Array(n);
    holds.set(this.holds);
    this.holds = holds;
  }
}

function positionsByTerm(stream: ArrayLike<number>, given: ArrayLike<number> | undefined): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < stream.length; i++) {
    const p = given ? given[i] : i;
    if (p >= MAX_POSITIONS) break;
    const at = out.get(stream[i]);
    if (at) at.push(p);
    else out.set(stream[i], [p]);
  }
  return out;
}
