// fetch_documents — reads documents of a documents index by id (naming the ids not found), or the ones matching a
// metadata filter a page at a time; whole documents within the result budget, text first.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, recordIdArg, wholeNumberArg, ruleError } from "../../src/tool-kit/args/schema.js";
import { documentIndex, speakingDocuments } from "../../src/tool-kit/documents/document-index.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { budgetWords } from "../../src/tool-kit/results/budget.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { hitsResult } from "../../src/tool-kit/text/hits.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "read" } as const;

const Doc = z.object({ id: z.string(), fields: z.record(z.string(), z.unknown()) });

export default defineTool({
  name: "fetch_documents",
  title: "Fetch documents",
  description: "Read documents of a documents index by ids, or those matching a metadata filter (a page at a time).",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    ids: z.array(recordIdArg(RULES)).min(1).max(1000).optional(),
    filter: filterSchema("documents to read").optional(),
    limit: wholeNumberArg(1, 1000, ruleError("limit is a whole number from 1 to 1000", RULES)).optional().describe("Per page with filter; default 100."),
    paginationToken: z.string().min(1).max(2000).optional().describe("From the previous page."),
    fields: z.array(z.string().min(1).max(64)).min(1).max(100).optional().describe("Fields to return; default all."),
  },
  outputSchema: {
    index: z.string(),
    namespace: z.string(),
    documents: z.array(Doc),
    missing: z.array(z.string()).optional().describe("ids: those not found."),
    next: z.string().optional().describe("filter: the next page's paginationToken."),
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  async run({ index, namespace = "", ids, filter, limit, paginationToken, fields }, { service, signal, config }) {
    if ((ids === undefined) === (filter === undefined)) throw new ToolError({ problem: "Give ids or filter (one of them)", untouched: "read" });
    if (ids && paginationToken) throw new ToolError({ problem: "paginationToken pages a fetch by filter; a fetch by ids has no pages", untouched: "read" });
    if (filter && Object.keys(filter).length === 0) throw new ToolError({ problem: "The filter is empty; give a condition, or list_documents to see every id", untouched: "read" });
    checkFilter(filter);
    const { view } = await documentIndex(service, index, signal, "read");
    const answer = await onIndexHost(service, index, signal, (model) =>
      speakingDocuments("read", () =>
        service.documents.fetch(
          model.host,
          namespaceName(namespace),
          { ...(ids ? { ids } : { filter, limit: limit ?? 100, ...(paginationToken && { pagination_token: paginationToken }) }), include_fields: fields ?? ["*"] },
          signal,
        ),
      ),
    );
    const vectors = new Set([view.meaning?.field, view.dense?.field, view.sparse?.field].filter((f) => f !== undefined && !fields?.includes(f)));
    const found = answer.documents.map(({ _id, ...rest }) => ({ id: _id, score: 0, fields: Object.fromEntries(Object.entries(rest).filter(([k]) => !vectors.has(k))) }));
    const missing = ids ? [...new Set(ids)].filter((id) => !found.some((d) => d.id === id)) : undefined;
    const where = namespaceOfIndex(namespace, index);
    const tail = [missing?.length ? `Not found: ${missing.join(", ")}.` : "", answer.next ? `More match: call again with "paginationToken": ${JSON.stringify(answer.next)}.` : ""].filter(Boolean).join(" ");
    const extra = { ...(missing && { missing }), ...(answer.next && { next: answer.next }) };
    if (found.length === 0) return { structured: { index, namespace, documents: [], ...extra }, table: `No documents found in ${where}.${tail ? ` ${tail}` : ""}` };
    const result = hitsResult(found, {
      textFields: view.textFields,
      withoutScore: true,
      only: fields,
      budget: config.maxResultTokens,
      head: (shown) => `${shown === found.length ? found.length : `${shown} of ${found.length}`} ${found.length === 1 ? "document" : "documents"} in ${where}:`,
      structured: (shown) => ({ index, namespace, documents: shown.map(({ id, fields: f }) => ({ id, fields: f })), ...extra }),
      rest: (shown) => `Documents ${shown + 1}–${found.length} were left out: they would pass this result's budget of ${budgetWords(config.maxResultTokens)}. Next step: fetch fewer ids, or fewer fields.`,
    });
    return tail ? { ...result, note: [result.note, tail].filter(Boolean).join("\n") } : result;
  },
});
