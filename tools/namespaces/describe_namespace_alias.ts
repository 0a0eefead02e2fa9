// describe_namespace_alias — one alias and the namespace it points at (API 2026-07).
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { aliasArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { AliasSummary, summarizeAlias } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "describe_namespace_alias",
  title: "Describe namespace alias",
  description: "Show which namespace an alias points at, and when it was made and last repointed.",
  inputSchema: { index: indexArg("Name of the index.", RULES), alias: aliasArg("The alias.", RULES) },
  outputSchema: { index: z.string().describe("The index."), alias: AliasSummary.describe("The alias.") },
  annotations: READ_ONLY,
  async run({ index, alias }, { service, signal, config }) {
    requireSchemaApi("describe_namespace_alias", config.apiVersion, "read");
    const found = summarizeAlias(
      await onIndexHost(service, index, signal, (model) =>
        service.data.describeNamespaceAlias(model.host, alias, signal).catch((e: unknown) => refuseMissing(e, { resource: "namespace alias", name: alias, index })),
      ),
    );
    const table = markdownTable(["alias", "target", "created", "updated"], [[found.alias, found.target, found.createdAt, found.updatedAt]]);
    return { structured: { index, alias: found }, table: `Namespace alias of index ${JSON.stringify(index)}:\n\n${table}` };
  },
});
