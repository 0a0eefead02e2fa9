// list_indexes — every index of the project: kind, dimension, metric, state, host and where it runs.
import { z } from "zod";
import type { IndexModel } from "../src/api/records.js";
import { markdownTable } from "../src/format/table.js";
import { defineTool } from "../src/tool.js";

const IndexSummary = z.object({
  name: z.string().describe("Index name; pass it as `index` to other tools."),
  kind: z.enum(["serverless", "pod", "other"]).describe("How the index is deployed."),
  dimension: z.number().int().optional().describe("Dense vector length; absent for a sparse index."),
  metric: z.string().describe("cosine, euclidean or dotproduct."),
  vector_type: z.string().optional().describe("dense or sparse."),
  state: z.string().describe("Ready, Initializing, ScalingUp, Terminating, …"),
  ready: z.boolean().describe("Whether the index accepts reads and writes."),
  host: z.string().describe("The index's own data-plane host."),
  cloud: z.string().optional().describe("Serverless: cloud provider."),
  region: z.string().optional().describe("Serverless: region."),
  environment: z.string().optional().describe("Pod-based: environment."),
  pod_type: z.string().optional().describe("Pod-based: pod type, e.g. p1.x1."),
  pods: z.number().int().optional().describe("Pod-based: number of pods."),
  replicas: z.number().int().optional().describe("Pod-based: replicas."),
  shards: z.number().int().optional().describe("Pod-based: shards."),
  deletion_protection: z.string().optional().describe("enabled or disabled."),
});
export type IndexSummary = z.infer<typeof IndexSummary>;

export function summarizeIndex(index: IndexModel): IndexSummary {
  const { serverless, pod } = index.spec;
  const num = (n: unknown) => (typeof n === "number" && Number.isInteger(n) ? n : undefined);
  const summary: IndexSummary = {
    name: index.name,
    kind: serverless ? "serverless" : pod ? "pod" : "other",
    dimension: num(index.dimension),
    metric: index.metric,
    vector_type: index.vector_type,
    state: index.status.state,
    ready: index.status.ready,
    host: index.host,
    cloud: serverless?.cloud,
    region: serverless?.region,
    environment: pod?.environment,
    pod_type: pod?.pod_type,
    pods: num(pod?.pods),
    replicas: num(pod?.replicas),
    shards: num(pod?.shards),
    deletion_protection: index.deletion_protection,
  };
  // Drop absent optionals so structuredContent carries no undefined keys.
  return Object.fromEntries(Object.entries(summary).filter(([, v]) => v !== undefined)) as IndexSummary;
}

function where(s: IndexSummary): string {
  if (s.kind === "serverless") return `${s.cloud ?? "?"} ${s.region ?? "?"}`;
  if (s.kind === "pod") {
    const counts = [`pods ${s.pods ?? "?"}`, `replicas ${s.replicas ?? "?"}`, `shards ${s.shards ?? "?"}`].join(" / ");
    return [s.environment, s.pod_type, counts].filter(Boolean).join(" · ");
  }
  return "";
}

export default defineTool({
  name: "list_indexes",
  title: "List indexes",
  description:
    "List every index in the project. Use it first, to learn which index names exist before calling upsert_vectors or " +
    "create_collection, and to check an index's dimension, metric, state and host. Returns a table " +
    "(name · kind · dimension · metric · state · host · where) and the same facts as structuredContent.indexes.",
  inputSchema: {},
  outputSchema: {
    indexes: z.array(IndexSummary).describe("One entry per index, in the service's order."),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run(_args, { service, signal }) {
    const indexes = (await service.control.listIndexes(signal)).map(summarizeIndex);
    if (indexes.length === 0) {
      return { structured: { indexes }, table: "There are no indexes in this project yet. Create an index before upserting vectors." };
    }
    const table = markdownTable(
      ["name", "kind", "dimension", "metric", "state", "host", "where"],
      indexes.map((s) => [
        s.name,
        s.kind,
        s.dimension ?? (s.vector_type === "sparse" ? "sparse" : ""),
        s.metric,
        `${s.state} (${s.ready ? "ready" : "not ready"})`,
        s.host,
        where(s),
      ]),
    );
    const n = indexes.length;
    return { structured: { indexes }, table: `${n} ${n === 1 ? "index" : "indexes"}:\n\n${table}` };
  },
});
