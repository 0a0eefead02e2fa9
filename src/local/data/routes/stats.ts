// POST /describe_index_stats {filter?} → {namespaces, dimension, indexFullness, totalVectorCount, metric, vectorType}
import { compileFilter } from "../../search/filter.js";
import type { RouteContext } from "../types.js";
import { field, parseBody } from "../validate.js";
import { invalid, UNSUPPORTED } from "../errors.js";

export function describeIndexStats({ req, index, store }: RouteContext) {
  const body = req.method === "GET" ? {} : parseBody(req.body);
  const filter = field(body, "filter");
  if (filter !== undefined && index.kind === "serverless") throw invalid(UNSUPPORTED.statsFilterOnServerless);
  const compiled = compileFilter(filter);
  const stats = store.spaceStats(index.space);
  let namespaces: Record<string, { vectorCount: number }> = Object.fromEntries(
    Object.entries(stats.namespaces).map(([name, s]) => [name, { vectorCount: s.vectorCount }]),
  );
  if (compiled) {
    namespaces = {};
    for (const name of Object.keys(stats.namespaces)) {
      const count = store.countMatching(index.space, name, compiled);
      if (count > 0) namespaces[name] = { vectorCount: count };
    }
  }
  return {
    namespaces,
    ...(index.vectorType === "dense" ? { dimension: index.dimension } : {}),
    indexFullness: 0,
    totalVectorCount: stats.totalVectorCount,
    metric: index.metric,
    vectorType: index.vectorType,
  };
}
