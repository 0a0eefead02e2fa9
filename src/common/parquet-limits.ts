import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { snappyUncompress, type Compressors } from "hyparquet";

// Decompression bombs: a page is inflated only up to the size its header declares, and refused before inflating
// when it declares more than MAX_PAGE_BYTES, or more than MAX_PAGE_RATIO times its compressed bytes (past 1 MiB):
// writers cut pages at about 1 MiB (pyarrow, parquet-mr) and vectors compress about 1.1–2×, while a bomb inflates
// a thousandfold. One read (a slice of a row group, or a whole one) inflates at most MAX_READ_BYTES in all.
const MAX_PAGE_BYTES = 64 * 1024 * 1024;
const MAX_PAGE_RATIO = 256;
const MAX_READ_BYTES = 512 * 1024 * 1024;

/** The decompressors of one read, sharing its budget. */
export function boundedCompressors(): Compressors {
  let left = MAX_READ_BYTES;
  const admit = (input: Uint8Array, declared: number): number => {
    if (!Number.isSafeInteger(declared) || declared < 0 || declared > MAX_PAGE_BYTES) {
      throw new Error(`a page declares ${declared} bytes once decompressed, more than the ${MAX_PAGE_BYTES}-byte limit for one page`);
    }
    if (declared > 1024 * 1024 && declared > input.length * MAX_PAGE_RATIO) {
      throw new Error(`a page of ${input.length} compressed bytes declares ${declared} bytes once decompressed (over ${MAX_PAGE_RATIO}×): refused as a decompression bomb`);
    }
    if (declared > left) throw new Error(`the rows read at once decompress to more than ${MAX_READ_BYTES} bytes; write the file with smaller row groups or with a page index (pyarrow: write_page_index=True)`);
    left -= declared;
    return declared;
  };
  const zlib = (inflate: (input: Uint8Array, max: number) => Buffer) => (input: Uint8Array, outputLength: number) => {
    const max = admit(input, outputLength);
    try {
      return new Uint8Array(inflate(input, Math.max(1, max)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
        throw new Error(`a page decompresses to more than the ${outputLength} bytes its header declares: refused as a decompression bomb`);
      }
      throw e;
    }
  };
  // hyparquet reads UNCOMPRESSED pages itself (their bytes are in the file); SNAPPY is its own decoder, behind the
  // same checks; node:zlib adds GZIP and BROTLI (Node 20 has no zstd), each stopped at the declared size.
  return {
    SNAPPY: (input, outputLength) => {
      const out = new Uint8Array(admit(input, outputLength));
      snappyUncompress(input, out);
      return out;
    },
    GZIP: zlib((input, max) => gunzipSync(input, { maxOutputLength: max })),
    BROTLI: zlib((input, max) => brotliDecompressSync(input, { maxOutputLength: max })),
  };
}
