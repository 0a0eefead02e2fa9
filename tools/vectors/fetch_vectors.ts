// fetch_vectors — records by id, in full; the ids that are not there are named.
import { z } from "zod";
import { budgetWords, fitRows, float32Values, idsArgument } from "../../src/tool-kit/results/budget.js";
import { estimateJsonTokens, estimateTokens } from "../../src/tool-kit/results/tokens.js";
import { markdownRow, markdownTable, type Cell } from "../../src/tool-kit/format/table.js";
import { ordinal } from "../../src/tool-kit/format/ordinal.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { indexArg, namespaceArg, recordIdArg, ruleError } from "../../src/tool-kit/args/schema.js";
import { valuesFormatArg } from "../../src/tool-kit/args/compact-values.js";
import { CompactSparseValuesOutput, inValuesFormat, valuesBase64Output } from "../../src/tool-kit/results/values-format.js";
import { LazyRows } from "../../src/tool-kit/results/lazy-rows.js";
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
    "Read records by id (values with includeValues), e.g. to check that an upsert landed; ids not found are listed " +
    "as missing.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    ids: z
      .array(recordIdArg(RULES))
      .min(1, rule(`give 1–${MAX_IDS} ids per call`))
      .max(MAX_IDS, rule(`give 1–${MAX_IDS} ids per call; split a longer list into several calls`)),
    includeValues: z.boolean().optional().describe("Default false (long)."),
    valuesFormat: valuesFormatArg,
  },
  outputSchema: {
    index: z.string().describe("The index read from."),
    namespace: z.string().describe('The namespace read from ("" is the default namespace).'),
    vectors: z.array(Fetched).describe("The records found, in the order their ids were given."),
    missing: z.array(z.string()).describe("The ids given that have no record in the namespace."),
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  answerSize: (args) => ({ index: args.index, records: new Set(args.ids).size, values: true }), // the service sends values either way
  async run({ index, namespace = "", ids, includeValues = false, valuesFormat }, { service, signal, config }) {
    const unique = [...new Set(ids)];
    const found = await onIndexHost(service, index, signal, (model) => service.data.fetchMany(model.host, unique, namespace, signal));
    const foundOf = (id: string) => (Object.hasOwn(found, id) ? found[id] : undefined);
    // One row per id given, in order: its record, or that it is missing (made when the result reads it: only the
    // rows within the budget have their values converted).
    const rows = new LazyRows<{ id: string; record?: Fetched }>(unique.length, (i) => {
      const id = unique[i];
      const r = foundOf(id);
      if (!r) return { id };
      const record: Fetched = { id };
      if (r.values && r.values.length > 0) record.dimension = r.values.length;
      if (includeValues && r.values && r.values.length > 0) record.values = float32Values(r.values);
      if (includeValues && r.sparseValues) record.sparseValues = { indices: r.sparseValues.indices, values: float32Values(r.sparseValues.values) };
      if (r.metadata) record.metadata = r.metadata;
      return { id, record: inValuesFormat([record], valuesFormat)[0] };
    });
    const where = namespaceOfIndex(namespace, index);
    const withValues = includeValues && unique.some((id) => {
      const r = foundOf(id);
      return r && ((r.values && r.values.length > 0) || r.sparseValues);
    });
    const headers = ["id", "dimension", "metadata", ...(withValues ? ["values", "sparse values"] : [])];
    const cells = (v: Fetched): Cell[] => [
      v.id,
      v.dimension,
      v.metadata && JSON.stringify(v.metadata),
      ...(withValues ? [v.values ? JSON.stringify(v.values) : v.valuesBase64, v.sparseValues && JSON.stringify(v.sparseValues)] : []),
    ];
    const budget = config.maxResultTokens;
    // The records of the ids in the order given, whole, up to the budget; the note names the call for the rest.
    return fitRows(
      rows.length,
      budget,
      (i) => {
        const v = rows.at(i).record;
        const missing = estimateTokens(JSON.stringify(rows.at(i).id)) + 1;
        return v ? { text: estimateTokens(markdownRow(cells(v), headers.length, { whole: true })), structured: estimateJsonTokens(v) } : { text: missing, structured: missing };
      },
      (shown) => {
        const vectors = rows.slice(0, shown).flatMap((r) => (r.record ? [r.record] : []));
        const missing = rows.slice(0, shown).flatMap((r) => (r.record ? [] : [r.id]));
        const structured = { index, namespace, vectors, missing };
        const notes: string[] = [];
        if (missing.length > 0) notes.push(`Missing (no record with these ids in ${where}): ${missing.map((id) => JSON.stringify(id)).join(", ")}.`);
        if (shown < rows.length) notes.push(rest(shown));
        const note = notes.length > 0 ? { note: notes.join("\n") } : {};
        if (vectors.length === 0) {
          const which = shown === rows.length ? `the ${unique.length} ids` : `the first ${shown} of the ${unique.length} ids given`;
          return { structured, table: `None of ${which} has a record in ${where}.`, note: [...notes, "list_vector_ids lists the ids there are."].join("\n") };
        }
        const table = markdownTable(headers, vectors.map(cells), { whole: true }); // within the budget (results/budget.ts)
        const head =
          shown === rows.length
            ? `${vectors.length} of ${unique.length} ${unique.length === 1 ? "record" : "records"} found in ${where}:`
            : `The first ${shown} of the ${unique.length} ids given: ${vectors.length} ${vectors.length === 1 ? "record" : "records"} found in ${where}:`;
        return { structured, table: `${head}\n\n${table}`, ...note };
      },
    );

    function rest(shown: number): string {
      const left = unique.slice(shown);
      const what = `The other ${left.length} ids (from ${JSON.stringify(left[0])}, the ${ordinal(shown + 1)} given, on) were left out: with their ${includeValues ? "metadata and values" : "metadata"} they would pass this result's budget of ${budgetWords(budget)}.`;
      // Not one record fits with its values as numbers: base64 takes about half the tokens.
      const format = includeValues && shown === 0 && valuesFormat !== "base64" ? "base64" : valuesFormat;
      const ids = idsArgument(left, budget / 4);
      const options = `${includeValues ? ', "includeValues": true' : ""}${format ? `, "valuesFormat": ${JSON.stringify(format)}` : ""}`;
      const call = ids
        ? `fetch_vectors {"index": ${JSON.stringify(index)}, "namespace": ${JSON.stringify(namespace)}, "ids": ${ids}${options}} reads them`
        : `fetch_vectors again with the ids given from the ${ordinal(shown + 1)} on${options ? ` (and${options.slice(1)})` : ""} reads them`;
      const why = format !== valuesFormat ? ": not one record fits with its values as numbers" : shown === 0 ? ", if a bigger --max-result-tokens lets one record through" : "";
      const fewer = includeValues && shown > 0 ? '; "includeValues": false reads more records a call' : includeValues ? '; "includeValues": false reads their metadata' : "";
      return `${what} Next step: ${call}${why}${fewer}.`;
    }
  },
});
