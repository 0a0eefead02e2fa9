// list_indexes — every index of the project: kind, dimension, metric, state, host and where it runs.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { IndexSummary, stateCell, summarizeIndex, where } from "../../src/tool-kit/results/index-summary.js";
import { defineTool } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "list_indexes",
  title: "List indexes",
  description:
    "List every index in the project with its dimension, metric, state and where it runs. Use it first, to learn the " +
    "index names other tools take.",
  inputSchema: {},
  outputSchema: {
    indexes: z.array(IndexSummary).describe("One entry per index, in the service's order."),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run(_args, { service, signal, config, tools }) {
    const indexes = (await service.control.listIndexes(signal)).map(summarizeIndex);
    if (indexes.length === 0 && config.indexes) {
      const allowed = config.indexes.map((n) => JSON.stringify(n)).join(", ");
      return {
        structured: { indexes },
        table: `None of the indexes this server is limited to (${allowed}) exists yet; any other index is hidden by --indexes.`,
      };
    }
    if (indexes.length === 0) {
      return { structured: { indexes }, table: `There are no indexes in this project yet.${firstSteps(tools)}` };
    }
    const table = markdownTable(
      ["name", "kind", "dimension", "metric", "state", "host", "where"],
      indexes.map((s) => [
        s.name,
        s.holds === "documents" ? `${s.kind}, documents` : s.kind, // only the schema-described indexes of 2026-07 hold documents
        s.dimension ?? (s.vectorType === "sparse" ? "sparse" : ""),
        s.metric,
        stateCell(s),
        s.host,
        where(s),
      ]),
    );
    const n = indexes.length;
    return { structured: { indexes }, table: `${n} ${n === 1 ? "index" : "indexes"}:\n\n${table}` };
  },
});

/** What to do on an empty project, text first, naming only tools that are on. */
function firstSteps(tools: ReadonlySet<string>): string {
  const steps: string[] = [];
  if (tools.has("create_index_for_model") && tools.has("upsert_records")) {
    steps.push(
      'To remember and find text: create_index_for_model (e.g. model "local-bm25" on the local service, or "llama-text-embed-v2", ' +
        'fieldMap {"text": "text"}), then upsert_records' + (tools.has("search_records") ? " and search_records" : "") + ".",
    );
  }
  if (tools.has("create_index") && tools.has("upsert_vectors")) steps.push("To store your own embeddings: create_index, then upsert_vectors.");
  return steps.length > 0 ? ` ${steps.join(" ")}` : "";
}
