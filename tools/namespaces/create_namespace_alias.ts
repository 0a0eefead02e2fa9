// create_namespace_alias — a second name for a namespace, for reads (API 2026-07).
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { aliasArg, targetNamespaceArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { AliasSummary, summarizeAlias } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "created" } as const;

export default defineTool({
  name: "create_namespace_alias",
  title: "Create namespace alias",
  description: "Give a namespace a second name that reads follow (repoint it later to switch readers at once). Writes need the real name.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    alias: aliasArg("The alias; not a namespace name in use.", RULES),
    target: targetNamespaceArg('The namespace it points at ("__default__" or "" for the default one).', RULES),
  },
  outputSchema: { index: z.string().describe("The index."), alias: AliasSummary.describe("The alias made.") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ index, alias, target }, { service, signal, config }) {
    requireSchemaApi("create_namespace_alias", config.apiVersion, "created");
    const made = summarizeAlias(
      await onIndexHost(service, index, signal, (model) => service.data.createNamespaceAlias(model.host, { name: alias, target_namespace: namespaceName(target) }, signal)),
    );
    const table = markdownTable(["alias", "target"], [[made.alias, made.target]]);
    return { structured: { index, alias: made }, table: `Alias created in index ${JSON.stringify(index)}:\n\n${table}` };
  },
});
