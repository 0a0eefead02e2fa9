// Stored inventory entries → the records the API returns, in the newest shape (2026-04).
import type { ReadCapacityRecord, StoredCollection, StoredIndex } from "../storage/inventory.js";

export function indexModel(index: StoredIndex, hostName: string): Record<string, unknown> {
  const spec =
    "serverless" in index.spec
      ? { serverless: { ...index.spec.serverless, read_capacity: readCapacity(index.spec.serverless.read_capacity) } }
      : "byoc" in index.spec
        ? { byoc: { ...index.spec.byoc, read_capacity: readCapacity(index.spec.byoc.read_capacity) } }
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

/** As the service describes read capacity: the mode as created, with its status (one local node: always Ready). */
export function readCapacity(rc: ReadCapacityRecord | undefined): Record<string, unknown> {
  if (!rc || rc.mode === "OnDemand" || !rc.dedicated) return { mode: "OnDemand", status: { state: "Ready" } };
  const { replicas, shards } = rc.dedicated.manual;
  return { mode: "Dedicated", dedicated: structuredClone(rc.dedicated), status: { state: "Ready", current_replicas: replicas, current_shards: shards } };
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
