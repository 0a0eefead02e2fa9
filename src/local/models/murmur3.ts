// MurmurHash3 (x86, 32-bit, seed 0) of a string's UTF-8 bytes: how the lexical model turns a term into a sparse
// index. Hand-written (20 lines) rather than a dependency: it is the function BM25 encoders commonly use for the
// same job, it is small, and its output must never change under us (stored indexes depend on it).
const encoder = new TextEncoder();

/** Reused for every term's bytes (encodeInto allocates nothing: the hash is on every write's and query's path). */
let scratch = new Uint8Array(256);

export function murmur3(text: string, seed = 0): number {
  if (text.length * 3 > scratch.length) scratch = new Uint8Array(text.length * 3); // UTF-8 takes at most 3 bytes a UTF-16 unit
  const bytes = scratch;
  const n = encoder.encodeInto(text, scratch).written;
  const blocks = n & ~3;
  let h = seed >>> 0;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (n & 3) {
    case 3:
      k ^= bytes[blocks + 2] << 16;
    // falls through
    case 2:
      k ^= bytes[blocks + 1] << 8;
    // falls through
    case 1:
      k ^= bytes[blocks];
      k = Math.imul(k, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, 0x1b873593);
      h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
