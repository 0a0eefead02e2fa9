// upsert_records — write text records into an index with integrated embedding; the index's model embeds the text.
// The whole call is checked against the index's field_map first (nothing is written if one record is bad); then
// NDJSON batches of ≤ 96 records and ≤ 2 MB go out concurrently, with retries and exact not-landed accounting.
import { z } from "zod";
import { checkTextUpsert, runTextUpsert } from "../../src/ingest/text-upsert.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { indexArg, namespaceArg, ruleError } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { failuresField, notWrittenText, problemsRefusal, upsertResult, writableIndex, writtenTo } from "../../src/tool-kit/results/writes.js";

const MAX_RECORDS = 10_000;
const RULES = { list: "records", untouched: "written" } as const;
const rule = (text: string) => ruleError(text, RULES);
export default defineTool({
  name: "upsert_records",
  title: "Upsert text records",
  description:
    "Store text records in an index that embeds text; a record whose _id exists is replaced.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    records: z
      .array(z.record(z.string(), z.unknown()).describe('{"_id": "note-1", "<text field>": "…", …metadata}; text field: see describe_index.'))
      .min(1, rule(`give 1–${MAX_RECORDS} records per call`))
      .max(MAX_RECORDS, rule(`give 1–${MAX_RECORDS} records per call; split larger sets into several calls`)),
  },
  outputSchema: {
    ...writtenTo,
    records: z.number().int().describe("Records in the call."),
    batches: z.number().int().describe("Upsert requests sent."),
    upserted: z.number().int().describe("Records in the requests the service accepted."),
    failed: z.number().int().describe("Records that were not written."),
    seconds: z.number().describe("Wall-clock time of the writes."),
    failedIds: z.array(z.string()).describe("Ids of the records that were not written (empty when all landed)."),
    failures: failuresField("One entry per distinct failure."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, namespace = "", records }, { service, config, signal, progress }) {
    let model = await writableIndex(service, index, signal);
    let checked = checkTextUpsert(records, model);
    if (checked.field === undefined || checked.problems.length > 0) {
      service.hosts.forget(index); // judged against a fresh record: the cached one may be stale
      model = await writableIndex(service, index, signal);
      checked = checkTextUpsert(records, model);
    }
    if (checked.field === undefined) {
      throw new ToolError({
        problem: `Index ${JSON.stringify(index)} has no integrated embedding, so it cannot embed text`,
        untouched: "written",
        next: "write vectors to it with upsert_vectors (embed_texts makes them from text), or create an index for a model with create_index_for_model.",
      });
    }
    if (checked.problems.length > 0) throw new ToolError(problemsRefusal("upsert_records", checked.problems, index));

    const outcome = await runTextUpsert({
      service,
      index,
      namespace,
      records,
      concurrency: config.concurrency,
      signal,
      onProgress: (done, total) => progress(done, total, `${done} of ${total ?? records.length} records written`),
    });
    const { structured, table } = upsertResult(index, namespace, outcome);
    if (structured.failed === 0) return { structured, table };
    return { structured, isError: true, ...notWrittenText("upsert_records", table, outcome, structured.failures) };
  },
});
