// The registry: every tool the server offers, in the order tools/list shows them.
import type { AnyTool } from "../src/tool-kit/tool.js";
import createCollection from "./collections/create_collection.js";
import createIndex from "./indexes/create_index.js";
import deleteCollection from "./collections/delete_collection.js";
import deleteIndex from "./indexes/delete_index.js";
import deleteVectors from "./vectors/delete_vectors.js";
import listCollections from "./collections/list_collections.js";
import listIndexes from "./indexes/list_indexes.js";
import upsertVectors from "./vectors/upsert_vectors.js";
import importVectors from "./vectors/import_vectors.js";
import describeIndex from "./indexes/describe_index.js";
import describeIndexStats from "./indexes/describe_index_stats.js";
import queryVectors from "./vectors/query_vectors.js";
import fetchVectors from "./vectors/fetch_vectors.js";
import listVectorIds from "./vectors/list_vector_ids.js";
import describeCollection from "./collections/describe_collection.js";
import createIndexForModel from "./indexes/create_index_for_model.js";
import upsertRecords from "./text/upsert_records.js";
import searchRecords from "./text/search_records.js";
import searchIndexes from "./text/search_indexes.js";
import indexDocuments from "./text/index_documents.js";
import embedTexts from "./inference/embed_texts.js";
import rerankDocuments from "./inference/rerank_documents.js";
import listModels from "./inference/list_models.js";

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
  // The text path (integrated embedding) and the models.
  createIndexForModel,
  upsertRecords,
  searchRecords,
  searchIndexes,
  indexDocuments,
  embedTexts,
  rerankDocuments,
  listModels,
  // Only with --allow-destructive (src/mcp/access.ts):
  deleteVectors,
  deleteIndex,
  deleteCollection,
];
