import type { FileHandle } from "node:fs/promises";
import type { AsyncBuffer } from "hyparquet";

/** A hyparquet AsyncBuffer that reads only the byte ranges asked for, through one open file handle. */
export function fileHandleBuffer(fh: FileHandle, byteLength: number): AsyncBuffer {
  return {
    byteLength,
    async slice(start: number, end: number = byteLength): Promise<ArrayBuffer> {
      const length = Math.max(0, Math.min(end, byteLength) - start);
      const out = new ArrayBuffer(length);
      const view = new Uint8Array(out);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await fh.read(view, done, length - done, start + done);
        if (bytesRead === 0) throw new Error(`file ended at byte ${start + done}, expected ${byteLength} bytes (was it truncated while reading?)`);
        done += bytesRead;
      }
      return out;
    },
  };
}
