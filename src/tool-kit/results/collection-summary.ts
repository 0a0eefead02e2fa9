// A collection record as the tools show it: flat, with only the counts the service gave (list_collections,
// describe_collection, create_collection, delete_collection).
import { z } from "zod";
import type { CollectionModel } from "../../api/records.js";

/** The schema of a record's counts; `about` words a field the way one tool means it ("Records it held."). */
export function collectionCountFields(about: { dimension?: string; vectorCount?: string; size?: string } = {}) {
  return {
    dimension: z.number().int().optional().describe(about.dimension ?? "Vector length of the records."),
    vectorCount: z.number().int().optional().describe(about.vectorCount ?? "Number of records."),
    size: z.number().optional().describe(about.size ?? "Size in bytes."),
  };
}

export const CollectionSummary = z.object({
  name: z.string().describe("Collection name."),
  status: z.string().describe("Initializing, Ready or Terminating."),
  environment: z.string().describe("Environment the collection lives in."),
  ...collectionCountFields(),
});
export type CollectionSummary = z.infer<typeof CollectionSummary>;

type Counts = Pick<CollectionSummary, "dimension" | "vectorCount" | "size">;

/** The counts the service gave; absent ones are left out, so structuredContent carries no undefined keys. */
export function collectionCounts(c: CollectionModel): Counts {
  const counts: Counts = {};
  if (typeof c.dimension === "number") counts.dimension = c.dimension;
  if (typeof c.vector_count === "number") counts.vectorCount = c.vector_count;
  if (typeof c.size === "number") counts.size = c.size;
  return counts;
}

export function summarizeCollection(c: CollectionModel): CollectionSummary {
  return { name: c.name, status: c.status, environment: c.environment, ...collectionCounts(c) };
}
