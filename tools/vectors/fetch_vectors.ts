// fetch_vectors — records by id, in full; the ids that are not there are named.
import { z } from "zod";
import { fitBudget, float32Values, jsonSize, RESULT_BUDGET_CHARS } from "../../src/tool-kit/results/budget.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { indexArg, namespaceArg, recordIdArg, ruleError } from "../../src/tool-kit/args/schema.js";
import { valuesFormatArg } from "../../src/tool-kit/args/compact-values.js";
import { CompactSparseValuesOutput, inValuesFormat, valuesBase64Output } from "../../src/tool-kit/results/values-format.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const MAX_IDS = 1000;
const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);

const Fetched = z.object({
  id: z.string().describe("Record id."),
  dimension: z.number().int().optional().describe("Number of dense values the record has."),
  values: z.array(z.number()).optional().describe("Dense values (with includeValues), as float32 decimals."),
  valuesBase64: valuesBase64Output,
  sparseValues: CompactSparseValuesOutput.optional().describe("Sparse values (with includeValues)."),
  metadata: z.record(z.string(), z.unknown()).optional().describe("Metadata, in full."),
});
type Fetched = z.infer<typeof Fetched>;

export default defineTool({
  name: "fetch_vectors",
  title: "Fetch vectors",
  description:
    "Read records by id: metadata, and values with includeValues. Use it to look at what was stored or to check that " +
    "an upsert landed; ids not found are listed as missing.",
  inputSchema: {
    index: indexArg("Index name.", RULES),
    namespace: namespaceArg('Namespace; default "".', RULES),
    ids: z
      .array(recordIdArg(RULES).describe("A record id."))
      .min(1, rule(`give 1–${MAX_IDS} ids per call`))
      .max(MAX_IDS, rule(`give 1–${MAX_IDS} ids per call; split a longer list into several calls`))
      .describe("The ids to read."),
    includeValues: z.boolean().optional().describe("Return values too (default false; long)."),
    valuesFormat: valuesFormatArg,
  },
  outputSchema: {
    index: z.string().describe("The index read from."),
    namespace: z.string().describe('The namespace read from ("" is the default namespace).'),
    vectors: z.array(Fetched).describe("The records found, in the order their ids were given."),
    missing: z.array(z.string()).describe("The ids given that have no record in the namespace."),
  },
  annotations: READ_ONLY,
  async run({ index, namespace = "", ids, includeValues = false, valuesFormat }, { service, signal }) {
    const unique = [...new Set(ids)];
    const found = await onIndexHost(service, index, signal, (model) => service.data.fetchMany(model.host, unique, namespace, signal));
    const all: Fetched[] = [];
    const missing: string[] = [];
    for (const id of unique) {
      const r = Object.hasOwn(found, id) ? found[id] : undefined;
      if (!r) {
        missing.push(id);
        continue;
      }
      const record: Fetched = { id };
      if (r.values && r.values.length > 0) record.dimension = r.values.length;
      if (includeValues && r.values && r.values.length > 0) record.values = float32Values(r.values);
      if (includeValues && r.sparseValues) record.sparseValues = { indices: r.sparseValues.indices, values: float32Values(r.sparseValues.values) };
      if (r.metadata) record.metadata = r.metadata;
      all.push(record);
    }
    // Whole up to the budget; past it, the id and dimension only (both channels), and the note says how to get the rest.
    const whole = fitBudget(all, (v) => jsonSize(v.metadata) + jsonSize(v.values) + jsonSize(v.sparseValues));
    const vectors = all.map((v, i) => (i < whole ? v : { id: v.id, ...(v.dimension !== undefined && { dimension: v.dimension }) }));
    const structured = { index, namespace, vectors: inValuesFormat(vectors, valuesFormat), missing };
    const where = namespaceOfIndex(namespace, index);
    const notes: string[] = [];
    if (missing.length > 0) notes.push(`Missing (no record with these ids in ${where}): ${missing.map((id) => JSON.stringify(id)).join(", ")}.`);
    if (whole < vectors.length) {
      const rest = vectors.slice(whole).map((v) => JSON.stringify(v.id));
      notes.push(
        `${rest.length} records are given by id only: their ${includeValues ? "metadata and values" : "metadata"} would pass this result's budget of ` +
          `${RESULT_BUDGET_CHARS.toLocaleString("en-US")} characters. Next step: fetch_vectors again with these ids${includeValues ? ", fewer at a time" : ""}: ${rest.join(", ")}.`,
      );
    }
    if (vectors.length === 0) {
      notes.push("list_vector_ids lists the ids there are.");
      return { structured, table: `None of the ${unique.length} ids has a record in ${where}.`, note: notes.join("\n") };
    }
    const withValues = includeValues && vectors.some((v) => v.values || v.sparseValues);
    const table = markdownTable(
      ["id", "dimension", "metadata", ...(withValues ? ["values", "sparse values"] : [])],
      vectors.map((v) => [
        v.id,
        v.dimension,
        v.metadata && JSON.stringify(v.metadata),
        ...(withValues ? [v.values && JSON.stringify(v.values), v.sparseValues && JSON.stringify(v.sparseValues)] : []),
      ]),
      { whole: true }, // within the records budget (results/budget.ts)
    );
    const head = `${vectors.length} of ${unique.length} ${unique.length === 1 ? "record" : "records"} found in ${where}:`;
    return { structured, table: `${head}\n\n${table}`, ...(notes.length > 0 && { note: notes.join("\n") }) };
  },
});
