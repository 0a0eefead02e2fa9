// Validation of control-plane request bodies. Wrong JSON types and missing required fields are 422
// (the real service fails to deserialize them); values that break a rule are 400 naming the field and the rule.
import { invalid, unprocessable } from "./errors.js";
import { int, isObject, jsonType, obj, onlyKnown, str, typeError } from "./json-fields.js";
import type { MetadataSchemaRecord, Metric, PodSpecRecord, ReadCapacityRecord, ServerlessSpecRecord, SpecRecord, StoredIndex, VectorType } from "../storage/inventory.js";

const MAX_DIMENSION = 20000;
const METRICS: Metric[] = ["cosine", "euclidean", "dotproduct"];
const CLOUDS = ["aws", "gcp", "azure"];
export const POD_TYPE = /^(s1|p1|p2)\.(x1|x2|x4|x8)$/;

export function parseJsonObject(body: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch (e) {
    throw invalid(`Failed to parse the request body as JSON: ${(e as Error).message}`);
  }
  if (!isObject(value)) throw unprocessable(`invalid type: ${jsonType(value)}, expected a JSON object`);
  return value;
}

/** spec.serverless.read_capacity: OnDemand, or Dedicated with its node type and manual scaling (stored and described as given). */
export function parseReadCapacity(rc: Record<string, unknown>, where = "spec.serverless.read_capacity"): ReadCapacityRecord {
  onlyKnown(rc, ["mode", "dedicated"], where);
  const mode = str(rc, "mode", `${where}.mode`, true)!;
  if (mode === "OnDemand") {
    if (rc.dedicated !== undefined && rc.dedicated !== null) throw invalid(`${where}.dedicated must not be set when mode is OnDemand.`);
    return { mode };
  }
  if (mode !== "Dedicated") throw invalid(`${where}.mode must be "OnDemand" or "Dedicated" (got ${JSON.stringify(mode)}).`);
  const dedicated = obj(rc, "dedicated", `${where}.dedicated`, true)!;
  onlyKnown(dedicated, ["node_type", "scaling", "manual"], `${where}.dedicated`);
  const nodeType = str(dedicated, "node_type", `${where}.dedicated.node_type`, true)!;
  if (nodeType !== "b1" && nodeType !== "t1") throw invalid(`${where}.dedicated.node_type must be "b1" or "t1" (got ${JSON.stringify(nodeType)}).`);
  const scaling = str(dedicated, "scaling", `${where}.dedicated.scaling`, true)!;
  if (scaling !== "Manual") throw invalid(`${where}.dedicated.scaling must be "Manual" (got ${JSON.stringify(scaling)}).`);
  const manual = obj(dedicated, "manual", `${where}.dedicated.manual`, true)!;
  onlyKnown(manual, ["replicas", "shards"], `${where}.dedicated.manual`);
  const replicas = int(manual, "replicas", `${where}.dedicated.manual.replicas`);
  const shards = int(manual, "shards", `${where}.dedicated.manual.shards`);
  if (replicas === undefined || replicas < 0) throw invalid(`${where}.dedicated.manual.replicas must be an integer of at least 0 (got ${replicas ?? "none"}).`);
  if (shards === undefined || shards < 1) throw invalid(`${where}.dedicated.manual.shards must be an integer of at least 1 (got ${shards ?? "none"}).`);
  return { mode, dedicated: { node_type: nodeType, scaling, manual: { replicas, shards } } };
}

/** spec.serverless.schema: the metadata fields that can be filtered on (only `filterable: true` exists). */
export function parseMetadataSchema(schema: Record<string, unknown>, where = "spec.serverless.schema"): MetadataSchemaRecord {
  onlyKnown(schema, ["fields"], where);
  const fields = obj(schema, "fields", `${where}.fields`, true)!;
  const out: MetadataSchemaRecord = { fields: {} };
  for (const [name, conf] of Object.entries(fields)) {
    const at = `${where}.fields.${name}`;
    if (name === "" || name.startsWith("$")) throw invalid(`${at}: a metadata field name must not be empty or start with '$'.`);
    if (!isObject(conf)) throw typeError(at, conf, "an object");
    onlyKnown(conf, ["filterable"], at);
    if (conf.filterable !== true) {
      throw invalid(`${at}.filterable must be true: only filterable fields can be listed (filterable: false is not supported).`);
    }
    out.fields[name] = { filterable: true };
  }
  return out;
}

