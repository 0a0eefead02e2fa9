// An index record as the tools show it: flat, with only the fields the service gave (list_indexes, create_index, …).
import { z } from "zod";
import type { IndexModel } from "../../api/records.js";
import { namespaceName } from "../../common/namespace-name.js";

export const IndexSummary = z.object({
  name: z.string().describe("Index name; pass it as `index` to other tools."),
  kind: z.enum(["serverless", "pod", "other"]).describe("How the index is deployed."),
  dimension: z.number().int().optional().describe("Dense vector length; absent for a sparse index."),
  metric: z.string().describe("cosine, euclidean or dotproduct."),
  vectorType: z.string().optional().describe("dense or sparse."),
  state: z.string().describe("Ready, Initializing, ScalingUp, Terminating, …"),
  ready: z.boolean().describe("Whether the index accepts reads and writes."),
  host: z.string().describe("The index's own data-plane host."),
  cloud: z.string().optional().describe("Serverless: cloud provider."),
  region: z.string().optional().describe("Serverless: region."),
  environment: z.string().optional().describe("Pod-based: environment."),
  podType: z.string().optional().describe("Pod-based: pod type, e.g. p1.x1."),
  pods: z.number().int().optional().describe("Pod-based: number of pods."),
  replicas: z.number().int().optional().describe("Pod-based: replicas."),
  shards: z.number().int().optional().describe("Pod-based: shards."),
  deletionProtection: z.string().optional().describe("enabled or disabled."),
});
export type IndexSummary = z.infer<typeof IndexSummary>;

/** How the index is deployed, from which spec it has. */
export function indexKind(index: IndexModel): IndexSummary["kind"] {
  return index.spec.serverless ? "serverless" : index.spec.pod ? "pod" : "other";
}

export function summarizeIndex(index: IndexModel): IndexSummary {
  const { serverless, pod } = index.spec;
  const num = (n: unknown) => (typeof n === "number" && Number.isInteger(n) ? n : undefined);
  const summary: IndexSummary = {
    name: index.name,
    kind: indexKind(index),
    dimension: num(index.dimension),
    metric: index.metric,
    vectorType: index.vector_type,
    state: index.status.state,
    ready: index.status.ready,
    host: index.host,
    cloud: serverless?.cloud,
    region: serverless?.region,
    environment: pod?.environment,
    podType: pod?.pod_type,
    pods: num(pod?.pods),
    replicas: num(pod?.replicas),
    shards: num(pod?.shards),
    deletionProtection: index.deletion_protection,
  };
  // Drop absent optionals so structuredContent carries no undefined keys.
  return Object.fromEntries(Object.entries(summary).filter(([, v]) => v !== undefined)) as IndexSummary;
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
