// upsert_vectors — write records into an index, through the index's own host. The whole call is checked against the
// index first (nothing is written if one record is bad); then batches of ≤ 100 records and ≤ 2 MB go out concurrently.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { checkRecords } from "../../src/ingest/check.js";
import { runUpsert } from "../../src/ingest/upsert.js";
import { indexArg, namespaceArg, numberList, recordIdArg, ruleError, sparseVectorArg } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { distinctFailures, failuresField, notWrittenText, problemsText, upsertedField, writableIndex, writtenTo } from "../../src/tool-kit/results/writes.js";

const MAX_RECORDS = 10_000;

/** Messages name the record's position, the field, the value given and the rule. */
const RULES = { list: "vectors", after: "Nothing was written." };
const rule = (text: string) => ruleError(text, RULES);

const VectorRecord = z.object({
  id: recordIdArg(RULES).describe("Record id, 1–512 characters, unique within the call. An existing record with this id is overwritten."),
  // min 0: a sparse record as the service itself returns it (fetch) carries "values": [].
  values: numberList({ min: 0, max: 20_000, ...rule("dense values are a list of at most 20000 numbers") })
    .optional()
    .describe("Dense vector: exactly the index's dimension numbers. Required for a dense index; omit (or []) for a sparse index."),
  sparseValues: sparseVectorArg(RULES, { nonEmpty: false })
    .optional()
    .describe("Sparse vector (for sparse indexes, or hybrid dotproduct indexes): indices and values of equal length."),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Flat key → value map: each value a string, number, boolean or list of strings (no nulls, no nested objects); at most 40 KB per record."),
});

const Outcome = {
  ...writtenTo,
  host: z.string().describe("The index's data-plane host the records went to."),
  records: z.number().int().describe("Records in the call."),
  batches: z.number().int().describe("Upsert requests sent."),
  upserted: upsertedField,
  failed: z.number().int().describe("Records that were not written."),
  seconds: z.number().describe("Wall-clock time of the writes."),
  failedIds: z.array(z.string()).describe("Ids of the records that were not written (empty when all landed)."),
  failures: failuresField("One entry per distinct failure."),
};

export default defineTool({
  name: "upsert_vectors",
  title: "Upsert vectors",
  description:
    "Write records (id, dense values and/or sparse values, metadata) into an index; a record whose id exists is overwritten. " +
    "Use it to store embeddings. Call list_indexes first to learn the index's name and dimension. The whole call is checked " +
    `against the index before anything is written (dimension, ids, sparse values, metadata); up to ${MAX_RECORDS} records per call, ` +
    "sent in batches with retries. Returns a table (index · namespace · host · records · batches · upserted · failed · seconds); " +
    "if some records could not be written the result is an error listing exactly their ids.",
  inputSchema: {
    index: indexArg("Name of the index to write to (list_indexes shows the names).", RULES),
    namespace: namespaceArg('Namespace inside the index, up to 512 characters; omitted means the default namespace "".', RULES),
    vectors: z
      .array(VectorRecord)
      .min(1, rule(`give 1–${MAX_RECORDS} records per call`))
      .max(MAX_RECORDS, rule(`give 1–${MAX_RECORDS} records per call; split larger sets into several calls`))
      .describe(`The records to write, 1–${MAX_RECORDS}. Ids must be unique within the call.`),
  },
  outputSchema: Outcome,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", vectors }, { service, config, signal, progress }) {
    let model = await writableIndex(service, index, signal);
    if (model.embed) {
      throw new ToolError(
        `Index ${JSON.stringify(index)} has integrated embedding (model ${model.embed.model}): it embeds text itself; nothing was written.
` +
          `Next step: write the text with upsert_records (each record with _id and a "${String(model.embed.field_map?.text ?? "text")}" field).`,
      );
    }
    let problems = checkRecords(vectors, model);
    if (problems.length > 0) {
      // The cached record may be stale (the index was deleted and created again with another dimension elsewhere):
      // a refusal is judged against a fresh one. (Costs a control-plane call on bad input only.)
      service.hosts.forget(index);
      model = await writableIndex(service, index, signal);
      problems = checkRecords(vectors, model);
    }
    if (problems.length > 0) throw new ToolError(problemsText("upsert_vectors", problems, index));

    const outcome = await runUpsert({
      service,
      index,
      namespace,
      records: vectors,
      concurrency: config.concurrency,
      signal,
      checked: true,
      onProgress: (done, total) => progress(done, total, `${done} of ${total ?? vectors.length} records written`),
    });
    const structured = {
      index,
      namespace,
      host: outcome.host,
      records: outcome.records,
      batches: outcome.batches,
      upserted: outcome.upserted,
      failed: outcome.failedIds.length,
      seconds: Math.round(outcome.seconds * 100) / 100,
      failedIds: outcome.failedIds,
      failures: distinctFailures(outcome.failures),
    };
    const table = markdownTable(
      ["index", "namespace", "host", "records", "batches", "upserted", "failed", "seconds"],
      [[index, namespace || "(default)", outcome.host, outcome.records, outcome.batches, outcome.upserted, structured.failed, structured.seconds.toFixed(2)]],
    );
    if (structured.failed === 0 && !outcome.inputError) return { structured, table };

    return { structured, isError: true, table: notWrittenText("upsert_vectors", table, outcome, structured.failures) };
  },
});
