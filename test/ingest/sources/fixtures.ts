import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ParquetWriter, fileWriter, parquetWriteFile } from "hyparquet-writer";

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "vecdb-sources-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface ParquetRow {
  id: string | null;
  values?: number[] | null;
  sparse_values?: { indices: number[]; values: number[] } | null;
  metadata?: string | null;
}

// The import layout as the hosted service documents it: id string, values list<float>,
// sparse_values struct {indices list<uint32>, values list<float>}, metadata JSON string.
export const LAYOUT_SCHEMA = [
  { name: "root", num_children: 4 },
  { name: "id", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" },
  { name: "values", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", type: "FLOAT", repetition_type: "REQUIRED" },
  { name: "sparse_values", repetition_type: "OPTIONAL", num_children: 2 },
  { name: "indices", repetition_type: "REQUIRED", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", type: "INT32", converted_type: "UINT_32", repetition_type: "REQUIRED" },
  { name: "values", repetition_type: "REQUIRED", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", type: "FLOAT", repetition_type: "REQUIRED" },
  { name: "metadata", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" },
] as const;

function columns(rows: ParquetRow[], opts: { offsetIndex?: boolean }) {
  return [
    { name: "id", data: rows.map((r) => r.id), offsetIndex: opts.offsetIndex ?? true },
    { name: "values", data: rows.map((r) => r.values ?? null), offsetIndex: opts.offsetIndex ?? true },
    { name: "sparse_values", data: rows.map((r) => r.sparse_values ?? null), offsetIndex: opts.offsetIndex ?? true },
    { name: "metadata", data: rows.map((r) => r.metadata ?? null), offsetIndex: opts.offsetIndex ?? true },
  ];
}

export function writeParquet(
  filename: string,
  rows: ParquetRow[],
  opts: { rowGroupSize?: number; offsetIndex?: boolean; schema?: readonly object[] } = {},
): void {
  parquetWriteFile({ filename, schema: (opts.schema ?? LAYOUT_SCHEMA) as never, rowGroupSize: opts.rowGroupSize ?? 1000, columnData: columns(rows, opts) });
}

/** Writes `total` rows made by `row(i)`, `batch` rows at a time, without holding them all. */
export function writeParquetStreaming(filename: string, total: number, row: (i: number) => ParquetRow, batch = 1000): void {
  const writer = new ParquetWriter({ writer: fileWriter(filename), schema: LAYOUT_SCHEMA as never });
  for (let start = 0; start < total; start += batch) {
    const rows: ParquetRow[] = [];
    for (let i = start; i < Math.min(total, start + batch); i++) rows.push(row(i));
    writer.write({ columnData: columns(rows, {}), rowGroupSize: batch });
  }
  writer.finish();
}

/** Deterministic vector for record i. */
export function vector(i: number, dim: number): number[] {
  const v = new Array<number>(dim);
  let x = (i + 1) * 2654435761;
  for (let d = 0; d < dim; d++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v[d] = Math.fround(x / 2147483648 - 0.5);
  }
  return v;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
