// list_vector_ids — one page of the record ids in a namespace (optionally with a prefix), and how to get the next.
import { z } from "zod";
import { markdownRow, markdownTable } from "../../src/tool-kit/format/table.js";
import { budgetWords, fitRows, smallerPage } from "../../src/tool-kit/results/budget.js";
import { estimateJsonTokens, estimateTokens } from "../../src/tool-kit/results/tokens.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { indexArg, namespaceArg, ruleError, textArg, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";

const MAX_LIMIT = 100;

export default defineTool({
  name: "list_vector_ids",
  title: "List vector ids",
  description:
    "List the record ids of a namespace in id order, a page at a time, optionally by prefix. Serverless indexes only.",
  inputSchema: {
    index: indexArg(),
    namespace: namespaceArg(),
    prefix: textArg(1, 512, ruleError("a prefix is 1–512 characters"))
      .optional()
      .describe('e.g. "doc1#".'),
    limit: wholeNumberArg(1, MAX_LIMIT, ruleError(`must be a whole number from 1 to ${MAX_LIMIT}`))
      .optional()
      .describe(`Default ${MAX_LIMIT}.`),
    paginationToken: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe("From the previous page."),
  },
  outputSchema: {
    index: z.string().describe("The index listed."),
    namespace: z.string().describe('The namespace listed ("" is the default namespace).'),
    ids: z.array(z.string()).describe("This page's ids, in id order."),
    paginationToken: z.string().optional().describe("Present when more ids follow: pass it back to get the next page."),
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  async run({ index, namespace = "", prefix, limit = MAX_LIMIT, paginationToken }, { service, signal, config }) {
    const page = await onIndexHost(
      service,
      index,
      signal,
      (model) => service.data.listIds(model.host, { namespace, prefix, limit, paginationToken }, signal),
      (model) => {
        if (model.spec.pod) {
          throw new ToolError({
            problem: `Index ${JSON.stringify(index)} is pod-based, and the service lists record ids only in serverless indexes`,
            next:
              "fetch_vectors reads records whose ids you know; query_vectors finds records by vector or metadata filter; " +
              "describe_index_stats counts them per namespace.",
          });
        }
      },
    );
    const where = namespaceOfIndex(namespace, index) + (prefix !== undefined ? ` starting with ${JSON.stringify(prefix)}` : "");
    if (page.ids.length === 0) {
      return {
        structured: { index, namespace, ids: page.ids, ...(page.next !== undefined && { paginationToken: page.next }) },
        table: `No ids in ${where}${paginationToken !== undefined ? " after that token" : ""}.`,
        note: "describe_index_stats shows which namespaces hold records.",
      };
    }
    const budget = config.maxResultTokens;
    const n = page.ids.length;
    // Ids up to the budget (an id can be 512 characters). A page cut short gives no paginationToken (it would skip
    // the rest of the page): the note says how to read it in smaller pages.
    return fitRows(
      n,
      budget,
      (i) => ({ text: estimateTokens(markdownRow([page.ids[i]], 1)), structured: estimateJsonTokens(page.ids[i]) + 1 }),
      (shown) => {
        const whole = shown === n;
        const ids = page.ids.slice(0, shown);
        const structured = { index, namespace, ids, ...(whole && page.next !== undefined && { paginationToken: page.next }) };
        const from = paginationToken !== undefined ? ` and "paginationToken": ${JSON.stringify(paginationToken)}` : "";
        const note = !whole
          ? `The other ${n - shown} ids of this page were left out: they would pass this result's budget of ${budgetWords(budget)}. ` +
            `Next step: call list_vector_ids again with "limit": ${smallerPage(shown)}${from} (and the same index, namespace and prefix), then each page's paginationToken.`
          : page.next !== undefined
            ? `More ids follow: call list_vector_ids again with paginationToken ${JSON.stringify(page.next)} (and the same index, namespace and prefix) for the next page.`
            : paginationToken !== undefined
              ? "That was the last page."
              : "That is all of them.";
        const head = whole ? `${n} ${n === 1 ? "id" : "ids"} in ${where}:` : `${shown} of this page's ${n} ids in ${where}:`;
        return { structured, table: `${head}\n\n${markdownTable(["id"], ids.map((id) => [id]))}`, note };
      },
    );
  },
});
