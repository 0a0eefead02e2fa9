// repoint_namespace_alias — points an alias at another namespace: every read through it then sees that one. Asks the
// person to confirm when the client supports elicitation.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { aliasArg, targetNamespaceArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { confirmDestruction } from "../../src/tool-kit/confirm.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { AliasSummary, summarizeAlias } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "changed" } as const;

export default defineTool({
  name: "repoint_namespace_alias",
  title: "Repoint namespace alias",
  description: "Point an alias at another namespace: every read through it switches at once. Use it only when the user asked.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    alias: aliasArg("The alias.", RULES),
    target: targetNamespaceArg('The namespace it will point at ("__default__" or "" for the default one).', RULES),
  },
  outputSchema: {
    index: z.string().describe("The index."),
    before: z.string().describe("The namespace it pointed at."),
    alias: AliasSummary.describe("The alias now."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, alias, target: asked }, ctx) {
    const { service, signal, config } = ctx;
    requireSchemaApi("repoint_namespace_alias", config.apiVersion, "changed");
    const target = namespaceName(asked);
    const missing = (e: unknown) => refuseMissing(e, { resource: "namespace alias", name: alias, index }, "changed");
    const { before, now } = await onIndexHost(service, index, signal, async (model) => {
      const was = await service.data.describeNamespaceAlias(model.host, alias, signal).catch(missing);
      if (was.target_namespace === target) return { before: was.target_namespace, now: was };
      await confirmDestruction(ctx, {
        action: `Repoint alias ${JSON.stringify(alias)} of index ${JSON.stringify(index)} from namespace ${JSON.stringify(was.target_namespace)} to ${JSON.stringify(target)}`,
        warning: `every read through it will see namespace ${JSON.stringify(target)} instead`,
        loses: `reads through ${JSON.stringify(alias)} seeing namespace ${JSON.stringify(was.target_namespace)}`,
        name: alias,
        untouched: "changed",
      });
      return { before: was.target_namespace, now: await service.data.repointNamespaceAlias(model.host, alias, target, signal).catch(missing) };
    });
    const summary = summarizeAlias(now);
    const table = markdownTable(["alias", "before", "after"], [[alias, before, summary.target]]);
    const head = before === summary.target && before === target
      ? `Alias ${JSON.stringify(alias)} of index ${JSON.stringify(index)} already points at ${JSON.stringify(target)}; nothing was changed.`
      : `Alias ${JSON.stringify(alias)} of index ${JSON.stringify(index)} repointed: reads through it now see namespace ${JSON.stringify(summary.target)}.`;
    return { structured: { index, before, alias: summary }, table: `${head}\n\n${table}` };
  },
});
