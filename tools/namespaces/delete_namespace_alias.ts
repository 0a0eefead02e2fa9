// delete_namespace_alias — removes an alias; its namespace and records stay. Exists only with --allow-destructive;
// asks the person to confirm when the client supports elicitation.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { aliasArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { confirmDestruction } from "../../src/tool-kit/confirm.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { AliasSummary, summarizeAlias } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "deleted" } as const;

export default defineTool({
  name: "delete_namespace_alias",
  title: "Delete namespace alias",
  description: "Delete a namespace alias (its namespace and records stay); reads through it then fail. Use it only when the user asked.",
  inputSchema: { index: indexArg("Name of the index.", RULES), alias: aliasArg("The alias to delete.", RULES) },
  outputSchema: { index: z.string().describe("The index."), deleted: AliasSummary.describe("The alias as it was.") },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  requiresAllowDestructive: true,
  async run({ index, alias }, ctx) {
    const { service, signal, config } = ctx;
    requireSchemaApi("delete_namespace_alias", config.apiVersion, "deleted");
    const missing = (e: unknown) => refuseMissing(e, { resource: "namespace alias", name: alias, index }, "deleted");
    const was = await onIndexHost(service, index, signal, async (model) => {
      const found = await service.data.describeNamespaceAlias(model.host, alias, signal).catch(missing);
      await confirmDestruction(ctx, {
        action: `Delete alias ${JSON.stringify(alias)} of index ${JSON.stringify(index)}`,
        warning: "reads through it will fail; the namespace and its records stay",
        loses: `the alias ${JSON.stringify(alias)} of namespace ${JSON.stringify(found.target_namespace)}`,
        name: alias,
      });
      await service.data.deleteNamespaceAlias(model.host, alias, signal).catch(missing);
      return found;
    });
    const deleted = summarizeAlias(was);
    const table = markdownTable(["alias", "target"], [[deleted.alias, deleted.target]]);
    return { structured: { index, deleted }, table: `Alias ${JSON.stringify(alias)} deleted from index ${JSON.stringify(index)}; namespace ${JSON.stringify(deleted.target)} is unchanged.\n\n${table}` };
  },
});
