// delete_collection — removes a collection (a static copy of a pod-based index). Exists only with --allow-destructive.
import { z } from "zod";
import { collectionCountFields, collectionCounts } from "../../src/tool-kit/results/collection-summary.js";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { collectionArg } from "../../src/tool-kit/args/schema.js";
import { defineTool } from "../../src/tool-kit/tool.js";
import { confirmDestruction, recordsIn } from "../../src/tool-kit/confirm.js";

const Removed = z.object({
  name: z.string().describe("Collection name."),
  environment: z.string().describe("Environment it lived in."),
  ...collectionCountFields({ dimension: "Vector length of its records.", vectorCount: "Records it held." }),
});

export default defineTool({
  name: "delete_collection",
  title: "Delete collection",
  description:
    "Permanently delete a collection (a static copy of a pod-based index) and its records; indexes are not touched. " +
    "Use it only when the user asked.",
  inputSchema: {
    collection: collectionArg("Collection to delete."),
  },
  outputSchema: {
    deleted: Removed.describe("The collection as it was just before it was deleted."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  requiresAllowDestructive: true,
  unscopedWrite: true,
  async run({ collection: name }, ctx) {
    const { service, signal } = ctx;
    const c = await service.control.describeCollection(name, signal);
    await confirmDestruction(ctx, {
      action: `Delete collection ${JSON.stringify(name)}`,
      loses: `collection ${JSON.stringify(name)}: ${recordsIn(c.vector_count ?? undefined, undefined)}`,
      name,
    });
    await service.control.deleteCollection(name, signal);
    const deleted: z.infer<typeof Removed> = { name: c.name, environment: c.environment, ...collectionCounts(c) };
    const table = markdownTable(
      ["name", "environment", "dimension", "records", "size"],
      [[deleted.name, deleted.environment, deleted.dimension, deleted.vectorCount, humanBytes(deleted.size)]],
    );
    return { structured: { deleted }, table: `Collection ${JSON.stringify(name)} deleted, with every record in it:\n\n${table}` };
  },
});
