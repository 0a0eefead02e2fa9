// delete_namespace — deletes a namespace and every record in it. Exists only with --allow-destructive; asks the
// person to confirm when the client supports elicitation.
import { z } from "zod";
import { confirmDestruction, recordsIn } from "../../src/tool-kit/confirm.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "deleted" } as const;

export default defineTool({
  name: "delete_namespace",
  title: "Delete namespace",
  description: "Permanently delete a namespace of an index and every record in it. Use it only when the user asked to remove that namespace.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    namespace: textArg(0, 512, ruleError("namespaces are at most 512 characters", RULES)).describe('The namespace to delete ("__default__" or "" for the default one).'),
  },
  outputSchema: {
    index: z.string().describe("The index."),
    namespace: z.string().describe("The namespace deleted."),
    records: z.number().int().optional().describe("Records it held."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  requiresAllowDestructive: true,
  async run({ index, namespace: asked }, ctx) {
    const namespace = namespaceName(asked); // the service's name of the default namespace
    const { service, signal } = ctx;
    const records = await onIndexHost(service, index, signal, async (model) => {
      const ns = await service.data.describeNamespace(model.host, namespace, signal).catch((e: unknown) => refuseMissing(e, { resource: "namespace", name: namespace, index }));
      const count = ns.record_count ?? undefined;
      await confirmDestruction(ctx, {
        action: `Delete namespace ${JSON.stringify(namespace)} of index ${JSON.stringify(index)}`,
        loses: `namespace ${JSON.stringify(namespace)}: ${recordsIn(count, undefined)}`,
        name: namespace,
      });
      await service.data.deleteNamespace(model.host, namespace, signal).catch((e: unknown) => refuseMissing(e, { resource: "namespace", name: namespace, index }));
      return count;
    });
    const table = markdownTable(["index", "namespace", "records"], [[index, namespace, records]]);
    return {
      structured: { index, namespace, ...(records !== undefined && { records }) },
      table: `Namespace ${JSON.stringify(namespace)} deleted from index ${JSON.stringify(index)}, with every record in it.\n\n${table}`,
    };
  },
});
