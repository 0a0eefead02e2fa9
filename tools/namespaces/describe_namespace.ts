// describe_namespace — one namespace: its record count and metadata schema.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { NamespaceSummary, summarizeNamespace } from "../../src/tool-kit/results/backups-imports-namespaces.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "describe_namespace",
  title: "Describe namespace",
  description: 'Show one namespace of an index: its record count and which metadata fields its schema makes filterable ("__default__" is the default namespace).',
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    namespace: textArg(0, 512, ruleError("namespaces are at most 512 characters", RULES)).describe('The namespace ("__default__" or "" for the default one).'),
  },
  outputSchema: { index: z.string().describe("The index."), namespace: NamespaceSummary.describe("The namespace.") },
  annotations: READ_ONLY,
  async run({ index, namespace: asked }, { service, signal }) {
    const namespace = namespaceName(asked); // the service's name of the default namespace
    const found = await onIndexHost(service, index, signal, (model) =>
      service.data.describeNamespace(model.host, namespace, signal).catch((e: unknown) => refuseMissing(e, { resource: "namespace", name: namespace, index })),
    );
    const ns = summarizeNamespace(found);
    const table = markdownTable(["name", "records", "filterable fields"], [[ns.name, ns.records, ns.filterableFields?.join(", ") ?? "all"]]);
    return { structured: { index, namespace: ns }, table: `Namespace of index ${JSON.stringify(index)}:\n\n${table}` };
  },
});
