// describe_collection — one collection's record: status, environment, dimension, record count, size.
import { z } from "zod";
import { humanBytes } from "../src/format/size.js";
import { markdownTable } from "../src/format/table.js";
import { ruleError } from "../src/schema.js";
import { defineTool } from "../src/tool.js";

const CollectionRecord = z.object({
  name: z.string().describe("Collection name."),
  status: z.string().describe("Initializing, Ready or Terminating."),
  environment: z.string().describe("Environment the collection lives in."),
  dimension: z.number().int().optional().describe("Vector length of the records."),
  vector_count: z.number().int().optional().describe("Number of records."),
  size: z.number().optional().describe("Size in bytes."),
});

export default defineTool({
  name: "describe_collection",
  title: "Describe collection",
  description:
    "Show one collection's record (a collection is a static copy of a pod-based index): status, environment, dimension, " +
    "number of records and size. Use it to check whether a collection made with create_collection is Ready, or what it " +
    "holds. Returns a table (field · value) and the record as structuredContent.collection.",
  inputSchema: {
    name: z
      .string()
      .min(1, ruleError("collection names are 1–45 characters"))
      .max(45, ruleError("collection names are 1–45 characters"))
      .describe("Name of the collection (list_collections shows the names)."),
  },
  outputSchema: { collection: CollectionRecord.describe("The collection as the service describes it.") },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ name }, { service, signal }) {
    const c = await service.control.describeCollection(name, signal);
    const collection: z.infer<typeof CollectionRecord> = { name: c.name, status: c.status, environment: c.environment };
    if (typeof c.dimension === "number") collection.dimension = c.dimension;
    if (typeof c.vector_count === "number") collection.vector_count = c.vector_count;
    if (typeof c.size === "number") collection.size = c.size;
    const rows: [string, string | number | undefined][] = [
      ["name", collection.name],
      ["status", collection.status],
      ["environment", collection.environment],
      ["dimension", collection.dimension],
      ["vectors", collection.vector_count],
      ["size", collection.size === undefined ? undefined : `${humanBytes(collection.size)} (${collection.size} bytes)`],
    ];
    const table = markdownTable(["field", "value"], rows.filter(([, v]) => v !== undefined));
    return { structured: { collection }, table: `Collection ${JSON.stringify(collection.name)}:\n\n${table}` };
  },
});