/** Resource names: 1–45 characters, lower-case alphanumeric or '-', alphanumeric first and last. */
export function checkResourceName(kind: "Index" | "Collection", name: string): void {
  const shown = JSON.stringify(name);
  if (name.length < 1 || name.length > 45) {
    throw invalid(`${kind} name ${shown} is invalid: name must be 1-45 characters long (got ${name.length}).`);
  }
  if (!/^[a-z0-9-]+$/.test(name)) {
    throw invalid(`${kind} name ${shown} is invalid: name must consist only of lower case alphanumeric characters or '-'.`);
  }
  if (name.startsWith("-") || name.endsWith("-")) {
    throw invalid(`${kind} name ${shown} is invalid: name must start and end with an alphanumeric character.`);
  }
}

export function parseDeletionProtection(v: unknown): "enabled" | "disabled" | undefined {
  if (v === undefined || v === null) return undefined;
  if (v !== "enabled" && v !== "disabled") {
    throw invalid(`deletion_protection must be "enabled" or "disabled" (got ${JSON.stringify(v)}).`);
  }
  return v;
}

/** Tags: keys ≤ 80 characters of alphanumerics, '_' or '-'; values ≤ 120 characters (empty unsets on configure). */
export function parseTags(v: unknown): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw typeError("tags", v, "an object of strings");
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(v)) {
    if (typeof value !== "string") throw typeError(`tags.${key}`, value, "a string");
    if (key.length < 1 || key.length > 80 || !/^[A-Za-z0-9_-]+$/.test(key)) {
      throw invalid(`tags key ${JSON.stringify(key)} is invalid: keys must be 1-80 characters of alphanumerics, '_' or '-'.`);
    }
    if (value.length > 120 || !/^[A-Za-z0-9;@_\-.+ ]*$/.test(value)) {
      throw invalid(
        `tags value for ${JSON.stringify(key)} is invalid: values must be at most 120 characters of alphanumerics, ';', '@', '_', '-', '.', '+' or ' '.`,
      );
    }
    tags[key] = value;
  }
  return tags;
}

/** The stored index's own settings, as a create request gives them. */
export type CreateIndexInput = Pick<StoredIndex, "name" | "vectorType" | "dimension" | "metric" | "spec" | "deletionProtection" | "tags" | "embed" | "schema" | "sourceBackupId"> & {
  sourceCollection?: string;
};

function parsePod(pod: Record<string, unknown>): PodSpecRecord {
  onlyKnown(pod, ["environment", "pod_type", "replicas", "shards", "pods", "metadata_config", "source_collection"], "spec.pod");
  const environment = str(pod, "environment", "spec.pod.environment", true)!;
  if (environment.trim() === "") throw invalid("spec.pod.environment must not be empty.");
  const podType = str(pod, "pod_type", "spec.pod.pod_type", false) ?? "p1.x1";
  if (!POD_TYPE.test(podType)) {
    throw invalid(
      `spec.pod.pod_type ${JSON.stringify(podType)} is invalid: it must be one of s1, p1 or p2 followed by '.' and one of x1, x2, x4 or x8 (e.g. "p1.x1").`,
    );
  }
  const replicas = int(pod, "replicas", "spec.pod.replicas") ?? 1;
  const shards = int(pod, "shards", "spec.pod.shards") ?? 1;
  const pods = int(pod, "pods", "spec.pod.pods") ?? replicas * shards;
  for (const [field, n] of [["replicas", replicas], ["shards", shards], ["pods", pods]] as const) {
    if (n < 1) throw invalid(`spec.pod.${field} must be at least 1 (got ${n}).`);
  }
  const record: PodSpecRecord = { environment, pod_type: podType, pods, replicas, shards };
  const meta = obj(pod, "metadata_config", "spec.pod.metadata_config", false);
  if (meta) {
    onlyKnown(meta, ["indexed"], "spec.pod.metadata_config");
    const indexed = meta.indexed;
    if (indexed !== undefined && (!Array.isArray(indexed) || indexed.some((f) => typeof f !== "string"))) {
      throw typeError("spec.pod.metadata_config.indexed", indexed, "an array of strings");
    }
    record.metadata_config = indexed === undefined ? {} : { indexed: indexed as string[] };
  }
  const source = str(pod, "source_collection", "spec.pod.source_collection", false);
  if (source !== undefined) record.source_collection = source;
  return record;
}

