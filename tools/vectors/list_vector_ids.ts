// list_vector_ids — one page of the record ids in a namespace (optionally with a prefix), and how to get the next.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
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
    "List the record ids in a namespace, in id order, a page at a time, optionally only those with a prefix. Serverless " +
    "indexes only (the service cannot list a pod-based one).",
  inputSchema: {
    index: indexArg("Index name."),
    namespace: namespaceArg('Namespace; default "".'),
    prefix: textArg(1, 512, ruleError("a prefix is 1–512 characters"))
      .optional()
      .describe("Only ids that start with this, e.g. \"doc1#\"."),
    limit: wholeNumberArg(1, MAX_LIMIT, ruleError(`must be a whole number from 1 to ${MAX_LIMIT}`))
      .optional()
      .describe(`Ids per page (default ${MAX_LIMIT}).`),
    paginationToken: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe("The previous page's paginationToken, for the next page."),
  },
  outputSchema: {
    index: z.string().describe("The index listed."),
    namespace: z.string().describe('The namespace listed ("" is the default namespace).'),
    ids: z.array(z.string()).describe("This page's ids, in id order."),
    paginationToken: z.string().optional().describe("Present when more ids follow: pass it back to get the next page."),
  },
  annotations: READ_ONLY,
  async run({ index, namespace = "", prefix, limit = MAX_LIMIT, paginationToken }, { service, signal }) {
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
    const structured = { index, namespace, ids: page.ids, ...(page.next !== undefined && { paginationToken: page.next }) };
    const where = namespaceOfIndex(namespace, index) + (prefix !== undefined ? ` starting with ${JSON.stringify(prefix)}` : "");
    const next =
      page.next !== undefined
        ? `More ids follow: call list_vector_ids again with paginationToken ${JSON.stringify(page.next)} (and the same index, namespace and prefix) for the next page.`
        : paginationToken !== undefined
          ? "That was the last page."
          : "That is all of them.";
    if (page.ids.length === 0) {
      return {
        structured,
        table: `No ids in ${where}${paginationToken !== undefined ? " after that token" : ""}.`,
        note: "describe_index_stats shows which namespaces hold records.",
      };
    }
    const n = page.ids.length;
    const table = markdownTable(["id"], page.ids.map((id) => [id]));
    return { structured, table: `${n} ${n === 1 ? "id" : "ids"} in ${where}:\n\n${table}`, note: next };
  },
});
