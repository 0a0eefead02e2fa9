// describe_collection — one collection's record: status, environment, dimension, record count, size.
import { CollectionSummary, summarizeCollection } from "../../src/tool-kit/results/collection-summary.js";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { collectionArg } from "../../src/tool-kit/args/schema.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "describe_collection",
  title: "Describe collection",
  description:
    "Show one collection's record (a static copy of a pod-based index): status, dimension, records and size. Use it to " +
    "check whether a new collection is Ready, or what it holds.",
  inputSchema: {
    collection: collectionArg("Collection name."),
  },
  outputSchema: { collection: CollectionSummary.describe("The collection as the service describes it.") },
  annotations: READ_ONLY,
  async run({ collection: name }, { service, signal }) {
    const collection = summarizeCollection(await service.control.describeCollection(name, signal));
    const rows: [string, string | number | undefined][] = [
      ["name", collection.name],
      ["status", collection.status],
      ["environment", collection.environment],
      ["dimension", collection.dimension],
      ["records", collection.vectorCount],
      ["size", collection.size === undefined ? undefined : `${humanBytes(collection.size)} (${collection.size} bytes)`],
    ];
    const table = markdownTable(["field", "value"], rows.filter(([, v]) => v !== undefined));
    return { structured: { collection }, table: `Collection ${JSON.stringify(collection.name)}:\n\n${table}` };
  },
});
