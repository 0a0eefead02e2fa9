// describe_index_stats — how many records an index holds, per namespace; with a filter, how many match it.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export default defineTool({
  name: "describe_index_stats",
  title: "Describe index stats",
  description:
    "Count the records in an index, per namespace and in total, with its dimension and fullness; with a metadata filter " +
    "(pod-based indexes only), how many match in each namespace.",
  inputSchema: {
    index: indexArg("Index name."),
    filter: filterSchema("count only the records that match it").optional(),
  },
  outputSchema: {
    index: z.string().describe("The index counted."),
    dimension: z.number().int().optional().describe("Dense vector length; absent for a sparse index."),
    metric: z.string().optional().describe("cosine, euclidean or dotproduct."),
    vectorType: z.string().optional().describe("dense or sparse."),
    indexFullness: z.number().optional().describe("How full the index is, 0–1 (pod-based indexes; serverless ones report 0)."),
    totalVectorCount: z.number().int().describe("Records in the whole index, in every namespace."),
    filtered: z.boolean().describe("Whether the namespace counts are of the records matching the filter only."),
    matchingVectorCount: z.number().int().optional().describe("With a filter: the records that match it, in all namespaces."),
    namespaces: z
      .array(
        z.object({
          namespace: z.string().describe('Namespace name ("" is the default namespace).'),
          vectorCount: z.number().int().describe("Records in it (with a filter: matching records)."),
        }),
      )
      .describe("One entry per namespace, by name."),
  },
  annotations: READ_ONLY,
  async run({ index, filter }, { service, signal, config, tools }) {
    checkFilter(filter);
    const stats = await onIndexHost(service, index, signal, (model) => service.data.describeIndexStats(model.host, signal, filter), (model) => {
      if (filter !== undefined && !model.spec.pod) {
        throw new ToolError({
          problem: `Index ${JSON.stringify(index)} is serverless, and the service counts records by metadata filter only on pod-based indexes`,
          next:
            "call describe_index_stats without filter for the counts per namespace, or query_vectors with the filter " +
            "(and a topK as large as you need) to see the matching records.",
        });
      }
    });
    const namespaces = Object.entries(stats.namespaces ?? {})
      .map(([namespace, s]) => ({ namespace, vectorCount: s.vectorCount ?? 0 }))
      .sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0));
    const counted = namespaces.reduce((sum, n) => sum + n.vectorCount, 0);
    const total = stats.totalVectorCount ?? counted;
    const structured = {
      index,
      ...(typeof stats.dimension === "number" && { dimension: stats.dimension }),
      ...(stats.metric !== undefined && { metric: stats.metric }),
      ...(stats.vectorType !== undefined && { vectorType: stats.vectorType }),
      ...(typeof stats.indexFullness === "number" && { indexFullness: stats.indexFullness }),
      totalVectorCount: total,
      filtered: filter !== undefined,
      ...(filter !== undefined && { matchingVectorCount: counted }),
      namespaces,
    };

    const facts = [
      structured.dimension !== undefined ? `dimension ${structured.dimension}` : structured.vectorType === "sparse" ? "sparse" : undefined,
      structured.metric,
      structured.indexFullness !== undefined ? `fullness ${Math.round(structured.indexFullness * 1000) / 10}%` : undefined,
    ].filter(Boolean);
    const head =
      filter === undefined
        ? `Index ${JSON.stringify(index)} (${facts.join(", ")}): ${plural(total, "record", "records")} in ${plural(namespaces.length, "namespace", "namespaces")}.`
        : `Index ${JSON.stringify(index)} (${facts.join(", ")}): ${plural(counted, "record matches", "records match")} the filter, ` +
          `in ${plural(namespaces.length, "namespace", "namespaces")} (of ${plural(total, "record", "records")} in the index).`;
    if (namespaces.length === 0) {
      // Only tools that are on are named (under --read-only, none).
      const hint = filter === undefined ? ` The index is empty${emptyIndexStep(tools)}` : "";
      return { structured, table: `${head}${hint}` };
    }
    const table = markdownTable(
      ["namespace", filter === undefined ? "records" : "matching records"],
      [...namespaces.map((n) => [namespaceName(n.namespace), n.vectorCount]), ["(all namespaces)", counted]],
    );
    return { structured, table: `${head}\n\n${table}` };
  },
});

/** The tools that fill an empty index, text first, of those that are on. */
function emptyIndexStep(tools: ReadonlySet<string>): string {
  const ways = [
    tools.has("upsert_records") && "upsert_records writes text (an index that embeds)",
    tools.has("upsert_vectors") && "upsert_vectors writes your own vectors",
  ].filter(Boolean);
  return ways.length > 0 ? `; ${ways.join(", ")}.` : ".";
}