export function parseCreateIndex(body: Record<string, unknown>): CreateIndexInput {
  onlyKnown(body, ["name", "dimension", "metric", "deletion_protection", "tags", "spec", "vector_type"], "");
  const name = str(body, "name", "name", true)!;
  checkResourceName("Index", name);
  const vectorTypeRaw = str(body, "vector_type", "vector_type", false) ?? "dense";
  if (vectorTypeRaw !== "dense" && vectorTypeRaw !== "sparse") {
    throw invalid(`vector_type must be "dense" or "sparse" (got ${JSON.stringify(vectorTypeRaw)}).`);
  }
  const vectorType: VectorType = vectorTypeRaw;
  const dimension = int(body, "dimension", "dimension");
  if (vectorType === "dense") {
    if (dimension === undefined) throw invalid("dimension is required for a dense index (an integer from 1 to 20000).");
    if (dimension < 1 || dimension > MAX_DIMENSION) {
      throw invalid(`dimension must be between 1 and ${MAX_DIMENSION} (got ${dimension}).`);
    }
  } else if (dimension !== undefined) {
    throw invalid("dimension must not be set for a sparse index.");
  }
  const metricRaw = str(body, "metric", "metric", false) ?? (vectorType === "sparse" ? "dotproduct" : "cosine");
  if (!METRICS.includes(metricRaw as Metric)) {
    throw invalid(`metric must be one of cosine, euclidean or dotproduct (got ${JSON.stringify(metricRaw)}).`);
  }
  const metric = metricRaw as Metric;
  if (vectorType === "sparse" && metric !== "dotproduct") {
    throw invalid(`metric must be dotproduct for a sparse index (got ${JSON.stringify(metric)}).`);
  }

  const spec = obj(body, "spec", "spec", true)!;
  if (isObject(spec.byoc)) throw invalid("spec.byoc is not supported by the local service: use spec.serverless or spec.pod.");
  const kinds = Object.keys(spec).filter((k) => spec[k] !== undefined && spec[k] !== null);
  if (kinds.length !== 1 || (kinds[0] !== "serverless" && kinds[0] !== "pod")) {
    throw invalid(
      `spec must contain exactly one of serverless or pod (got ${kinds.length === 0 ? "none" : kinds.join(", ")}).`,
    );
  }
  let parsedSpec: SpecRecord;
  let sourceCollection: string | undefined;
  if (kinds[0] === "serverless") {
    const sl = obj(spec, "serverless", "spec.serverless", true)!;
    const cloud = str(sl, "cloud", "spec.serverless.cloud", true)!;
    if (!CLOUDS.includes(cloud)) {
      throw invalid(`spec.serverless.cloud must be one of aws, gcp or azure (got ${JSON.stringify(cloud)}).`);
    }
    const region = str(sl, "region", "spec.serverless.region", true)!;
    if (region.trim() === "") throw invalid("spec.serverless.region must not be empty.");
    onlyKnown(sl, ["cloud", "region", "source_collection", "read_capacity", "schema"], "spec.serverless");
    sourceCollection = str(sl, "source_collection", "spec.serverless.source_collection", false);
    const serverless: ServerlessSpecRecord = { cloud, region };
    if (sourceCollection !== undefined) serverless.source_collection = sourceCollection;
    const readCapacity = obj(sl, "read_capacity", "spec.serverless.read_capacity", false);
    if (readCapacity) serverless.read_capacity = parseReadCapacity(readCapacity);
    const schema = obj(sl, "schema", "spec.serverless.schema", false);
    if (schema) serverless.schema = parseMetadataSchema(schema);
    parsedSpec = { serverless };
  } else {
    if (vectorType === "sparse") throw invalid("vector_type sparse is only supported for serverless indexes, not pod-based ones.");
    const pod = parsePod(obj(spec, "pod", "spec.pod", true)!);
    sourceCollection = pod.source_collection;
    parsedSpec = { pod };
  }

  return {
    name,
    vectorType,
    ...(dimension !== undefined ? { dimension } : {}),
    metric,
    spec: parsedSpec,
    deletionProtection: parseDeletionProtection(body.deletion_protection) ?? "disabled",
    tags: parseTags(body.tags) ?? {},
    ...(sourceCollection !== undefined ? { sourceCollection } : {}),
  };
}

