// lmdb keys of the records database: u32 space number, u32 namespace number, then the id's UTF-8 bytes.
// Byte order of the keys is the order of ids in `list` (bitwise "C" collation, as the service documents).
import { createHash } from "node:crypto";

// lmdb's default maximum key size is 1978 bytes; an id of up to 512 characters can take 2048 bytes in UTF-8.
// Such ids are keyed by a prefix of their bytes, a NUL (which no valid id contains) and a SHA-256 of the id;
// the full id is then kept in the value.
const MAX_DIRECT_ID_BYTES = 1900;
const LONG_ID_PREFIX_BYTES = 1800;
export const KEY_HEADER = 8;

export function scopePrefix(spaceNo: number, nsNo?: number): Buffer {
  const b = Buffer.allocUnsafe(nsNo === undefined ? 4 : 8);
  b.writeUInt32BE(spaceNo, 0);
  if (nsNo !== undefined) b.writeUInt32BE(nsNo, 4);
  return b;
}

/** The first key after every key that starts with `prefix` (prefix is a 4- or 8-byte scope). */
export function scopeEnd(spaceNo: number, nsNo?: number): Buffer {
  if (nsNo === undefined) return scopePrefix(spaceNo + 1);
  return scopePrefix(spaceNo, nsNo + 1);
}

export interface RecordKey {
  key: Buffer;
  long: boolean; // the key holds a hash; the full id lives in the value
}

export function recordKey(spaceNo: number, nsNo: number, id: string): RecordKey {
  const idBytes = Buffer.from(id, "utf8");
  if (idBytes.length <= MAX_DIRECT_ID_BYTES) {
    return { key: Buffer.concat([scopePrefix(spaceNo, nsNo), idBytes]), long: false };
  }
  const cut = utf8Boundary(idBytes, LONG_ID_PREFIX_BYTES);
  const hash = createHash("sha256").update(idBytes).digest();
  return {
    key: Buffer.concat([scopePrefix(spaceNo, nsNo), idBytes.subarray(0, cut), Buffer.from([0]), hash]),
    long: true,
  };
}

/** The id bytes in a key are the id itself unless the key is a long-id key (it contains a NUL). */
export function idFromKey(key: Buffer): string | undefined {
  const rest = key.subarray(KEY_HEADER);
  if (rest.includes(0)) return undefined;
  return rest.toString("utf8");
}

/** Largest index ≤ max that does not split a UTF-8 sequence. */
function utf8Boundary(bytes: Buffer, max: number): number {
  let i = Math.min(max, bytes.length);
  while (i > 0 && i < bytes.length && (bytes[i] & 0xc0) === 0x80) i--;
  return i;
}
