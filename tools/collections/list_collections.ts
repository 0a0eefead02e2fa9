// list_collections — every collection (a static copy of a pod-based index) with its status and size.
import { z } from "zod";
import { CollectionSummary, summarizeCollection } from "../../src/tool-kit/results/collection-summary.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "list_collections",
  title: "List collections",
  description:
    "List every collection in the project (static copies of pod-based indexes), with status and size.",
  inputSchema: {},
  outputSchema: {
    collections: z.array(CollectionSummary).describe("One entry per collection, in the service's order."),
  },
  annotations: READ_ONLY,
  async run(_args, { service, signal, tools }) {
    const collections = (await service.control.listCollections(signal)).map(summarizeCollection);
    if (collections.length === 0) {
      return {
        structured: { collections },
        table: `There are no collections in this project yet.${tools.has("create_collection") ? " create_collection makes one from a pod-based index." : ""}`,
      };
    }
    const table = markdownTable(
      ["name", "status", "environment", "dimension", "records", "size"],
      collections.map((c) => [c.name, c.status, c.environment, c.dimension, c.vectorCount, humanBytes(c.size)]),
    );
    const n = collections.length;
    return { structured: { collections }, table: `${n} ${n === 1 ? "collection" : "collections"}:\n\n${table}` };
  },
});
