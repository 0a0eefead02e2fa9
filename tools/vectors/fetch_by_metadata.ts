// fetch_by_metadata — records whose metadata matches a filter, a page at a time.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, ruleError, SparseValuesOutput, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { metadataSummary, shorten, TABLE_ROWS } from "../../src/tool-kit/format/shorten.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { nextPageField, paginationTokenArg } from "../../src/tool-kit/results/admin-summaries.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { after: "Nothing was read." };

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
    const vectors = Object.values(page.vectors).map((r) => ({
      id: r.id,
      ...(includeValues && r.values && r.values.length > 0 && { values: r.values }),
      ...(includeValues && r.sparseValues && { sparseValues: { indices: r.sparseValues.indices, values: r.sparseValues.values } }),
      ...(r.metadata && { metadata: r.metadata }),
    }));
    const structured = { index, namespace, vectors, ...(page.next && { paginationToken: page.next }) };
    const where = namespaceOfIndex(namespace, index);
    if (vectors.length === 0) return { structured, table: `No record in ${where} matches the filter.` };
    const table = markdownTable(
      ["id", "metadata"],
      vectors.slice(0, TABLE_ROWS).map((v) => [shorten(v.id), metadataSummary(v.metadata)]),
    );
    const more = page.next ? `\n\nMore records match: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    const rest = vectors.length > TABLE_ROWS ? `\n\nThe other ${vectors.length - TABLE_ROWS} records are in structuredContent.vectors.` : "";
    return { structured, table: `${vectors.length} records in ${where} match the filter:\n\n${table}${rest}${more}` };
  },
});
