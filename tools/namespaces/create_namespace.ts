// create_namespace — creates an empty namespace in a serverless index, optionally with a metadata schema.
import { z } from "zod";
import { ServiceError } from "../../src/api/errors.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { NamespaceSummary, summarizeNamespace } from "../../src/tool-kit/results/admin-summaries.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "created" } as const;

export default defineTool({
  name: "create_namespace",
  title: "Create namespace",
  description: "Create an empty namespace in a serverless index. With filterableFields, only those metadata fields are indexed for filtering.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    name: textArg(1, 512, ruleError("namespace names are 1–512 characters", RULES)).describe("Name of the new namespace."),
    filterableFields: z
      .array(textArg(1, 512, ruleError("metadata field names are 1–512 characters", RULES)))
      .min(1, ruleError("give at least one field, or leave filterableFields out", RULES))
      .max(1000, ruleError("at most 1000 fields", RULES))
      .optional()
      .describe("Metadata fields to make filterable (the schema); omitted: every field is."),
  },
  outputSchema: { index: z.string().describe("The index."), namespace: NamespaceSummary.describe("The namespace created.") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ index, name, filterableFields }, { service, signal }) {
    const schema = filterableFields ? { fields: Object.fromEntries(filterableFields.map((f) => [f, { filterable: true }])) } : undefined;
    const created = await onIndexHost(service, index, signal, (model) =>
      service.adminData.createNamespace(model.host, { name, ...(schema && { schema }) }, signal).catch((e: unknown) => {
        if (e instanceof ServiceError && e.status === 409) {
          throw new ToolError({
            problem: `Namespace ${JSON.stringify(name)} already exists in index ${JSON.stringify(index)}`,
            untouched: "created",
            next: "use it as it is (describe_namespace shows it), or choose another name.",
          });
        }
        throw e;
      }),
    );
    const ns = summarizeNamespace(created);
    const table = markdownTable(["name", "records", "filterable fields"], [[ns.name, ns.records ?? 0, ns.filterableFields?.join(", ") ?? "all"]]);
    return { structured: { index, namespace: ns }, table: `Namespace ${JSON.stringify(name)} created in index ${JSON.stringify(index)}:\n\n${table}` };
  },
});
