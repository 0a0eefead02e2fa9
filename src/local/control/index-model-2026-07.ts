// A stored index → the IndexModel of API version 2026-07: `deployment` + `schema` instead of dimension / metric /
// vector_type / spec / embed. Indexes of the vectors API (made with dimension / metric, or with the reserved schema)
// report `_values` (dense; a dense index always also `_sparse_values`) and `_sparse_values` (sparse), plus their
// filterable metadata fields as legacy `{filterable: true}`; an index made for a model reports its text field as
// `semantic_text`; a document index reports its typed fields as created.
import type { StoredIndex } from "../storage/inventory.js";
import type { SchemaFieldRecord } from "../storage/index-schema.js";
import { readCapacity } from "./records.js";

type Model = Record<string, unknown>;

function deployment(index: StoredIndex): Model {
  const spec = index.spec;
  if ("serverless" in spec) return { deployment_type: "managed", cloud: spec.serverless.cloud, region: spec.serverless.region };
  if ("byoc" in spec) return { deployment_type: "byoc", environment: spec.byoc.environment };
  const { environment, pod_type, replicas, shards } = spec.pod;
  return { deployment_type: "pod", environment, pod_type, replicas, shards };
}

function describedField(field: SchemaFieldRecord): Model {
  const { description, ...rest } = field;
  const copy = structuredClone(rest) as Model;
  return { ...copy, description: description ?? null };
}

/** The fields of an index (or of a backup of one) as 2026-07 describes them. */
export function describedSchemaFields(index: Pick<StoredIndex, "vectorType" | "dimension" | "metric" | "embed" | "schema"> & { spec?: StoredIndex["spec"] }): Model {
  return index.schema
    ? Object.fromEntries(Object.entries(index.schema.fields).map(([name, field]) => [name, describedField(field)]))
    : vectorsApiFields(index);
}

function vectorsApiFields(index: Pick<StoredIndex, "vectorType" | "dimension" | "metric" | "embed"> & { spec?: StoredIndex["spec"] }): Model {
  if (index.embed) {
    const e = index.embed;
    return {
      [e.fieldMap.text]: {
        type: "semantic_text",
        model: e.model,
        dimension: index.dimension ?? null,
        metric: index.metric,
        write_parameters: { ...e.writeParameters },
        read_parameters: { ...e.readParameters },
        description: null,
      },
    };
  }
  const fields: Model =
    index.vectorType === "dense"
      ? { _values: { type: "dense_vector", dimension: index.dimension, metric: index.metric }, _sparse_values: { type: "sparse_vector" } }
      : { _sparse_values: { type: "sparse_vector" } };
  const spec = index.spec;
  const filterable =
    spec === undefined ? [] : "serverless" in spec ? Object.keys(spec.serverless.schema?.fields ?? {}) : "pod" in spec ? (spec.pod.metadata_config?.indexed ?? []) : [];
  for (const name of filterable) fields[name] = { filterable: true };
  return fields;
}

export function indexModel2026_07(index: StoredIndex, hostName: string): Model {
  const spec = index.spec;
  const rc = "serverless" in spec ? spec.serverless.read_capacity : "byoc" in spec ? spec.byoc.read_capacity : undefined;
  const sourceCollection = "serverless" in spec ? spec.serverless.source_collection : "pod" in spec ? spec.pod.source_collection : undefined;
  const fields = describedSchemaFields(index);
  return {
    name: index.name,
    host: `${hostName}:${index.port}`,
    status: { ready: index.state === "Ready", state: index.state },
    deployment: deployment(index),
    ...("pod" in spec ? {} : { read_capacity: readCapacity(rc) }),
    ...(sourceCollection !== undefined ? { source_collection: sourceCollection } : {}),
    ...(index.sourceBackupId !== undefined ? { source_backup_id: index.sourceBackupId } : {}),
    schema: { fields },
    tags: Object.keys(index.tags).length > 0 ? { ...index.tags } : null,
    deletion_protection: index.deletionProtection,
  };
}
