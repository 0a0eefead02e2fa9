// The 2026-07 index shape (`deployment` + `schema`) and the older one (`spec`, `dimension`, `metric`, `vector_type`,
// `embed`), side by side. Answers in the new shape are read into the older fields as well, so every tool that reads
// an index keeps one view of it; requests the tools build in the older names are written in the new shape here.

/** The first API version that describes indexes by `deployment` + `schema` and has backup schedules and aliases. */
export const SCHEMA_API_VERSION = "2026-07";

/** Whether a version speaks the 2026-07 API ("unstable" is the newest). */
export function speaksSchemaApi(version: string): boolean {
  return version === "unstable" || version >= SCHEMA_API_VERSION;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The reserved field name a vectors-API index reports its dense vectors under (`_sparse_values`: its sparse ones). */
const DENSE_VALUES = "_values";

/**
 * An index answer in the 2026-07 shape, with the older fields filled in from it (an answer in the older shape is
 * returned as it is): `spec` from `deployment`, `dimension`/`metric`/`vector_type` from its vector field (the reserved
 * `_values` first), `embed` from a `semantic_text` field.
 */
export function withOlderFields(raw: unknown): unknown {
  if (!isObject(raw) || !isObject(raw.deployment) || raw.spec !== undefined) return raw;
  const out: Json = { ...raw, spec: specOf(raw.deployment) };
  const fields = isObject(raw.schema) && isObject(raw.schema.fields) ? raw.schema.fields : {};
  const typed = Object.entries(fields).filter((e): e is [string, Json] => isObject(e[1]));
  const dense = typed.find(([name, f]) => name === DENSE_VALUES && f.type === "dense_vector") ?? typed.find(([, f]) => f.type === "dense_vector");
  const sparse = typed.find(([, f]) => f.type === "sparse_vector");
  const semantic = typed.find(([, f]) => f.type === "semantic_text");
  if (semantic) {
    const [name, f] = semantic;
    out.embed = {
      model: f.model,
      field_map: { text: name },
      ...(f.metric !== undefined && { metric: f.metric }),
      ...(f.dimension !== undefined && { dimension: f.dimension }),
      ...(f.read_parameters !== undefined && { read_parameters: f.read_parameters }),
      ...(f.write_parameters !== undefined && { write_parameters: f.write_parameters }),
    };
    out.vector_type = typeof f.dimension === "number" ? "dense" : "sparse";
    if (typeof f.dimension === "number") out.dimension = f.dimension;
    if (typeof f.metric === "string") out.metric = f.metric;
  } else if (dense) {
    out.vector_type = "dense";
    out.dimension = dense[1].dimension;
    out.metric = dense[1].metric;
  } else if (sparse) {
    out.vector_type = "sparse";
    out.metric = "dotproduct";
  }
  return out;
}

function specOf(deployment: Json): Json {
  const { deployment_type: type, ...rest } = deployment;
  if (type === "managed") return { serverless: rest };
  if (type === "pod") {
    const replicas = typeof rest.replicas === "number" ? rest.replicas : 1;
    const shards = typeof rest.shards === "number" ? rest.shards : 1;
    return { pod: { ...rest, replicas, shards, pods: replicas * shards } };
  }
  return { [String(type)]: rest };
}

/** POST /indexes in the 2026-07 shape: the vector as the reserved `_values` field (a classic vectors-API index). */
export function createIndexBody(body: {
  name: string;
  dimension: number;
  metric: string;
  spec: { serverless?: { cloud: string; region: string }; pod?: unknown };
  deletion_protection?: string;
  tags?: Record<string, string>;
}): Json {
  if (body.spec.pod) throw new Error("a pod-based index cannot be created under 2026-07");
  const { serverless } = body.spec;
  return {
    name: body.name,
    deployment: { deployment_type: "managed", cloud: serverless?.cloud ?? "aws", region: serverless?.region ?? "us-east-1" },
    schema: { fields: { [DENSE_VALUES]: { type: "dense_vector", dimension: body.dimension, metric: body.metric } } },
    ...(body.deletion_protection !== undefined && { deletion_protection: body.deletion_protection }),
    ...(body.tags !== undefined && { tags: body.tags }),
  };
}

/**
 * PATCH /indexes/{name} in the 2026-07 shape: pod settings under `deployment`, the embedding's parameters under the
 * index's `semantic_text` field (`textField`). The field map cannot change in 2026-07; callers refuse it first.
 */
export function configureIndexBody(
  body: {
    spec?: { pod?: Json; serverless?: { read_capacity: unknown } };
    embed?: { read_parameters?: Json; write_parameters?: Json };
    deletion_protection?: string;
    tags?: Record<string, string>;
  },
  textField: string | undefined,
): Json {
  const { spec, embed, ...rest } = body;
  const out: Json = { ...rest };
  if (spec?.pod) out.deployment = { ...spec.pod };
  if (spec?.serverless) out.read_capacity = spec.serverless.read_capacity;
  if (embed && textField !== undefined && (embed.read_parameters || embed.write_parameters)) {
    out.schema = {
      fields: {
        [textField]: {
          type: "semantic_text",
          ...(embed.write_parameters && { write_parameters: embed.write_parameters }),
          ...(embed.read_parameters && { read_parameters: embed.read_parameters }),
        },
      },
    };
  }
  return out;
}
