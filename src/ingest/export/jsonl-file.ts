// A JSONL file of records, one upsert_vectors record a line ({"id", "values", "sparse_values", "metadata"}), as
// import_vectors reads them. Float values are written as the shortest decimal of their 32-bit float, which reads
// back as the same float.
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

export class JsonlRecordsFile {
  constructor(private readonly handle: FileHandle) {}

  async write(records: readonly FetchedRecord[]): Promise<void> {
    if (records.length > 0) await this.handle.writeFile(records.map(recordLine).join(""));
  }

  async finish(): Promise<void> {}
}
