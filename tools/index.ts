// The registry: every tool the server offers, in the order tools/list shows them, each by its name, its toolset and
// the module that defines it; and the toolsets, each with the sentence the instructions carry when it is on. A module
// is loaded when its tool is first called: what tools/list and the safe modes need of a tool (its name, description,
// JSON Schemas, annotations) the bundle carries, written at build time from these same modules
// (src/mcp/tool-catalog.ts, scripts/tool-catalog.mjs). Which tools a session offers: src/mcp/tool-selection.ts.
import type { AnyTool } from "../src/tool-kit/tool.js";

/** Loads the module of one tool (its default export is the tool's definition). */
export type ToolModule = () => Promise<{ default: AnyTool }>;

/** The toolsets, named by what their tools act on, in the order the instructions name them (workflow first). */
export const TOOLSET_NAMES = ["text", "documents", "vectors", "indexes", "collections", "namespaces", "inference", "backups", "imports", "transfer"] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

/** The lean default: the tools marked inDefault below. */
export const DEFAULT_TOOLSET = "default";

/** The instructions' words for a toolset; `has` says which tools are on (a sentence names only those). */
interface Toolset {
  name: ToolsetName;
  /** What it is for, one line (docs, and the instructions' list of toolsets that are off). */
  purpose: string;
  /** The sentence of the instructions when some of its tools are on. */
  sentence(has: (tool: string) => boolean): string;
}

const named = (has: (tool: string) => boolean, names: readonly string[]) => names.filter(has).join(", ");

export const toolsets: readonly Toolset[] = [
  {
    name: "text",
    purpose: "remember and find text: indexes that embed text themselves",
    sentence: (has) =>
      "To remember and find text: " +
      [
        has("create_index_for_model") && "create_index_for_model makes an index that embeds text (local-bm25 needs no account)",
        has("upsert_records") && "upsert_records writes records",
        has("search_records") && "search_records finds them by meaning",
        has("index_documents") && "index_documents makes a folder searchable",
        has("search_indexes") && "search_indexes searches several",
      ].filter(Boolean).join("; ") + ".",
  },
  {
    name: "documents",
    purpose: "full-text search: exact words and phrases",
    sentence: (has) =>
      `Exact words or phrases: ${named(has, ["create_documents_index", "search_documents"])}.`,
  },
  {
    name: "vectors",
    purpose: "store and query your own embeddings",
    sentence: (has) => `To store your own embeddings (not for text): ${named(has, ["upsert_vectors", "import_vectors", "query_vectors", "fetch_vectors", "list_vector_ids", "fetch_by_metadata", "update_vectors", "delete_vectors"])}.`,
  },
  {
    name: "indexes",
    purpose: "create, inspect and configure indexes",
    sentence: (has) => `Indexes: ${named(has, ["list_indexes", "describe_index", "describe_index_stats", "create_index", "configure_index", "evaluate_retrieval", "delete_index"])}.`,
  },
  {
    name: "collections",
    purpose: "static copies of pod-based indexes",
    sentence: (has) => `Collections: ${named(has, ["list_collections", "describe_collection", "create_collection", "delete_collection"])}.`,
  },
  {
    name: "namespaces",
    purpose: "the namespaces of an index and their aliases",
    // The alias tools are left out of the sentence (tools/list names them): with every tool on, the instructions
    // stay within their 300 tokens.
    sentence: (has) => `Namespaces: ${named(has, ["list_namespaces", "describe_namespace", "create_namespace", "delete_namespace"])}.`,
  },
  {
    name: "inference",
    purpose: "embed and rerank with the service's models",
    sentence: (has) => `Models: ${named(has, ["list_models", "embed_texts", "rerank_documents"])}.`,
  },
  {
    name: "backups",
    purpose: "backups of serverless indexes, their schedules, and restoring them",
    // The describe_ and schedule tools are left out of the sentence (tools/list names them), as the alias tools are.
    sentence: (has) => `Backups: ${named(has, ["list_backups", "create_backup", "create_index_from_backup", "list_restore_jobs", "delete_backup"])}.`,
  },
  {
    name: "imports",
    purpose: "bulk imports from object storage",
    sentence: (has) => `Bulk imports: ${named(has, ["start_bulk_import", "list_bulk_imports", "describe_bulk_import", "cancel_bulk_import"])}.`,
  },
  {
    name: "transfer",
    purpose: "copy an index between services, or export it to files",
    sentence: (has) => `Transfer: ${named(has, ["copy_index", "export_index"])}.`,
  },
];

/** One tool of the registry. */
export interface ToolEntry {
  name: string;
  toolset: ToolsetName;
  /** One line for lists (the README, the bundle's manifest); the model reads the tool's own description. */
  summary: string;
  /** In the lean default set (--toolsets unset, or "default"). */
  inDefault: boolean;
  load: ToolModule;
}

