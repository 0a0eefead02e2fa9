// upsert_vectors — write records into an index, through the index's own host. The whole call is checked against the
// index first (nothing is written if one record is bad); then batches of ≤ 100 records and ≤ 2 MB go out concurrently.
import { z } from "zod";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { checkRecords } from "../../src/ingest/check.js";
import { runUpsert } from "../../src/ingest/upsert.js";
import { decodeCompactRecords } from "../../src/ingest/compact-records.js";
import { base64ValuesArg, compactSparseVectorArg } from "../../src/tool-kit/args/compact-values.js";
import { indexArg, namespaceArg, numberList, numberListProblem, recordIdArg, ruleError } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { FRESHNESS_NOTE, isHostedService } from "../../src/tool-kit/hosted-service.js";
import { failuresField, notWrittenText, problemsRefusal, upsertedField, upsertResult, writableIndex, writtenTo } from "../../src/tool-kit/results/writes.js";

const MAX_RECORDS = 10_000;

/** Messages name the record's position, the field, the value given and the rule. */
const RULES = { list: "vectors", untouched: "written" } as const;
const rule = (text: string) => ruleError(text, RULES);
const numbersRule = (text: string) => ruleError(text, { ...RULES, detail: numberListProblem });

const VectorRecord = z.object({
  id: recordIdArg(RULES).describe("Unique within the call."),
  // min 0: a sparse record as the service itself returns it (fetch) carries "values": [].
  values: numberList({ min: 0, max: 20_000, ...numbersRule("dense values are a list of at most 20000 numbers") })
    .optional()
    .describe("Dense, of the index's dimension."),
  valuesBase64: base64ValuesArg("valuesBase64", 20_000, RULES)
    .optional()
    .describe("Instead of values: base64 of little-endian float32 (smaller)."),
  sparseValues: compactSparseVectorArg(RULES, { nonEmpty: false })
    .optional()
    .describe("Sparse indexes, or hybrid on dotproduct."),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Flat: strings, numbers, booleans, lists of strings; ≤ 40 KB."),
});

const Outcome = {
  ...writtenTo,
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
    "Write your own vectors into an index, replacing records with the same id. Checked whole first: nothing is written " +
    "if a record is bad.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    vectors: z
      .array(VectorRecord)
      .min(1, rule(`give 1–${MAX_RECORDS} records per call`))
      .max(MAX_RECORDS, rule(`give 1–${MAX_RECORDS} records per call; split larger sets into several calls`)),
  },
  outputSchema: Outcome,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", vectors: given }, { service, config, signal, stopping, progress }) {
    let model = await writableIndex(service, index, signal);
    if (model.embed) {
      throw new ToolError({
        problem: `Index ${JSON.stringify(index)} has integrated embedding (model ${model.embed.model}): it embeds text itself`,
        untouched: "written",
        next: `write the text with upsert_records (each record with _id and a "${String(model.embed.field_map?.text ?? "text")}" field).`,
      });
    }
    const vectors = decodeCompactRecords(given);
    let problems = checkRecords(vectors, model);
    if (problems.length > 0) {
      // The cached record may be stale (the index was deleted and created again with another dimension elsewhere):
      // a refusal is judged against a fresh one. (Costs a control-plane call on bad input only.)
      service.hosts.forget(index);
      model = await writableIndex(service, index, signal);
      problems = checkRecords(vectors, model);
    }
    if (problems.length > 0) throw new ToolError(problemsRefusal("upsert_vectors", problems, index));

    const outcome = await runUpsert({
      service,
      index,
      namespace,
      records: vectors,
      concurrency: config.concurrency,
      signal,
      stopSending: stopping,
      checked: true,
      onProgress: (done, total) => progress(done, total, `${done} of ${total ?? vectors.length} records written`),
    });
    const { structured, table } = upsertResult(index, namespace, outcome);
    if (structured.failed === 0 && !outcome.inputError) return { structured, table, ...(isHostedService(config) && { note: FRESHNESS_NOTE }) };

    return { structured, isError: true, ...notWrittenText("upsert_vectors", table, outcome, structured.failures) };
  },
});
