// Compact binary encoding of one stored record (the lmdb value).
//
//   0      u8   flags (HAS_SPARSE | HAS_METADATA | HAS_LONG_ID)
//   1..3        reserved
//   4      u32  n, number of dense values
//   8      f64  Euclidean norm of the dense values (pre-computed for cosine)
//   16     f32 × n dense values
//   then   if HAS_SPARSE:   u32 k, u32 × k indices, f32 × k values
//          if HAS_LONG_ID:  u32 byte length, UTF-8 id (only when the key holds a hash of the id)
//          if HAS_METADATA: the rest is the metadata as UTF-8 JSON (kept exactly as given)
// All little-endian. Dense values are stored as 32-bit floats, as the real service does.

const HAS_SPARSE = 1;
const HAS_METADATA = 2;
const HAS_LONG_ID = 4;
const HEADER = 16;

export interface SparseVector {
  indices: Uint32Array;
  values: Float32Array;
}

/** A record ready to store: dense values already rounded to float32. */
export interface EncodableRecord {
  values: Float32Array;
  sparse?: SparseVector;
  metadataJson?: string; // JSON text of the metadata object
  longId?: string; // set when the key cannot hold the whole id
}

export interface DecodedRecord {
  values: Float32Array;
  norm: number;
  sparse?: SparseVector;
  metadataJson?: string;
  longId?: string;
}

export function norm(values: Float32Array): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i] * values[i];
  return Math.sqrt(s);
}

export function encodeRecord(r: EncodableRecord): Buffer {
  const n = r.values.length;
  const k = r.sparse ? r.sparse.indices.length : 0;
  const idBytes = r.longId !== undefined ? Buffer.from(r.longId, "utf8") : undefined;
  const metaBytes = r.metadataJson !== undefined ? Buffer.from(r.metadataJson, "utf8") : undefined;
  const size =
    HEADER + 4 * n + (r.sparse ? 4 + 8 * k : 0) + (idBytes ? 4 + idBytes.length : 0) + (metaBytes ? metaBytes.length : 0);
  const buf = Buffer.allocUnsafe(size);
  let flags = 0;
  if (r.sparse) flags |= HAS_SPARSE;
  if (metaBytes) flags |= HAS_METADATA;
  if (idBytes) flags |= HAS_LONG_ID;
  buf.writeUInt32LE(0, 0);
  buf[0] = flags;
  buf.writeUInt32LE(n, 4);
  buf.writeDoubleLE(norm(r.values), 8);
  let off = HEADER;
  copyIn(buf, off, r.values);
  off += 4 * n;
  if (r.sparse) {
    buf.writeUInt32LE(k, off);
    off += 4;
    copyIn(buf, off, r.sparse.indices);
    off += 4 * k;
    copyIn(buf, off, r.sparse.values);
    off += 4 * k;
  }
  if (idBytes) {
    buf.writeUInt32LE(idBytes.length, off);
    off += 4;
    idBytes.copy(buf, off);
    off += idBytes.length;
  }
  if (metaBytes) metaBytes.copy(buf, off);
  return buf;
}

export function decodeRecord(buf: Uint8Array, wantMetadata = true): DecodedRecord {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const flags = b[0];
  const n = b.readUInt32LE(4);
  const out: DecodedRecord = { values: new Float32Array(n), norm: b.readDoubleLE(8) };
  copyOut(b, HEADER, out.values);
  return Object.assign(out, decodeTail(b, flags, HEADER + 4 * n, wantMetadata));
}

/** What follows the dense values: sparse values, a long id, metadata (each present by its flag). */
function decodeTail(b: Buffer, flags: number, off: number, wantMetadata: boolean): { sparse?: SparseVector; longId?: string; metadataJson?: string } {
  const out: { sparse?: SparseVector; longId?: string; metadataJson?: string } = {};
  if (flags & HAS_SPARSE) {
    const k = b.readUInt32LE(off);
    off += 4;
    const indices = new Uint32Array(k);
    copyOut(b, off, indices);
    off += 4 * k;
    const values = new Float32Array(k);
    copyOut(b, off, values);
    off += 4 * k;
    out.sparse = { indices, values };
  }
  if (flags & HAS_LONG_ID) {
    const len = b.readUInt32LE(off);
    off += 4;
    out.longId = b.toString("utf8", off, off + len);
    off += len;
  }
  if (flags & HAS_METADATA && wantMetadata) out.metadataJson = b.toString("utf8", off);
  return out;
}

/**
 * A record's parts without copying its dense values: `dense` is a view of their little-endian float32 bytes, `norm`
 * the one stored beside them (computed by norm() from the same float32 values when the record was encoded).
 */
export function decodeRecordParts(b: Buffer): { dense: Buffer; norm: number; sparse?: SparseVector; metadataJson?: string; longId?: string } {
  const flags = b[0];
  const n = b.readUInt32LE(4);
  const off = HEADER + 4 * n;
  return { dense: b.subarray(HEADER, off), norm: b.readDoubleLE(8), ...decodeTail(b, flags, off, true) };
}

/** Reads only the metadata JSON (skips decoding the vectors). */
export function decodeMetadataJson(b: Buffer): string | undefined {
  const flags = b[0];
  if (!(flags & HAS_METADATA)) return undefined;
  let off = HEADER + 4 * b.readUInt32LE(4);
  if (flags & HAS_SPARSE) off += 4 + 8 * b.readUInt32LE(off);
  if (flags & HAS_LONG_ID) off += 4 + b.readUInt32LE(off);
  return b.toString("utf8", off);
}

/** Reads only the full id stored in the value (present only for ids too long for a key). */
export function decodeLongId(b: Buffer): string | undefined {
  const flags = b[0];
  if (!(flags & HAS_LONG_ID)) return undefined;
  let off = HEADER + 4 * b.readUInt32LE(4);
  if (flags & HAS_SPARSE) off += 4 + 8 * b.readUInt32LE(off);
  const len = b.readUInt32LE(off);
  return b.toString("utf8", off + 4, off + 4 + len);
}

function copyIn(buf: Buffer, off: number, arr: Float32Array | Uint32Array): void {
  // Typed arrays are little-endian on every platform Node supports in practice; copy the bytes directly.
  buf.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), off);
}

function copyOut(buf: Buffer, off: number, arr: Float32Array | Uint32Array): void {
  new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength).set(buf.subarray(off, off + arr.byteLength));
}
