// create_collection — a static copy of a pod-based index. The name is checked before any call, and a serverless
// source is answered with the pod-based indexes there are, without calling create.
import { z } from "zod";
import { collectionCountFields, collectionCounts } from "../../src/tool-kit/results/collection-summary.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { newNameSchema } from "../../src/tool-kit/args/names.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const nameSchema = newNameSchema(
  "Collection",
  'Name of the new collection: 1–45 characters, lower-case letters, digits and "-", starting and ending with a letter or digit.',
);

const CollectionRecord = z.object({
  name: z.string().describe("Collection name."),
  status: z.string().describe("Initializing at first; Ready when the copy is complete."),
  environment: z.string().describe("Environment of the collection."),
  source: z.string().describe("The index it was copied from."),
  ...collectionCountFields({ dimension: "Vector length.", vectorCount: "Number of records, once known.", size: "Size in bytes, once known." }),
});

export default defineTool({
  name: "create_collection",
  title: "Create collection",
  description:
    "Make a collection: a static copy of a pod-based index's records, to create indexes from later (serverless " +
    "indexes cannot be copied). It becomes Ready after a while.",
  inputSchema: {
    name: nameSchema,
    index: indexArg("Pod-based index to copy.", { untouched: "created" }),
  },
  outputSchema: { collection: CollectionRecord.describe("The collection as the service created it.") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ name, index: source }, { service, signal }) {
    const model = await service.control.describeIndex(source, signal);
    if (!model.spec.pod) {
      const pods = (await service.control.listIndexes(signal)).filter((i) => i.spec.pod);
      const list = pods.length
        ? `The pod-based indexes there are:\n\n${markdownTable(
            ["name", "environment", "pod type", "dimension"],
            pods.map((i) => [i.name, i.spec.pod?.environment, i.spec.pod?.pod_type, i.dimension]),
          )}`
        : "There are no pod-based indexes in this project.";
      throw new ToolError({ problem: `Index ${JSON.stringify(source)} is serverless, and collections are made only from pod-based indexes.\n${list}`, untouched: "created" });
    }
    const created = await service.control.createCollection({ name, source }, signal);
    const collection: z.infer<typeof CollectionRecord> = {
      name: created.name,
      status: created.status,
      environment: created.environment,
      source,
      ...collectionCounts(created),
    };
    const table = markdownTable(
      ["name", "status", "environment", "source", "dimension", "records", "size"],
      [[collection.name, collection.status, collection.environment, source, collection.dimension, collection.vectorCount, humanBytes(collection.size)]],
    );
    return {
      structured: { collection },
      table: `Collection created:\n\n${table}\n\nIt is ${collection.status} now and becomes Ready when the copy is complete; list_collections shows its status.`,
    };
  },
});
