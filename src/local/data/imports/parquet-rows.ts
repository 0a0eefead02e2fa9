// Rows of one Parquet file of the bulk-import layout, read a range at a time through a file handle. The client side
// has its own reader (src/ingest/sources/parquet.ts); the local service may not import it, and needs less: rows by
// position, so that an import resumes where its last committed batch ended.
import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { parquetMetadataAsync, parquetRead, parquetSchema, type AsyncBuffer, type FileMetaData } from "hyparquet";
import { boundedCompressors } from "../../../common/parquet-limits.js";
import { openAllowedFile } from "../../../common/safe-open.js";

const LAYOUT = "id (string), values (list<float>), sparse_values (struct {indices, values}, optional), metadata (JSON string, optional)";
const COLUMNS = ["id", "values", "sparse_values", "metadata"];

export interface ParquetRows {
  rows: number;
  /** What fstat said of the file opened (size and mtime tell a changed file). */
  stat: Stats;
  read(from: number, to: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function handleBuffer(fh: FileHandle, byteLength: number): AsyncBuffer {
  return {
    byteLength,
    async slice(start: number, end: number = byteLength): Promise<ArrayBuffer> {
      const length = Math.max(0, Math.min(end, byteLength) - start);
      const view = new Uint8Array(new ArrayBuffer(length));
      let done = 0;
      while (done < length) {
        const { bytesRead } = await fh.read(view, done, length - done, start + done);
        if (bytesRead === 0) throw new Error(`the file ended at byte ${start + done} (was it changed during the import?)`);
        done += bytesRead;
      }
      return view.buffer;
    },
  };
}

/**
 * Opens a Parquet file as the server's own import does (no link followed, no FIFO or device, its real location under
 * one of `allowDirs`, hard links and sparse files refused) and checks it has the layout's columns; throws a message
 * naming the file otherwise. Each read inflates within the same limits as the server's (parquet-limits.ts).
 */
export async function openParquetRows(path: string, shown: string, allowDirs: readonly string[]): Promise<ParquetRows> {
  const opened = await openAllowedFile(path, allowDirs);
  if (!opened.ok) throw new Error(`${shown}: ${opened.message}`);
  const fh = opened.file.handle;
  try {
    const { size } = opened.file.stat;
    const file = handleBuffer(fh, size);
    let metadata: FileMetaData;
    try {
      metadata = await parquetMetadataAsync(file);
    } catch (e) {
      throw new Error(`${shown} is not a readable Parquet file: ${e instanceof Error ? e.message : String(e)}`);
    }
    const names = parquetSchema(metadata).children.map((c) => c.element.name);
    if (!names.includes("id") || (!names.includes("values") && !names.includes("sparse_values"))) {
      throw new Error(`${shown} has the columns [${names.join(", ")}]; the import layout is ${LAYOUT}`);
    }
    const columns = COLUMNS.filter((c) => names.includes(c));
    return {
      rows: Number(metadata.num_rows),
      stat: opened.file.stat,
      async read(from, to) {
        let rows: Record<string, unknown>[] = [];
        await parquetRead({
          file, metadata, columns, rowStart: from, rowEnd: to, rowFormat: "object", useOffsetIndex: true,
          compressors: boundedCompressors(), onComplete: (r) => { rows = r as Record<string, unknown>[]; },
        });
        return rows;
      },
      close: () => opened.file.close(),
    };
  } catch (e) {
    await opened.file.close();
    throw e;
  }
}

/** Numbers from what hyparquet gives for a list column (arrays, typed arrays, bigints). */
export function numbers(v: unknown): number[] | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v as ArrayLike<unknown>, (x) => (typeof x === "bigint" ? Number(x) : (x as number)));
  return undefined;
}
