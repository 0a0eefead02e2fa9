// The registry: every tool the server offers, in the order tools/list shows them.
import type { AnyTool } from "../src/tool.js";
import createCollection from "./create_collection.js";
import createIndex from "./create_index.js";
import deleteCollection from "./delete_collection.js";
import deleteIndex from "./delete_index.js";
import deleteVectors from "./delete_vectors.js";
import listCollections from "./list_collections.js";
import listIndexes from "./list_indexes.js";
import upsertVectors from "./upsert_vectors.js";
import importVectors from "./import_vectors.js";
import describeIndex from "./describe_index.js";
import describeIndexStats from "./describe_index_stats.js";
import queryVectors from "./query_vectors.js";
import fetchVectors from "./fetch_vectors.js";
import listVectorIds from "./list_vector_ids.js";
import describeCollection from "./describe_collection.js";

export const tools: readonly AnyTool[] = [
  listIndexes,
  listCollections,
  createIndex,
  createCollection,
  upsertVectors,
  importVectors,
  describeIndex,
  describeIndexStats,
  queryVectors,
  fetchVectors,
  listVectorIds,
  describeCollection,
  // Only with --allow-destructive (src/access.ts):
  deleteVectors,
  deleteIndex,
  deleteCollection,
];
