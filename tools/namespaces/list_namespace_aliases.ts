// list_namespace_aliases — the aliases of an index and where they point (API 2026-07).
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg, ruleError, textArg, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { targetNamespaceArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { nextPageField, paginationTokenArg } from "../../src/tool-kit/results/backups-imports-namespaces.js";
import { AliasSummary, summarizeAlias } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "list_namespace_aliases",
  title: "List namespace aliases",
  description: "List the namespace aliases of an index and the namespace each one points at (reads follow it).",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    prefix: textArg(1, 512, ruleError("prefixes are 1–512 characters", RULES)).optional().describe("Only aliases starting with this."),
    target: targetNamespaceArg("Only aliases pointing at this namespace.", RULES).optional(),
    limit: wholeNumberArg(1, 100, ruleError("limit is a whole number from 1 to 100", RULES)).optional().describe("Aliases per page, 1–100 (default 100)."),
    paginationToken: paginationTokenArg,
  },
  outputSchema: {
    index: z.string().describe("The index."),
    aliases: z.array(AliasSummary).describe("The aliases on this page, by name."),
    total: z.number().int().optional().describe("Aliases matching, on all pages."),
    paginationToken: nextPageField,
  },
  annotations: READ_ONLY,
  async run({ index, prefix, target, limit, paginationToken }, { service, signal, config }) {
    requireSchemaApi("list_namespace_aliases", config.apiVersion, "read");
    const opts = { prefix, limit, paginationToken, ...(target !== undefined && { targetNamespace: namespaceName(target) }) };
    const page = await onIndexHost(service, index, signal, (model) => service.data.listNamespaceAliases(model.host, opts, signal));
    const aliases = page.aliases.map(summarizeAlias);
    const structured = { index, aliases, ...(page.total !== undefined && { total: page.total }), ...(page.next && { paginationToken: page.next }) };
    if (aliases.length === 0) return { structured, table: `Index ${JSON.stringify(index)} has no namespace aliases${prefix || target !== undefined ? " matching" : ""}.` };
    const table = markdownTable(["alias", "target", "updated"], aliases.map((a) => [a.alias, a.target, a.updatedAt]));
    const more = page.next ? `\n\nMore aliases: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    return { structured, table: `Namespace aliases of index ${JSON.stringify(index)}:\n\n${table}${more}` };
  },
});