const tool = (name: string, toolset: ToolsetName, load: ToolModule, summary: string, opts: { inDefault?: boolean } = {}): ToolEntry => ({
  name,
  toolset,
  summary,
  inDefault: opts.inDefault === true,
  load,
});

export const toolModules: readonly ToolEntry[] = [
  tool("list_indexes", "indexes", () => import("./indexes/list_indexes.js"), "List every index with its kind, dimension, metric, state and host.", { inDefault: true }),
  tool("list_collections", "collections", () => import("./collections/list_collections.js"), "List collections with their status, dimension, vector count and size.", { inDefault: true }),
  tool("create_index", "indexes", () => import("./indexes/create_index.js"), "Create a dense index, serverless or pod-based, and wait until it is ready."),
  tool("create_collection", "collections", () => import("./collections/create_collection.js"), "Make a collection (a static copy) from a pod-based index.", { inDefault: true }),
  tool("upsert_vectors", "vectors", () => import("./vectors/upsert_vectors.js"), "Insert or overwrite vectors (dense and/or sparse, with metadata) in an index.", { inDefault: true }),
  tool("import_vectors", "vectors", () => import("./vectors/import_vectors.js"), "Stream a JSONL or Parquet file of records from the allowed folder into an index."),
  tool("describe_index", "indexes", () => import("./indexes/describe_index.js"), "Show one index's full record: dimension, metric, host, spec and status.", { inDefault: true }),
  tool("describe_index_stats", "indexes", () => import("./indexes/describe_index_stats.js"), "Count an index's records per namespace, optionally only those matching a metadata filter."),
  tool("query_vectors", "vectors", () => import("./vectors/query_vectors.js"), "Find the records nearest to a dense or sparse vector or a stored record, optionally filtered."),
  tool("fetch_vectors", "vectors", () => import("./vectors/fetch_vectors.js"), "Read records by id, listing the ids that were not found."),
  tool("list_vector_ids", "vectors", () => import("./vectors/list_vector_ids.js"), "Page through the record ids of a namespace, optionally by prefix."),
  tool("describe_collection", "collections", () => import("./collections/describe_collection.js"), "Show one collection's record: status, environment, dimension, size."),
  // The text path (integrated embedding) and the models.
  tool("create_index_for_model", "text", () => import("./indexes/create_index_for_model.js"), "Create an index with integrated embedding: its model embeds the records' text.", { inDefault: true }),
  tool("upsert_records", "text", () => import("./text/upsert_records.js"), "Store text records in an index with integrated embedding.", { inDefault: true }),
  tool("search_records", "text", () => import("./text/search_records.js"), "Find records by text, id or vector, optionally filtered and reranked.", { inDefault: true }),
  tool("search_indexes", "text", () => import("./text/search_indexes.js"), "Search a text in several indexes; merged, de-duplicated and reranked."),
  tool("index_documents", "text", () => import("./text/index_documents.js"), "Make a folder of Markdown, text and HTML files searchable, kept in step as the files change.", { inDefault: true }),
  // Documents with full-text search (API 2026-07).
  tool("create_documents_index", "documents", () => import("./documents/create_documents_index.js"), "Create a documents index: full-text fields for exact words and phrases, optionally by meaning."),
  tool("upsert_documents", "documents", () => import("./documents/upsert_documents.js"), "Write documents (id, text fields, metadata) to a documents index."),
  tool("search_documents", "documents", () => import("./documents/search_documents.js"), "Search a documents index by words, exact phrase, query string, meaning or vector, with filters."),
  tool("fetch_documents", "documents", () => import("./documents/fetch_documents.js"), "Read documents by id or by metadata filter."),
  tool("list_documents", "documents", () => import("./documents/list_documents.js"), "Page through the document ids of a namespace, optionally by prefix."),
  tool("update_documents", "documents", () => import("./documents/update_documents.js"), "Set or remove fields of one document or of every document matching a filter."),
  tool("embed_texts", "inference", () => import("./inference/embed_texts.js"), "Turn texts into dense or sparse vectors with an embedding model."),
  tool("rerank_documents", "inference", () => import("./inference/rerank_documents.js"), "Order documents by relevance to a query with a reranking model."),
  tool("list_models", "inference", () => import("./inference/list_models.js"), "List the embedding and reranking models available."),
  // Administration.
  tool("configure_index", "indexes", () => import("./indexes/configure_index.js"), "Change deletion protection, tags, pods, read capacity or embedding settings; shows before and after."),
  tool("list_namespaces", "namespaces", () => import("./namespaces/list_namespaces.js"), "List the namespaces of an index with their record counts."),
  tool("describe_namespace", "namespaces", () => import("./namespaces/describe_namespace.js"), "Show one namespace: its record count and filterable metadata fields."),
  tool("create_namespace", "namespaces", () => import("./namespaces/create_namespace.js"), "Create an empty namespace in a serverless index, optionally with filterable fields."),
  tool("update_vectors", "vectors", () => import("./vectors/update_vectors.js"), "Change one record by id, or set metadata on every record matching a filter (dry run counts)."),
  tool("fetch_by_metadata", "vectors", () => import("./vectors/fetch_by_metadata.js"), "Read the records whose metadata matches a filter, a page at a time."),
  tool("create_backup", "backups", () => import("./backups/create_backup.js"), "Back up a serverless index."),
  tool("list_backups", "backups", () => import("./backups/list_backups.js"), "List backups of one index or of all of them."),
  tool("describe_backup", "backups", () => import("./backups/describe_backup.js"), "Show one backup: index, status, records, size."),
  tool("create_index_from_backup", "backups", () => import("./backups/create_index_from_backup.js"), "Restore a backup into a new index, following the restore job with progress."),
  tool("list_restore_jobs", "backups", () => import("./backups/list_restore_jobs.js"), "List restore jobs with status and progress."),
  tool("describe_restore_job", "backups", () => import("./backups/describe_restore_job.js"), "Show one restore job's status and percent complete."),
  tool("create_backup_schedule", "backups", () => import("./backups/create_backup_schedule.js"), "Back up an index automatically, daily, weekly or monthly (API 2026-07)."),
  tool("list_backup_schedules", "backups", () => import("./backups/list_backup_schedules.js"), "List an index's backup schedules (API 2026-07)."),
  tool("describe_backup_schedule", "backups", () => import("./backups/describe_backup_schedule.js"), "Show one backup schedule (API 2026-07)."),
  tool("update_backup_schedule", "backups", () => import("./backups/update_backup_schedule.js"), "Change a backup schedule's frequency or retention, or turn it off or on (API 2026-07)."),
  tool("list_scheduled_backups", "backups", () => import("./backups/list_scheduled_backups.js"), "List the backups a schedule made (API 2026-07)."),
  tool("create_namespace_alias", "namespaces", () => import("./namespaces/create_namespace_alias.js"), "Give a namespace a second name that reads follow (API 2026-07)."),
  tool("list_namespace_aliases", "namespaces", () => import("./namespaces/list_namespace_aliases.js"), "List an index's namespace aliases and their targets (API 2026-07)."),
  tool("describe_namespace_alias", "namespaces", () => import("./namespaces/describe_namespace_alias.js"), "Show which namespace an alias points at (API 2026-07)."),
  tool("repoint_namespace_alias", "namespaces", () => import("./namespaces/repoint_namespace_alias.js"), "Point an alias at another namespace; reads follow at once (API 2026-07)."),
  tool("start_bulk_import", "imports", () => import("./imports/start_bulk_import.js"), "Start a background import of Parquet files (one directory per namespace) into an index."),
  tool("list_bulk_imports", "imports", () => import("./imports/list_bulk_imports.js"), "List the bulk imports of an index with status and progress."),
  tool("describe_bulk_import", "imports", () => import("./imports/describe_bulk_import.js"), "Show one bulk import: status, percent, records imported, error."),
  tool("cancel_bulk_import", "imports", () => import("./imports/cancel_bulk_import.js"), "Cancel a pending or running bulk import; imported records stay."),
  tool("evaluate_retrieval", "indexes", () => import("./indexes/evaluate_retrieval.js"), "Measure recall@k, MRR and nDCG@k of labelled queries on an index, or two settings side by side."),
  tool("copy_index", "transfer", () => import("./transfer/copy_index.js"), "Copy an index to another service or index, resumable, re-embedding text for another model."),
  tool("export_index", "transfer", () => import("./transfer/export_index.js"), "Write an index's records to files in an allowed folder: Parquet (bulk-import layout) or JSONL."),
  // Only with --allow-destructive (src/mcp/access.ts):
  tool("delete_vectors", "vectors", () => import("./vectors/delete_vectors.js"), "Permanently delete records of one namespace: by ids, by metadata filter, or all."),
  tool("delete_index", "indexes", () => import("./indexes/delete_index.js"), "Permanently delete an index and all its records."),
  tool("delete_collection", "collections", () => import("./collections/delete_collection.js"), "Permanently delete a collection and its records."),
  tool("delete_namespace", "namespaces", () => import("./namespaces/delete_namespace.js"), "Permanently delete a namespace of an index and every record in it."),
  tool("delete_backup", "backups", () => import("./backups/delete_backup.js"), "Permanently delete a backup."),
  tool("delete_backup_schedule", "backups", () => import("./backups/delete_backup_schedule.js"), "Permanently delete a backup schedule (API 2026-07)."),
  tool("delete_namespace_alias", "namespaces", () => import("./namespaces/delete_namespace_alias.js"), "Delete a namespace alias; the namespace stays (API 2026-07)."),
  tool("delete_documents", "documents", () => import("./documents/delete_documents.js"), "Permanently delete documents of a namespace: by ids, by filter, or all."),
];
