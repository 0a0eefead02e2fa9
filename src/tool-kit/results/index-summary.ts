// An index record as the tools show it: flat, with only the fields the service gave (list_indexes, create_index, …).
import { z } from "zod";
import type { IndexModel } from "../../api/records.js";
import { namespaceName } from "../../common/namespace-name.js";

/** One typed field of an index described by its schema (2026-07), in the tools' names. */
const IndexField = z.object({
  name: z.string().describe("Field name."),
  type: z.string().describe("dense_vector, sparse_vector, semantic_text, string, string_list, float, integer, boolean, or metadata (filterable only)."),
  dimension: z.number().int().optional().describe("Vector length (dense_vector, dense semantic_text)."),
  metric: z.string().optional().describe("Vector metric (dense_vector, semantic_text)."),
  model: z.string().optional().describe("semantic_text: the embedding model."),
  fullTextSearch: z
    .object({ language: z.string().optional(), stemming: z.boolean().optional(), stopWords: z.boolean().optional() })
    .optional()
    .describe("string: searchable by words and phrases, with this analysis."),
  filterable: z.boolean().optional().describe("Usable in filters."),
});
type IndexField = z.infer<typeof IndexField>;

export const IndexSummary = z.object({
  name: z.string().describe("Index name; pass it as `index` to other tools."),
  kind: z.enum(["serverless", "pod", "byoc", "other"]).describe("How the index is deployed."),
  holds: z
    .enum(["vectors", "text", "documents"])
    .describe("What it holds: vectors (your own embeddings), text (integrated embedding: records tools) or documents (typed fields, full-text search)."),
  dimension: z.number().int().optional().describe("Dense vector length; absent for a sparse index."),
  metric: z.string().optional().describe("cosine, euclidean or dotproduct; absent with no vector field."),
  vectorType: z.string().optional().describe("dense or sparse."),
  state: z.string().describe("Ready, Initializing, ScalingUp, Terminating, …"),
  ready: z.boolean().describe("Whether the index accepts reads and writes."),
  host: z.string().describe("The index's own data-plane host."),
  cloud: z.string().optional().describe("Serverless: cloud provider."),
  region: z.string().optional().describe("Serverless: region."),
  environment: z.string().optional().describe("Pod-based and BYOC: environment."),
  podType: z.string().optional().describe("Pod-based: pod type, e.g. p1.x1."),
  pods: z.number().int().optional().describe("Pod-based: number of pods."),
  replicas: z.number().int().optional().describe("Pod-based: replicas."),
  shards: z.number().int().optional().describe("Pod-based: shards."),
  deletionProtection: z.string().optional().describe("enabled or disabled."),
  fields: z.array(IndexField).optional().describe("Its schema's fields (services speaking 2026-07)."),
  readCapacity: z
    .object({
      mode: z.string().describe("OnDemand or Dedicated."),
      state: z.string().optional().describe("Ready, Scaling, Migrating or Error."),
      nodeType: z.string().optional().describe("Dedicated: node type."),
      replicas: z.number().int().optional().describe("Dedicated: replicas."),
      shards: z.number().int().optional().describe("Dedicated: shards."),
    })
    .optional()
    .describe("Read capacity, when the service reports it."),
  cmekId: z.string().optional().describe("The customer-managed encryption key, when it has one."),
  sourceCollection: z.string().optional().describe("The collection it was made from."),
  sourceBackupId: z.string().optional().describe("The backup it was restored from."),
});
export type IndexSummary = z.infer<typeof IndexSummary>;

/** How the index is deployed, from which spec it has. */
export function indexKind(index: IndexModel): IndexSummary["kind"] {
  return index.spec.serverless ? "serverless" : index.spec.pod ? "pod" : (index.spec as Record<string, unknown>).byoc ? "byoc" : "other";
}

/**
 * What the index holds: text when a model embeds it (embed, or a semantic_text field), documents when its schema
 * has fields of its own (full-text strings, or vectors under names other than the reserved _values/_sparse_values),
 * else vectors.
 */
export function indexHolds(index: IndexModel): IndexSummary["holds"] {
  if (index.embed) return "text";
  const fields = Object.entries(index.schema?.fields ?? {});
  const own = fields.some(([name, f]) => f.full_text_search != null || ((f.type === "dense_vector" || f.type === "sparse_vector") && !name.startsWith("_")));
  return own ? "documents" : "vectors";
}

