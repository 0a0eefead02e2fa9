// list_bulk_imports — the bulk imports of an index with their status and progress.
import { z } from "zod";
import { pageLimitArg } from "../../src/tool-kit/args/admin-args.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { ImportSummary, nextPageField, paginationTokenArg, summarizeImport } from "../../src/tool-kit/results/admin-summaries.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "list_bulk_imports",
  title: "List bulk imports",
  description: "List the bulk imports of an index with their status, progress and records imported.",
  inputSchema: { index: indexArg("Name of the index.", RULES), limit: pageLimitArg(RULES, "Imports"), paginationToken: paginationTokenArg },
  outputSchema: { index: z.string().describe("The index."), imports: z.array(ImportSummary).describe("The imports on this page."), paginationToken: nextPageField },
  annotations: READ_ONLY,
  async run({ index, limit, paginationToken }, { service, signal }) {
    const page = await onIndexHost(service, index, signal, (model) => service.adminData.listImports(model.host, { limit, paginationToken }, signal));
    const imports = page.imports.map(summarizeImport);
    const structured = { index, imports, ...(page.next && { paginationToken: page.next }) };
    if (imports.length === 0) return { structured, table: `Index ${JSON.stringify(index)} has no bulk imports.` };
    const table = markdownTable(
      ["id", "status", "percent", "records imported", "uri"],
      imports.map((i) => [i.id, i.status, i.percentComplete, i.recordsImported, i.uri]),
    );
    const more = page.next ? `\n\nMore imports: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    return { structured, table: `Bulk imports of index ${JSON.stringify(index)}:\n\n${table}${more}` };
  },
});
