// list_namespaces — the namespaces of an index with their record counts, a page at a time.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { indexArg, ruleError, textArg, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { NamespaceSummary, nextPageField, paginationTokenArg, summarizeNamespace } from "../../src/tool-kit/results/admin-summaries.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "list_namespaces",
  title: "List namespaces",
  description: "List the namespaces of an index with how many records each holds, optionally only those starting with a prefix.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    prefix: textArg(0, 512, ruleError("prefixes are at most 512 characters", RULES)).optional().describe("Only namespaces starting with this."),
    limit: wholeNumberArg(1, 100, ruleError("limit is a whole number from 1 to 100", RULES)).optional().describe("Namespaces per page, 1–100 (default 100)."),
    paginationToken: paginationTokenArg,
  },
  outputSchema: {
    index: z.string().describe("The index."),
    namespaces: z.array(NamespaceSummary).describe("The namespaces on this page, by name."),
    total: z.number().int().optional().describe("Namespaces matching the prefix, on all pages."),
    paginationToken: nextPageField,
  },
  annotations: READ_ONLY,
  async run({ index, prefix, limit, paginationToken }, { service, signal }) {
    const page = await onIndexHost(service, index, signal, (model) =>
      service.adminData.listNamespaces(model.host, { prefix, limit, paginationToken }, signal),
    );
    const namespaces = page.namespaces.map(summarizeNamespace);
    const structured = {
      index,
      namespaces,
      ...(page.total !== undefined && { total: page.total }),
      ...(page.next && { paginationToken: page.next }),
    };
    if (namespaces.length === 0) {
      return { structured, table: `Index ${JSON.stringify(index)} has no namespaces${prefix ? ` starting with ${JSON.stringify(prefix)}` : ""}.` };
    }
    const table = markdownTable(["name", "records"], namespaces.map((n) => [n.name, n.records]));
    const more = page.next ? `\n\nMore namespaces: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    return { structured, table: `Namespaces of index ${JSON.stringify(index)}:\n\n${table}${more}` };
  },
});
