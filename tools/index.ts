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
import configureIndex from "./indexes/configure_index.js";
import listNamespaces from "./namespaces/list_namespaces.js";
import describeNamespace from "./namespaces/describe_namespace.js";
import createNamespace from "./namespaces/create_namespace.js";
import deleteNamespace from "./namespaces/delete_namespace.js";
import updateVectors from "./vectors/update_vectors.js";
import fetchByMetadata from "./vectors/fetch_by_metadata.js";
import createBackup from "./backups/create_backup.js";
import listBackups from "./backups/list_backups.js";
import describeBackup from "./backups/describe_backup.js";
import createIndexFromBackup from "./backups/create_index_from_backup.js";
import listRestoreJobs from "./backups/list_restore_jobs.js";
import describeRestoreJob from "./backups/describe_restore_job.js";
import deleteBackup from "./backups/delete_backup.js";
import startBulkImport from "./imports/start_bulk_import.js";
import listBulkImports from "./imports/list_bulk_imports.js";
import describeBulkImport from "./imports/describe_bulk_import.js";
import cancelBulkImport from "./imports/cancel_bulk_import.js";

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
  // Administration (issue 14)
  configureIndex,
  listNamespaces,
  describeNamespace,
  createNamespace,
  updateVectors,
  fetchByMetadata,
  createBackup,
  listBackups,
  describeBackup,
  createIndexFromBackup,
  listRestoreJobs,
  describeRestoreJob,
  startBulkImport,
  listBulkImports,
  describeBulkImport,
  cancelBulkImport,
  // Only with --allow-destructive (src/mcp/access.ts):
  deleteVectors,
  deleteIndex,
  deleteCollection,
  deleteNamespace,
  deleteBackup,
];
