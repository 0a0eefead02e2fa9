// Duplicate-id detection for files of millions of records in bounded memory: a set of 64-bit id hashes in typed
// arrays (open addressing, linear probing) — 8 bytes a slot, at most 70 % full, so about 12–23 bytes per id
// (1M ids: 16 MB; a Set of the id strings would take 50–100 MB). A hit is only a *possible* duplicate (two ids can
// share a hash, ~n²/2⁶⁵ for n ids): the caller re-checks exactly the hashes that hit (see file-check.ts), so a
// false positive is never reported.

const MAX_LOAD = 0.7;

/** 64 bits of hash of a string, as two 32-bit halves (cyrb53's mixing, widened to 64 bits). */
export function hashId(id: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  h1 = (h1 ^ id.length) >>> 0;
  return [h1, h2 >>> 0];
}

/**
 * A JS Map/Set key for a hash (for the few hashes that hit): 53 of its 64 bits, so it stays a plain number. Keys
 * only pick the ids to re-check exactly, so the dropped bits cost nothing but a rare extra re-check.
 */
export function hashKey(hi: number, lo: number): number {
  return (hi >>> 11) * 4294967296 + lo;
}

export class IdHashSet {
  private slots: Uint32Array; // [hi, lo] pairs; (0, 0) = empty
  private mask: number;
  private count = 0;

  constructor(expected = 1024) {
    let capacity = 1024;
    while (capacity * MAX_LOAD < expected) capacity *= 2;
    this.slots = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The table itself: [hi, lo] pairs, (0, 0) for an empty slot (the parallel check sends it between threads). */
  get table(): Uint32Array {
    return this.slots;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /** Adds the hash; returns false when it was already there (a possible duplicate). */
  add(hi: number, lo: number): boolean {
    // (0, 0) marks an empty slot; folding it into (0, 1) only adds a possible false positive, which is re-checked.
    if (hi === 0 && lo === 0) lo = 1;
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) this.grow();
    const added = insert(this.slots, this.mask, hi, lo);
    if (added) this.count++;
    return added;
  }

  private grow(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    this.slots = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] !== 0 || old[i + 1] !== 0) insert(this.slots, this.mask, old[i], old[i + 1]);
    }
  }
}

function insert(slots: Uint32Array, mask: number, hi: number, lo: number): boolean {
  // lo ^ hi spreads both halves over the slot index; the stored pair decides equality.
  let i = (Math.imul(lo ^ hi, 0x9e3779b1) >>> 0) & mask;
  for (;;) {
    const a = slots[2 * i];
    const b = slots[2 * i + 1];
    if (a === 0 && b === 0) {
      slots[2 * i] = hi;
      slots[2 * i + 1] = lo;
      return true;
    }
    if (a === hi && b === lo) return false;
    i = (i + 1) & mask;
  }
}
