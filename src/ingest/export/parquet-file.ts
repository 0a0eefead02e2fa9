// A Parquet file in the hosted service's bulk-import layout, written a row group at a time through an open file:
// id (string), values (list<float>), sparse_values (struct {indices: list<uint32>, values: list<float>}), metadata
// (JSON text). Float values are written as 32-bit floats, which is what the service stores, so nothing is lost.
import type { FileHandle } from "node:fs/promises";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { FetchedRecord } from "../../api/records.js";

const SCHEMA = [
  { name: "root", num_children: 4 },
  { name: "id", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" },
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

/** hyparquet-writer's byte buffer, emptied into the file after each row group (the writer waits for it). */
class FileBytes extends ByteWriter {
  constructor(private readonly handle: FileHandle) {
    super(1 << 20);
  }

  flush(): Promise<void> {
    return this.drain();
  }

  override finish(): Promise<void> {
    return this.drain();
  }

  private async drain(): Promise<void> {
    let done = 0;
    while (done < this.index) {
      const { bytesWritten } = await this.handle.write(new Uint8Array(this.buffer, done, this.index - done));
      done += bytesWritten;
    }
    this.index = 0;
  }
}

export class ParquetRecordsFile {
  private readonly writer: ParquetWriter;

  constructor(handle: FileHandle) {
    this.writer = new ParquetWriter({ writer: new FileBytes(handle), schema: SCHEMA as never, createdBy: "vecdb-mcp export_index" });
  }

  /** Writes the records as one row group. */
  async write(records: readonly FetchedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const columnData = [
      { name: "id", data: records.map((r) => r.id) },
      { name: "values", data: records.map((r) => (r.values !== undefined && r.values.length > 0 ? r.values : null)) },
      { name: "sparse_values", data: records.map((r) => (r.sparseValues !== undefined ? { indices: r.sparseValues.indices, values: r.sparseValues.values } : null)) },
      { name: "metadata", data: records.map((r) => (r.metadata !== undefined ? JSON.stringify(r.metadata) : null)) },
    ];
    await this.writer.write({ columnData, rowGroupSize: records.length });
  }

  /** The footer; the file is complete once this resolves. */
  async finish(): Promise<void> {
    await this.writer.finish();
  }
}
