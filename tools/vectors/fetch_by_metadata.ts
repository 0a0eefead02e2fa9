// fetch_by_metadata — records whose metadata matches a filter, a page at a time.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, ruleError, SparseValuesOutput, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { fitBudget, float32Values, jsonSize, RESULT_BUDGET_CHARS } from "../../src/tool-kit/results/budget.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { nextPageField, paginationTokenArg } from "../../src/tool-kit/results/admin-summaries.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

const Fetched = z.object({
  id: z.string().describe("Record id."),
  values: z.array(z.number()).optional().describe("Dense values (with includeValues)."),
  sparseValues: SparseValuesOutput.optional().describe("Sparse values (with includeValues)."),
  metadata: z.record(z.string(), z.unknown()).optional().describe("Metadata, in full."),
});

export default defineTool({
  name: "fetch_by_metadata",
  title: "Fetch by metadata",
  description: "Read the records whose metadata matches a filter, a page at a time (metadata always; values with includeValues).",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    namespace: namespaceArg('Namespace, up to 512 characters; omitted means the default namespace "".', RULES),
    filter: filterSchema("the records to read"),
    limit: wholeNumberArg(1, 1000, ruleError("limit is a whole number from 1 to 1000", RULES)).optional().describe("Records per page, 1–1000 (default 100)."),
    paginationToken: paginationTokenArg,
    includeValues: z.boolean().optional().describe("Also return dense and sparse values (default false)."),
  },
  outputSchema: {
    index: z.string().describe("The index."),
    namespace: z.string().describe('The namespace ("" is the default namespace).'),
    vectors: z.array(Fetched).describe("The matching records on this page."),
    paginationToken: nextPageField,
  },
  annotations: READ_ONLY,
  async run({ index, namespace = "", filter, limit, paginationToken, includeValues }, { service, signal }) {
    checkFilter(filter);
    const page = await onIndexHost(service, index, signal, (model) =>
      service.adminData.fetchByMetadata(model.host, { namespace, filter, ...(limit && { limit }), ...(paginationToken && { paginationToken }) }, signal),
    );
    const all = Object.values(page.vectors).map((r) => ({
      id: r.id,
      ...(includeValues && r.values && r.values.length > 0 && { values: float32Values(r.values) }),
      ...(includeValues && r.sparseValues && { sparseValues: { indices: r.sparseValues.indices, values: float32Values(r.sparseValues.values) } }),
      ...(r.metadata && { metadata: r.metadata }),
    }));
    // Whole up to the result budget (as fetch_vectors); past it, ids only, and the note says so.
    const whole = fitBudget(all, (v) => jsonSize(v.metadata) + jsonSize(v.values) + jsonSize(v.sparseValues));
    const vectors = all.map((v, i) => (i < whole ? v : { id: v.id }));
    const structured = { index, namespace, vectors, ...(page.next && { paginationToken: page.next }) };
    const where = namespaceOfIndex(namespace, index);
    if (vectors.length === 0) return { structured, table: `No record in ${where} matches the filter.` };
    const withValues = vectors.some((v) => "values" in v || "sparseValues" in v);
    const table = markdownTable(
      ["id", "metadata", ...(withValues ? ["values", "sparse values"] : [])],
      vectors.map((v) => [
        v.id,
        "metadata" in v && v.metadata ? JSON.stringify(v.metadata) : "",
        ...(withValues ? ["values" in v && v.values ? JSON.stringify(v.values) : "", "sparseValues" in v && v.sparseValues ? JSON.stringify(v.sparseValues) : ""] : []),
      ]),
      { whole: true }, // within the records budget
    );
    const notes: string[] = [];
    if (whole < vectors.length) notes.push(`${vectors.length - whole} records are given by id only: they would pass this result's budget of ${RESULT_BUDGET_CHARS.toLocaleString("en-US")} characters. Next step: fetch_vectors with those ids, fewer at a time.`);
    if (page.next) notes.push(`More records match: call again with paginationToken ${JSON.stringify(page.next)}.`);
    return { structured, table: `${vectors.length} records in ${where} match the filter:\n\n${table}`, ...(notes.length > 0 && { note: notes.join("\n") }) };
  },
});
