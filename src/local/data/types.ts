import type { VectorStore } from "../search/engine.js";
import type { DeclaredNamespaces } from "../storage/declared-namespaces.js";
import type { StoredEmbed } from "../storage/inventory.js";
import type { IndexSchemaRecord } from "../storage/index-schema.js";
import type { NamespaceAliases } from "../storage/namespace-aliases.js";
import type { ApiVersion } from "../api-version.js";
import type { Models } from "../models/available-models.js";

export interface DataPlaneIndex { name: string; space: string; dimension: number;
  metric: "cosine" | "euclidean" | "dotproduct"; vectorType: "dense" | "sparse"; embed?: StoredEmbed;
  /** The metadata fields filters may name (serverless schema, pod metadata_config.indexed); undefined: all. */
  filterable?: string[];
  /** How the index is deployed; the hosted service refuses some requests on one kind (routes/stats.ts, list.ts). */
  kind?: "serverless" | "pod"; id?: string;
  /** read_capacity mode Dedicated (dedicated read nodes): the query tuning fields scanFactor, maxCandidates apply. */
  dedicatedReads?: boolean;
  /** A document index's typed fields (API version 2026-07); read it with documentSchema() (document-schema.ts). */
  schema?: IndexSchemaRecord }
export interface DataPlaneRequest { method: string; pathname: string; query: URLSearchParams; body: Buffer;
  /** The API version the request speaks (X-Pinecone-Api-Version); 2026-04 when absent. */
  apiVersion?: ApiVersion }
export interface DataPlaneResponse { status: number; body: unknown }   // body: JSON-serialised by servers.ts

/** What some routes need besides the vector store: created namespaces, bulk imports. */
export interface DataPlaneExtras { namespaces?: DeclaredNamespaces; imports?: BulkImportsApi; aliases?: NamespaceAliases }
/** The bulk-import jobs (imports/bulk-imports.ts), as the routes use them. */
export interface BulkImportsApi {
  start(index: DataPlaneIndex, body: Record<string, unknown>): Promise<{ id: string }>;
  list(index: DataPlaneIndex, query: URLSearchParams): Record<string, unknown>;
  describe(index: DataPlaneIndex, id: string): Record<string, unknown>;
  cancel(index: DataPlaneIndex, id: string): Promise<Record<string, never>>;
}
export interface RouteContext { req: DataPlaneRequest; index: DataPlaneIndex; store: VectorStore; extras?: DataPlaneExtras; models?: Models }
export type Route = (ctx: RouteContext) => Promise<unknown> | unknown;
