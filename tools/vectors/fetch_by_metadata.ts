// fetch_by_metadata — records whose metadata matches a filter, a page at a time.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, ruleError, SparseValuesOutput, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { budgetWords, fitRows, smallerPage, float32Values } from "../../src/tool-kit/results/budget.js";
import { LazyRows } from "../../src/tool-kit/results/lazy-rows.js";
import { estimateJsonTokens, estimateTokens } from "../../src/tool-kit/results/tokens.js";
import { markdownRow, markdownTable, type Cell } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { nextPageField, paginationTokenArg } from "../../src/tool-kit/results/backups-imports-namespaces.js";
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
  description: "Read the records whose metadata matches a filter, a page at a time (values with includeValues).",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    filter: filterSchema("the records to read"),
    limit: wholeNumberArg(1, 1000, ruleError("limit is a whole number from 1 to 1000", RULES)).optional().describe("Default 100."),
    paginationToken: paginationTokenArg,
    includeValues: z.boolean().optional().describe("Default false."),
  },
  outputSchema: {
    index: z.string().describe("The index."),
    namespace: z.string().describe('The namespace ("" is the default namespace).'),
    vectors: z.array(Fetched).describe("The matching records on this page."),
    paginationToken: nextPageField,
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  answerSize: (args) => ({ index: args.index, records: args.limit ?? 100, values: true }), // the service sends values either way
  async run({ index, namespace = "", filter, limit, paginationToken, includeValues }, { service, signal, config }) {
    checkFilter(filter);
    const page = await onIndexHost(service, index, signal, (model) =>
      service.data.fetchByMetadata(model.host, { namespace, filter, ...(limit && { limit }), ...(paginationToken && { paginationToken }) }, signal),
    );
    const records = Object.values(page.vectors);
    // Each record is made when the result reads it: only those within the budget have their values converted.
    const vectors = new LazyRows(records.length, (i) => {
      const r = records[i];
      return {
        id: r.id,
        ...(includeValues && r.values && r.values.length > 0 && { values: float32Values(r.values) }),
        ...(includeValues && r.sparseValues && { sparseValues: { indices: r.sparseValues.indices, values: float32Values(r.sparseValues.values) } }),
        ...(r.metadata && { metadata: r.metadata }),
      };
    });
    const where = namespaceOfIndex(namespace, index);
    if (vectors.length === 0) return { structured: { index, namespace, vectors: [], ...(page.next && { paginationToken: page.next }) }, table: `No record in ${where} matches the filter.` };
    const withValues = includeValues === true && records.some((r) => (r.values && r.values.length > 0) || r.sparseValues);
    const headers = ["id", "metadata", ...(withValues ? ["values", "sparse values"] : [])];
    const cells = (v: ReturnType<typeof vectors.at>): Cell[] => [
      v.id,
      v.metadata ? JSON.stringify(v.metadata) : "",
      ...(withValues ? [v.values ? JSON.stringify(v.values) : "", v.sparseValues ? JSON.stringify(v.sparseValues) : ""] : []),
    ];
    const budget = config.maxResultTokens;
    // Whole records up to the budget. A page cut short gives no paginationToken (it would skip the rest of the page):
    // the note says how to read the page in smaller ones.
    return fitRows(
      vectors.length,
      budget,
      (i) => ({ text: estimateTokens(markdownRow(cells(vectors.at(i)), headers.length, { whole: true })), structured: estimateJsonTokens(vectors.at(i)) }),
      (shown) => {
        const whole = shown === vectors.length;
        const next = whole ? page.next : undefined;
        const structured = { index, namespace, vectors: vectors.slice(0, shown), ...(next && { paginationToken: next }) };
        const table = markdownTable(headers, vectors.slice(0, shown).map(cells), { whole: true }); // within the budget (results/budget.ts)
        const notes: string[] = [];
        if (!whole) {
          const from = paginationToken ? ` and "paginationToken": ${JSON.stringify(paginationToken)}` : "";
          notes.push(
            `The other ${vectors.length - shown} records of this page were left out: they would pass this result's budget of ${budgetWords(budget)}. ` +
              `Next step: the same call with "limit": ${smallerPage(shown)}${from}${includeValues ? ' (or "includeValues": false)' : ""}, then each page's paginationToken, reads every record.`,
          );
        }
        if (next) notes.push(`More records match: call again with paginationToken ${JSON.stringify(next)}.`);
        const head = whole ? `${vectors.length} records in ${where} match the filter:` : `${shown} of this page's ${vectors.length} records in ${where} that match the filter:`;
        return { structured, table: `${head}\n\n${table}`, ...(notes.length > 0 && { note: notes.join("\n") }) };
      },
    );
  },
});
