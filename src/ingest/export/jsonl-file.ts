// A JSONL file of records, as import_vectors reads them: one upsert_vectors record a line ({"id", "values",
// "sparse_values", "metadata"}), float values written as the shortest decimal of their 32-bit float (which reads back
// as the same float); or, from an index that embeds text, one upsert_records record a line ({"_id", and the record's
// fields, its text among them}), which an index for the same model embeds again on import.
import type { FileHandle } from "node:fs/promises";
import type { FetchedRecord } from "../../api/records.js";
import { float32ToString } from "../../common/float32.js";

const floats = (values: readonly number[]) => values.map(float32ToString).join(",");

function recordLine(r: FetchedRecord): string {
  let line = `{"id":${JSON.stringify(r.id)}`;
  if (r.values !== undefined && r.values.length > 0) line += `,"values":[${floats(r.values)}]`;
  if (r.sparseValues !== undefined) line += `,"sparse_values":{"indices":[${r.sparseValues.indices.join(",")}],"values":[${floats(r.sparseValues.values)}]}`;
  if (r.metadata !== undefined) line += `,"metadata":${JSON.stringify(r.metadata)}`;
  return `${line}}\n`;
}

const textRecordLine = (r: FetchedRecord) => `${JSON.stringify({ _id: r.id, ...r.metadata })}\n`;

export class JsonlRecordsFile {
  private readonly line: (r: FetchedRecord) => string;

  /** `textRecords`: lines of upsert_records records (the index embeds text). */
  constructor(
    private readonly handle: FileHandle,
    textRecords: boolean,
  ) {
    this.line = textRecords ? textRecordLine : recordLine;
  }

  async write(records: readonly FetchedRecord[]): Promise<void> {
    if (records.length > 0) await this.handle.writeFile(records.map(this.line).join(""));
  }

  async finish(): Promise<void> {}
}
