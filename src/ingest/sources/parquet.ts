import { parquetMetadataAsync, parquetRead, parquetSchema, type FileMetaData, type RowGroup } from "hyparquet";
import { boundedCompressors } from "../../common/parquet-limits.js";
import { openRegularFile, type OpenedFile } from "../../common/safe-open.js";
import { fileHandleBuffer } from "./file-buffer.js";
import { jsonSyntaxError } from "./json-syntax.js";
import { recordFromObject } from "./record-shape.js";
import type { RecordSource, SourceItem } from "./types.js";

// The layout the hosted service documents for bulk import; other columns are ignored, as the service does.
const PARQUET_COLUMNS = ["id", "values", "sparse_values", "metadata"] as const;
const LAYOUT = "id (string), values (list<float>), sparse_values (struct {indices: list<uint32>, values: list<float>}, optional), metadata (JSON string, optional)";
// Upper bound on the uncompressed bytes decoded at once when a row group can be read in slices.
const SLICE_BYTES = 8 * 1024 * 1024;

function toNumbers(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v) && v.every((x) => typeof x !== "bigint")) return v;
  if (ArrayBuffer.isView(v) || Array.isArray(v)) {
    return Array.from(v as ArrayLike<unknown>, (x) => (typeof x === "bigint" ? Number(x) : x));
  }
  return v;
}

function rowToItem(row: Record<string, unknown>, position: number): SourceItem {
  const item = rowToItemInner(row, position);
  if (item.error !== undefined && item.id === undefined && typeof row.id === "string") item.id = row.id;
  return item;
}

function rowToItemInner(row: Record<string, unknown>, position: number): SourceItem {
  const candidate: Record<string, unknown> = { id: row.id };
  const values = toNumbers(row.values);
  if (values !== undefined) candidate.values = values;
  const sparse = row.sparse_values;
  if (sparse !== null && sparse !== undefined) {
    if (typeof sparse !== "object") return { position, error: `"sparse_values" must be a struct {indices, values}` };
    const s = sparse as Record<string, unknown>;
    candidate.sparse_values = { indices: toNumbers(s.indices), values: toNumbers(s.values) };
  }
  const md = row.metadata;
  if (typeof md === "string") {
    // The file's text is never quoted back (see json-syntax.ts): where and why only.
    try {
      candidate.metadata = JSON.parse(md);
    } catch {
      const found = jsonSyntaxError(md);
      return { position, error: `"metadata" is not valid JSON${found ? ` at character ${found.column}: ${found.rule}` : ""}` };
    }
    const m = candidate.metadata;
    if (m === null || typeof m !== "object" || Array.isArray(m)) {
      return { position, error: `"metadata" must be a JSON object, got ${m === null ? "null" : Array.isArray(m) ? "a list" : `a ${typeof m}`}` };
    }
  } else if (md !== null && md !== undefined) {
    candidate.metadata = md; // a JSON-typed column hyparquet already decoded
  }
  if (row.id === null || row.id === undefined) return { position, error: `missing "id"` };
  const shaped = recordFromObject(candidate);
  return shaped.error !== undefined ? { position, error: shaped.error, ...(shaped.id !== undefined && { id: shaped.id }) } : { position, record: shaped.record };
}

const READABLE_CODECS = new Set(["UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI"]);

function unsupportedCodecs(metadata: FileMetaData): string[] {
  const found = new Set<string>();
  for (const g of metadata.row_groups) for (const c of g.columns) if (c.meta_data && !READABLE_CODECS.has(c.meta_data.codec)) found.add(c.meta_data.codec);
  return [...found];
}

function canSlice(group: RowGroup): boolean {
  return group.columns.every((c) => c.offset_index_offset !== undefined && c.offset_index_length !== undefined);
}

async function readMagic(fh: OpenedFile["handle"], size: number): Promise<boolean> {
  if (size < 12) return false;
  const head = Buffer.alloc(4);
  const tail = Buffer.alloc(4);
  await fh.read(head, 0, 4, 0);
  await fh.read(tail, 0, 4, size - 4);
  return head.toString("latin1") === "PAR1" && tail.toString("latin1") === "PAR1";
}

/**
 * Reads row group by row group through the file's one descriptor (never the whole file). A row group that has an
 * offset index is decoded in slices of ≤ 8 MB; one without is decoded whole (Parquet gives no cheaper way in).
 * Takes an open file (owned from then on) or a path (tests, benchmarks).
 */
export async function openParquet(input: string | OpenedFile, opts: { sliceBytes?: number } = {}): Promise<RecordSource> {
  const sliceBytes = opts.sliceBytes ?? SLICE_BYTES;
  const opened = typeof input === "string" ? await openRegularFile(input) : input;
  const fh = opened.handle;
  const path = opened.realPath;
  let metadata: FileMetaData;
  try {
    const { size } = await fh.stat();
    if (!(await readMagic(fh, size))) throw new Error(`not a Parquet file: missing PAR1 magic (${path})`);
    const file = fileHandleBuffer(fh, size);
    try {
      metadata = await parquetMetadataAsync(file);
    } catch (e) {
      throw new Error(`not a readable Parquet file: ${e instanceof Error ? e.message : String(e)} (${path})`);
    }
    const names = parquetSchema(metadata).children.map((c) => c.element.name);
    if (!names.includes("id") || (!names.includes("values") && !names.includes("sparse_values"))) {
      throw new Error(`Parquet file ${path} has columns [${names.join(", ")}]; expected the import layout: ${LAYOUT}`);
    }
    const codecs = unsupportedCodecs(metadata);
    if (codecs.length > 0) {
      throw new Error(
        `Parquet file ${path} is compressed with ${codecs.join(", ")}, which this server cannot read; ` +
          `readable: uncompressed, SNAPPY, GZIP, BROTLI (e.g. pyarrow: pq.write_table(table, path, compression="snappy"))`,
      );
    }
    const columns = PARQUET_COLUMNS.filter((c) => names.includes(c));
    const totalRows = Number(metadata.num_rows);

    return {
      format: "parquet",
      path,
      file: opened,
      count: async () => totalRows,
      close: () => opened.close(),
      records(startAt = 1): AsyncIterable<SourceItem> {
        return (async function* () {
          let groupStart = 0;
          for (const group of metadata.row_groups) {
            const groupRows = Number(group.num_rows);
            const groupEnd = groupStart + groupRows;
            if (groupEnd >= startAt && groupRows > 0) {
              const bytesPerRow = Math.max(1, Number(group.total_byte_size) / groupRows);
              const slice = canSlice(group) ? Math.max(1, Math.floor(sliceBytes / bytesPerRow)) : groupRows;
              for (let from = Math.max(groupStart, startAt - 1); from < groupEnd; from += slice) {
                const to = Math.min(groupEnd, from + slice);
                let rows: Record<string, unknown>[] = [];
                try {
                  await parquetRead({
                    file, metadata, columns: [...columns], rowStart: from, rowEnd: to, rowFormat: "object",
                    useOffsetIndex: true, compressors: boundedCompressors(), onComplete: (r) => { rows = r; },
                  });
                } catch (e) {
                  throw new Error(`cannot read rows ${from + 1}–${to} of ${path}: ${e instanceof Error ? e.message : String(e)}`);
                }
                for (let i = 0; i < rows.length; i++) yield rowToItem(rows[i], from + i + 1);
                rows = [];
              }
            }
            groupStart = groupEnd;
          }
        })();
      },
    };
  } catch (e) {
    await opened.close();
    throw e;
  }
}
