// The registry: every tool the server offers, in the order tools/list shows them, each by its name and the module that
// defines it. A module is loaded when its tool is first called: what tools/list and the safe modes need of a tool
// (its name, description, JSON Schemas, annotations) the bundle carries, written at build time from these same modules
// (src/mcp/tool-catalog.ts, scripts/tool-catalog.mjs).
import type { AnyTool } from "../src/tool-kit/tool.js";

/** Loads the module of one tool (its default export is the tool's definition). */
export type ToolModule = () => Promise<{ default: AnyTool }>;

export const toolModules: readonly (readonly [name: string, load: ToolModule])[] = [
  ["list_indexes", () => import("./indexes/list_indexes.js")],
  ["list_collections", () => import("./collections/list_collections.js")],
  ["create_index", () => import("./indexes/create_index.js")],
  ["create_collection", () => import("./collections/create_collection.js")],
  ["upsert_vectors", () => import("./vectors/upsert_vectors.js")],
  ["import_vectors", () => import("./vectors/import_vectors.js")],
  ["describe_index", () => import("./indexes/describe_index.js")],
  ["describe_index_stats", () => import("./indexes/describe_index_stats.js")],
  ["query_vectors", () => import("./vectors/query_vectors.js")],
  ["fetch_vectors", () => import("./vectors/fetch_vectors.js")],
  ["list_vector_ids", () => import("./vectors/list_vector_ids.js")],
  ["describe_collection", () => import("./collections/describe_collection.js")],
  // The text path (integrated embedding) and the models.
  ["create_index_for_model", () => import("./indexes/create_index_for_model.js")],
  ["upsert_records", () => import("./text/upsert_records.js")],
  ["search_records", () => import("./text/search_records.js")],
  ["search_indexes", () => import("./text/search_indexes.js")],
  ["index_documents", () => import("./text/index_documents.js")],
  ["embed_texts", () => import("./inference/embed_texts.js")],
  ["rerank_documents", () => import("./inference/rerank_documents.js")],
  ["list_models", () => import("./inference/list_models.js")],
  // Administration: configure, namespaces, update and fetch by metadata, backups, restore jobs, imports.
  ["configure_index", () => import("./indexes/configure_index.js")],
  ["list_namespaces", () => import("./namespaces/list_namespaces.js")],
  ["describe_namespace", () => import("./namespaces/describe_namespace.js")],
  ["create_namespace", () => import("./namespaces/create_namespace.js")],
  ["update_vectors", () => import("./vectors/update_vectors.js")],
  ["fetch_by_metadata", () => import("./vectors/fetch_by_metadata.js")],
  ["create_backup", () => import("./backups/create_backup.js")],
  ["list_backups", () => import("./backups/list_backups.js")],
  ["describe_backup", () => import("./backups/describe_backup.js")],
  ["create_index_from_backup", () => import("./backups/create_index_from_backup.js")],
  ["list_restore_jobs", () => import("./backups/list_restore_jobs.js")],
  ["describe_restore_job", () => import("./backups/describe_restore_job.js")],
  ["start_bulk_import", () => import("./imports/start_bulk_import.js")],
  ["list_bulk_imports", () => import("./imports/list_bulk_imports.js")],
  ["describe_bulk_import", () => import("./imports/describe_bulk_import.js")],
  ["cancel_bulk_import", () => import("./imports/cancel_bulk_import.js")],
  // Only with --allow-destructive (src/mcp/access.ts):
  ["delete_vectors", () => import("./vectors/delete_vectors.js")],
  ["delete_index", () => import("./indexes/delete_index.js")],
  ["delete_collection", () => import("./collections/delete_collection.js")],
  ["delete_namespace", () => import("./namespaces/delete_namespace.js")],
  ["delete_backup", () => import("./backups/delete_backup.js")],
];