export function parseCreateCollection(body: Record<string, unknown>): { name: string; source: string } {
  onlyKnown(body, ["name", "source"], "");
  const name = str(body, "name", "name", true)!;
  checkResourceName("Collection", name);
  const source = str(body, "source", "source", true)!;
  if (source === "") throw invalid("source must name an index (got an empty string).");
  return { name, source };
}

export interface ConfigureInput {
  deletionProtection?: "enabled" | "disabled";
  tags?: Record<string, string>;
  pod?: { replicas?: number; pod_type?: string };
  embed?: { model?: string; field_map?: Record<string, unknown>; read_parameters?: Record<string, unknown>; write_parameters?: Record<string, unknown> };
  /** 2026-07: the semantic_text field the embed change names (the index's text field). */
  semanticField?: string;
  /** 2026-07: a read capacity change (fields left out keep their value). */
  readCapacity?: { mode: "OnDemand" | "Dedicated"; nodeType?: string; manual?: { replicas?: number; shards?: number } };
}

const CONFIGURE_FIELDS = ["deletion_protection", "tags", "spec", "embed"];
const EMBED_FIELDS = ["model", "field_map", "read_parameters", "write_parameters"];

export function parseConfigure(body: Record<string, unknown>): ConfigureInput {
  const out: ConfigureInput = {};
  // A field this service does not know would otherwise be dropped in silence: refuse it.
  const unknown = Object.keys(body).find((k) => !CONFIGURE_FIELDS.includes(k));
  if (unknown !== undefined) throw invalid(`${unknown} cannot be configured; the fields are ${CONFIGURE_FIELDS.join(", ")}.`);
  const embed = obj(body, "embed", "embed", false);
  if (embed) {
    const extra = Object.keys(embed).find((k) => !EMBED_FIELDS.includes(k));
    if (extra !== undefined) throw invalid(`embed.${extra} cannot be configured; the fields are ${EMBED_FIELDS.join(", ")}.`);
    const model = str(embed, "model", "embed.model", false);
    const parsed: NonNullable<ConfigureInput["embed"]> = model !== undefined ? { model } : {};
    for (const key of ["field_map", "read_parameters", "write_parameters"] as const) {
      const v = obj(embed, key, `embed.${key}`, false);
      if (v) parsed[key] = v;
    }
    out.embed = parsed;
  }
  const dp = parseDeletionProtection(body.deletion_protection);
  if (dp) out.deletionProtection = dp;
  const tags = parseTags(body.tags);
  if (tags) out.tags = tags;
  const spec = obj(body, "spec", "spec", false);
  if (spec) {
    const other = Object.keys(spec).find((k) => k !== "pod" && spec[k] !== undefined && spec[k] !== null);
    if (other !== undefined) throw invalid(`spec.${other} cannot be configured by the local service; only spec.pod (replicas, pod_type) can.`);
    const pod = obj(spec, "pod", "spec.pod", false);
    if (pod) {
      const replicas = int(pod, "replicas", "spec.pod.replicas");
      if (replicas !== undefined && replicas < 1) throw invalid(`spec.pod.replicas must be at least 1 (got ${replicas}).`);
      const podType = str(pod, "pod_type", "spec.pod.pod_type", false);
      if (podType !== undefined && !POD_TYPE.test(podType)) {
        throw invalid(`spec.pod.pod_type ${JSON.stringify(podType)} is invalid: it must be one of s1, p1 or p2 followed by '.' and one of x1, x2, x4 or x8 (e.g. "p1.x1").`);
      }
      out.pod = { ...(replicas !== undefined ? { replicas } : {}), ...(podType !== undefined ? { pod_type: podType } : {}) };
    }
  }
  return out;
}
