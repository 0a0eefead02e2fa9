// The text-upsert core: records with text into an index with integrated embedding, through the same path as vector
// upserts (runUpsert: N in flight, retries, host re-resolution, progress, cancellation, exact landed / not-landed
// accounting), with NDJSON bodies of ≤ 96 records and ≤ 2 MB sent to /records/namespaces/{ns}/upsert.
// Callable from any tool (upsert_records; later index_documents): check with checkTextUpsert, then runTextUpsert.
import type { IndexModel } from "../api/records.js";
import type { Service } from "../api/service.js";
import type { RecordProblem } from "./check.js";
import { checkTextRecords, oversizedTextRecords, planTextBatches, textField, textRecordId, type TextRecord } from "./text-records.js";
import { PlannedBodies, runUpsert, type BatchReport, type UpsertOutcome } from "./upsert.js";
import { namespaceName } from "../common/namespace-name.js";

export type { TextRecord } from "./text-records.js";
export { textField } from "./text-records.js";

/** Why the records cannot go to this index: no integrated embedding (field undefined), or the records' problems. */
export function checkTextUpsert(records: TextRecord[], index: IndexModel): { field: string | undefined; problems: RecordProblem[] } {
  const field = textField(index);
  if (field === undefined) return { field, problems: [] };
  return { field, problems: [...checkTextRecords(records, field), ...oversizedTextRecords(records)].sort((a, b) => a.position - b.position) };
}

export interface TextUpsertArgs {
  service: Service;
  index: string;
  /** "" or omitted: the default namespace (sent as "__default__", the API's name for it in a path). */
  namespace?: string;
  records: TextRecord[];
  concurrency: number;
  signal?: AbortSignal;
  /** Stops sending new batches; batches in flight are answered (see runUpsert). */
  stopSending?: AbortSignal;
  onProgress?: (done: number, total: number | undefined) => void;
  onBatch?: (report: BatchReport) => void;
  /** Limits of one request (tests use smaller ones); default 96 records and 2,000,000 bytes. */
  maxRecords?: number;
  maxBytes?: number;
}

/**
 * Sends checked records (run checkTextUpsert first: this does not check). Throws before writing anything when the
 * index cannot be resolved or is not ready; afterwards never throws: failures are in the outcome, with every id
 * that did not land (`upserted` counts the records of the requests the service accepted).
 */
export function runTextUpsert(args: TextUpsertArgs): Promise<UpsertOutcome> {
  const namespace = namespaceName(args.namespace ?? "");
  return runUpsert({
    service: args.service,
    index: args.index,
    namespace,
    records: new PlannedBodies(planTextBatches(args.records, { maxRecords: args.maxRecords, maxBytes: args.maxBytes })),
    ids: args.records.map((r) => String(textRecordId(r))),
    concurrency: args.concurrency,
    signal: args.signal,
    stopSending: args.stopSending,
    onProgress: args.onProgress,
    onBatch: args.onBatch,
    send: async (host, batch, signal) => {
      await args.service.data.upsertRecords(host, namespace, batch.body, signal);
      return batch.ids.length;
    },
  });
}
