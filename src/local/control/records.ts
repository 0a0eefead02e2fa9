// Stored catalog entries → the records the API returns, in the newest shape (2026-04).
import type { StoredCollection, StoredIndex } from "../storage/catalog.js";

export function indexModel(index: StoredIndex, hostName: string): Record<string, unknown> {
  const spec =
    "serverless" in index.spec
      ? { serverless: { ...index.spec.serverless, read_capacity: { mode: "OnDemand", status: { state: "Ready" } } } }
      : { pod: { ...index.spec.pod } };
  return {
    name: index.name,
    vector_type: index.vectorType,
    ...(index.dimension !== undefined ? { dimension: index.dimension } : {}),
    metric: index.metric,
    host: `${hostName}:${index.port}`,
    deletion_protection: index.deletionProtection,
    tags: { ...index.tags },
    spec,
    status: { ready: index.state === "Ready", state: index.state },
    ...(index.embed ? { embed: embedModel(index) } : {}),
  };
}

/** An integrated index's embed record (ModelIndexEmbed). */
function embedModel(index: StoredIndex): Record<string, unknown> {
  const e = index.embed!;
  return {
    model: e.model,
    metric: index.metric,
    ...(index.dimension !== undefined ? { dimension: index.dimension } : {}),
    vector_type: index.vectorType,
    field_map: { ...e.fieldMap },
    read_parameters: { ...e.readParameters },
    write_parameters: { ...e.writeParameters },
  };
}

export function collectionModel(c: StoredCollection): Record<string, unknown> {
  return {
    name: c.name,
    status: c.status,
    environment: c.environment,
    ...(c.size !== undefined ? { size: c.size } : {}),
    ...(c.dimension !== undefined ? { dimension: c.dimension } : {}),
    ...(c.vectorCount !== undefined ? { vector_count: c.vectorCount } : {}),
  };
}