const int = (n: unknown) => (typeof n === "number" && Number.isInteger(n) ? n : undefined);

/** The schema's fields in the tools' names; undefined for an index described the 2026-04 way. */
function indexFields(index: IndexModel): IndexField[] | undefined {
  if (!index.schema) return undefined;
  return Object.entries(index.schema.fields).map(([name, f]) => {
    const fts = f.full_text_search ?? undefined;
    return dropUndefined({
      name,
      type: f.type ?? "metadata",
      dimension: int(f.dimension),
      metric: f.metric ?? undefined,
      model: f.model,
      fullTextSearch: fts && dropUndefined({ language: fts.language, stemming: fts.stemming, stopWords: fts.stop_words }),
      filterable: f.filterable,
    }) as IndexField;
  });
}

function readCapacity(index: IndexModel): IndexSummary["readCapacity"] {
  const rc = index.read_capacity ?? (index.spec.serverless?.read_capacity as IndexModel["read_capacity"]);
  if (!rc || typeof rc.mode !== "string") return undefined;
  return dropUndefined({
    mode: rc.mode,
    state: rc.status?.state,
    nodeType: rc.dedicated?.node_type,
    replicas: int(rc.dedicated?.manual?.replicas),
    shards: int(rc.dedicated?.manual?.shards),
  }) as IndexSummary["readCapacity"];
}

function byocEnvironment(index: IndexModel): string | undefined {
  const byoc = (index.spec as Record<string, unknown>).byoc as { environment?: unknown } | undefined;
  return typeof byoc?.environment === "string" ? byoc.environment : undefined;
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function summarizeIndex(index: IndexModel): IndexSummary {
  const { serverless, pod } = index.spec;
  const num = int;
  const summary: IndexSummary = {
    name: index.name,
    kind: indexKind(index),
    holds: indexHolds(index),
    dimension: num(index.dimension),
    metric: index.metric,
    vectorType: index.vector_type,
    state: index.status.state,
    ready: index.status.ready,
    host: index.host,
    cloud: serverless?.cloud,
    region: serverless?.region,
    environment: pod?.environment ?? byocEnvironment(index),
    podType: pod?.pod_type,
    pods: num(pod?.pods),
    replicas: num(pod?.replicas),
    shards: num(pod?.shards),
    deletionProtection: index.deletion_protection,
    fields: indexFields(index),
    readCapacity: readCapacity(index),
    cmekId: index.cmek_id ?? undefined,
    sourceCollection: index.source_collection ?? (typeof pod?.source_collection === "string" ? pod.source_collection : undefined),
    sourceBackupId: index.source_backup_id ?? undefined,
  };
  // Drop absent optionals so structuredContent carries no undefined keys.
  return dropUndefined(summary);
}

/** The service's object with its keys in camelCase (pod_type → podType), as every structured field is named. */
export function camelKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), v]));
}

/** The state as a table cell: "Ready", "Initializing", or "ScalingUp (ready)" when the state alone does not say. */
export function stateCell(s: { state: string; ready: boolean }): string {
  return (s.state === "Ready") === s.ready ? s.state : `${s.state} (${s.ready ? "ready" : "not ready"})`;
}

/** Where an index runs: "aws us-east-1" or "us-east1-gcp · p1.x1 · pods 1 / replicas 1 / shards 1". */
export function where(s: IndexSummary): string {
  if (s.kind === "serverless") return `${s.cloud ?? "?"} ${s.region ?? "?"}`;
  if (s.kind === "byoc") return `byoc ${s.environment ?? "?"}`;
  if (s.kind === "pod") {
    const counts = [`pods ${s.pods ?? "?"}`, `replicas ${s.replicas ?? "?"}`, `shards ${s.shards ?? "?"}`].join(" / ");
    return [s.environment, s.podType, counts].filter(Boolean).join(" · ");
  }
  return "";
}

/** How a result names where it looked: 'namespace "__default__" of index "docs"' or 'namespace "a" of index "docs"'. */
export function namespaceOfIndex(namespace: string, index: string): string {
  return `namespace ${JSON.stringify(namespaceName(namespace))} of index ${JSON.stringify(index)}`;
}
