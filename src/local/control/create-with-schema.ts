// POST /indexes under API version 2026-07: {name?, deployment?, schema, read_capacity?, tags?, deletion_protection?,
// cmek_id?}. A schema of only the reserved `_values` / `_sparse_values` makes a classic index (the vectors API's,
// as dimension / metric / vector_type made before); any other schema makes a document index whose typed fields
// are stored with it. Unknown keys are refused as the service's deserializer refuses them (422, "unknown field").
import { randomBytes } from "node:crypto";
import { ControlError, invalid, unprocessable } from "./errors.js";
import { int, isObject, obj, str, typeError } from "./json-fields.js";
import { checkResourceName, parseDeletionProtection, parseReadCapacity, parseTags, type CreateIndexInput } from "./validate.js";
import type { Metric, ReadCapacityRecord, SpecRecord } from "../storage/inventory.js";
import { FULL_TEXT_LANGUAGES, type FullTextSearchRecord, type IndexSchemaRecord, type SchemaFieldRecord } from "../storage/index-schema.js";

type Obj = Record<string, unknown>;

const CREATE_FIELDS = ["name", "deployment", "schema", "cmek_id", "read_capacity", "tags", "deletion_protection"];
const CLOUDS = ["aws", "gcp", "azure"];
const METRICS: Metric[] = ["cosine", "euclidean", "dotproduct"];
const MAX_DIMENSION = 20000;
const MAX_FULL_TEXT_FIELDS = 100;
const MAX_FIELD_NAME_BYTES = 64;
const MAX_DESCRIPTION_BYTES = 256;
const DEFAULT_DEPLOYMENT = { cloud: "aws", region: "us-east-1" };

/** Types the service describes but does not take at creation, with what to do instead (its own words, in short). */
const NOT_DECLARABLE: Record<string, string> = {
  semantic_text:
    "semantic_text cannot be declared in a schema: create an index with an integrated embedding model through POST /indexes/create-for-model instead; it appears as a semantic_text field when the index is described.",
  float: "is a metadata type: metadata is not declared in the schema; include the values as document metadata and they are indexed for filtering automatically.",
  number: "is a metadata type: metadata is not declared in the schema; include the values as document metadata and they are indexed for filtering automatically.",
  integer: "is a metadata type: metadata is not declared in the schema; include the values as document metadata and they are indexed for filtering automatically.",
  boolean: "is a metadata type: metadata is not declared in the schema; include the values as document metadata and they are indexed for filtering automatically.",
  string_list: "is a metadata type: metadata is not declared in the schema; include the values as document metadata and they are indexed for filtering automatically.",
};

/** The deserializer's refusal of a key the request type does not have (additionalProperties: false). */
function onlyFields(o: Obj, known: readonly string[], where: string, hint = ""): void {
  for (const key of Object.keys(o)) {
    if (known.includes(key) || o[key] === undefined) continue;
    const at = where === "" ? "" : `${where}: `;
    throw unprocessable(`${at}unknown field \`${key}\`, expected one of ${known.map((k) => `\`${k}\``).join(", ")}${hint}`);
  }
}

function bytes(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

function description(field: Obj, at: string): { description?: string } {
  const d = str(field, "description", `${at}.description`, false);
  if (d === undefined) return {};
  if (bytes(d) > MAX_DESCRIPTION_BYTES) throw invalid(`${at}.description is ${bytes(d)} bytes long; a field's description may be at most ${MAX_DESCRIPTION_BYTES} bytes.`);
  return { description: d };
}

function bool(o: Obj, key: string, at: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw typeError(at, v, "a boolean");
  return v;
}

function parseFullTextSearch(fts: Obj, at: string): FullTextSearchRecord {
  onlyFields(fts, ["language", "stemming", "stop_words", "ngram"], at);
  const given = str(fts, "language", `${at}.language`, false) ?? "en";
  const lower = given.toLowerCase();
  const language = FULL_TEXT_LANGUAGES[lower] !== undefined ? lower : Object.keys(FULL_TEXT_LANGUAGES).find((code) => FULL_TEXT_LANGUAGES[code] === lower);
  if (language === undefined) {
    throw invalid(
      `${at}.language ${JSON.stringify(given)} is not a supported language; supported: ${Object.entries(FULL_TEXT_LANGUAGES).map(([code, name]) => `${code} (${name})`).join(", ")}.`,
    );
  }
  const stemming = bool(fts, "stemming", `${at}.stemming`) ?? false;
  const stopWords = bool(fts, "stop_words", `${at}.stop_words`) ?? false;
  if (stopWords && !stemming) throw invalid(`${at}.stop_words requires stemming: true (stop words are removed only from stemmed text).`);
  const record: FullTextSearchRecord = { language, stemming, stop_words: stopWords };
  const ngram = obj(fts, "ngram", `${at}.ngram`, false);
  if (ngram) {
    if (stemming || stopWords) throw invalid(`${at}.ngram cannot be combined with stemming or stop_words.`);
    onlyFields(ngram, ["min_gram", "max_gram", "prefix_only"], `${at}.ngram`);
    const min = int(ngram, "min_gram", `${at}.ngram.min_gram`);
    const max = int(ngram, "max_gram", `${at}.ngram.max_gram`);
    if (min === undefined) throw unprocessable(`missing field \`${at}.ngram.min_gram\``);
    if (max === undefined) throw unprocessable(`missing field \`${at}.ngram.max_gram\``);
    if (min < 1 || min > 10) throw invalid(`${at}.ngram.min_gram must be from 1 to 10 (got ${min}).`);
    if (max < 1 || max > 10) throw invalid(`${at}.ngram.max_gram must be from 1 to 10 (got ${max}).`);
    if (min > max) throw invalid(`${at}.ngram.min_gram (${min}) must not be greater than max_gram (${max}).`);
    record.ngram = { min_gram: min, max_gram: max, prefix_only: bool(ngram, "prefix_only", `${at}.ngram.prefix_only`) ?? false };
  }
  return record;
}

function parseField(name: string, field: unknown): SchemaFieldRecord {
  const at = `schema.fields.${name}`;
  if (!isObject(field)) throw typeError(at, field, "an object");
  const type = str(field, "type", `${at}.type`, true)!;
  if (type === "dense_vector") {
    onlyFields(field, ["type", "description", "dimension", "metric"], at);
    const dimension = int(field, "dimension", `${at}.dimension`);
    if (dimension === undefined) throw unprocessable(`missing field \`${at}.dimension\``);
    if (dimension < 1 || dimension > MAX_DIMENSION) throw invalid(`${at}.dimension must be between 1 and ${MAX_DIMENSION} (got ${dimension}).`);
    const metric = str(field, "metric", `${at}.metric`, true)!;
    if (!METRICS.includes(metric as Metric)) throw invalid(`${at}.metric must be one of cosine, euclidean or dotproduct (got ${JSON.stringify(metric)}).`);
    return { type, dimension, metric: metric as Metric, ...description(field, at) };
  }
  if (type === "sparse_vector") {
    onlyFields(field, ["type", "description"], at);
    return { type, ...description(field, at) };
  }
  if (type === "string") {
    if (field.full_text_search === undefined || field.full_text_search === null) {
      throw invalid(
        `${at} is a string field without full_text_search: only full-text fields are declared; metadata is not declared in the schema (include it in the documents and it is indexed for filtering automatically).`,
      );
    }
    onlyFields(field, ["type", "description", "full_text_search"], at);
    const fts = obj(field, "full_text_search", `${at}.full_text_search`, true)!;
    return { type, full_text_search: parseFullTextSearch(fts, `${at}.full_text_search`), ...description(field, at) };
  }
  const why = NOT_DECLARABLE[type];
  if (why !== undefined) throw invalid(why.startsWith("semantic_text") ? `${at}: ${why}` : `${at}: type ${type} ${why}`);
  throw invalid(`${at}.type must be one of dense_vector, sparse_vector or string (got ${JSON.stringify(type)}).`);
}

/** The reserved-name schema of a classic index: `_values` (dense_vector) and / or `_sparse_values` (sparse_vector). */
function classicIndex(fields: Obj): Pick<CreateIndexInput, "vectorType" | "dimension" | "metric"> | undefined {
  const names = Object.keys(fields);
  const reserved = names.filter((n) => n.startsWith("_"));
  if (reserved.length === 0) return undefined;
  const other = reserved.find((n) => n !== "_values" && n !== "_sparse_values");
  if (other !== undefined) {
    throw invalid(
      `schema.fields.${other}: field names starting with '_' are reserved; only _values (dense_vector) and _sparse_values (sparse_vector) are accepted, and only as the whole schema.`,
    );
  }
  if (reserved.length !== names.length) {
    throw invalid(
      `schema.fields: the reserved fields ${reserved.join(" and ")} make a classic vector index and cannot be combined with other fields (${names.filter((n) => !n.startsWith("_")).join(", ")}).`,
    );
  }
  let dense: { dimension: number; metric: Metric } | undefined;
  for (const name of reserved) {
    const field = fields[name];
    const parsed = parseField(name, field);
    if (isObject(field) && field.description !== undefined) throw invalid(`schema.fields.${name}: reserved fields do not accept a description.`);
    const expected = name === "_values" ? "dense_vector" : "sparse_vector";
    if (parsed.type !== expected) throw invalid(`schema.fields.${name} must be of type ${expected} (got ${parsed.type}).`);
    if (parsed.type === "dense_vector") dense = { dimension: parsed.dimension, metric: parsed.metric };
  }
  return dense ? { vectorType: "dense", dimension: dense.dimension, metric: dense.metric } : { vectorType: "sparse", metric: "dotproduct" };
}

function parseSchemaFields(fields: Obj): IndexSchemaRecord {
  if (Object.keys(fields).length === 0) {
    throw invalid("schema.fields is empty: declare at least one dense_vector, sparse_vector or string field with full_text_search.");
  }
  const out: IndexSchemaRecord = { fields: {} };
  let dense = 0;
  let sparse = 0;
  let fullText = 0;
  for (const [name, field] of Object.entries(fields)) {
    if (name === "") throw invalid("schema.fields: a field name must not be empty.");
    if (bytes(name) > MAX_FIELD_NAME_BYTES) throw invalid(`schema.fields.${name}: a field name may be at most ${MAX_FIELD_NAME_BYTES} bytes (got ${bytes(name)}).`);
    if (name.startsWith("$")) throw invalid(`schema.fields.${name}: a field name must not start with '$', which introduces a filter operator.`);
    const parsed = parseField(name, field);
    if (parsed.type === "dense_vector") dense++;
    else if (parsed.type === "sparse_vector") sparse++;
    else fullText++;
    out.fields[name] = parsed;
  }
  if (dense > 1) throw invalid(`schema.fields declares ${dense} dense_vector fields; an index has at most one.`);
  if (sparse > 1) throw invalid(`schema.fields declares ${sparse} sparse_vector fields; an index has at most one.`);
  if (fullText > MAX_FULL_TEXT_FIELDS) throw invalid(`schema.fields declares ${fullText} full-text fields; an index has at most ${MAX_FULL_TEXT_FIELDS}.`);
  return out;
}

function parseDeployment(body: Obj): { spec: SpecRecord; byoc: boolean } {
  const deployment = obj(body, "deployment", "deployment", false);
  if (!deployment) return { spec: { serverless: { ...DEFAULT_DEPLOYMENT } }, byoc: false };
  const type = str(deployment, "deployment_type", "deployment.deployment_type", true)!;
  if (type === "managed") {
    onlyFields(deployment, ["deployment_type", "cloud", "region"], "deployment");
    const cloud = str(deployment, "cloud", "deployment.cloud", true)!;
    if (!CLOUDS.includes(cloud)) throw invalid(`deployment.cloud must be one of aws, gcp or azure (got ${JSON.stringify(cloud)}).`);
    const region = str(deployment, "region", "deployment.region", true)!;
    if (region.trim() === "") throw invalid("deployment.region must not be empty.");
    return { spec: { serverless: { cloud, region } }, byoc: false };
  }
  if (type === "byoc") {
    onlyFields(deployment, ["deployment_type", "environment"], "deployment");
    const environment = str(deployment, "environment", "deployment.environment", true)!;
    if (environment.trim() === "") throw invalid("deployment.environment must not be empty.");
    return { spec: { byoc: { environment } }, byoc: true };
  }
  if (type === "pod") {
    throw unprocessable(
      "deployment: unknown variant `pod`, expected `managed` or `byoc` (pod-based indexes are created with an earlier API version, with spec.pod)",
    );
  }
  throw unprocessable(`deployment: unknown variant \`${type}\`, expected \`managed\` or \`byoc\``);
}

function generatedName(): string {
  return `index-${randomBytes(5).toString("hex")}`;
}

/** A 2026-07 create request → the index to create (a classic index, or a document index with its schema). */
export function parseCreateWithSchema(body: Obj): CreateIndexInput {
  onlyFields(
    body,
    CREATE_FIELDS,
    "",
    " (with API version 2026-07 an index is made from `schema` and `deployment`: dimension and metric go in a dense_vector field, vector_type becomes a sparse_vector field, spec becomes deployment)",
  );
  const name = str(body, "name", "name", false) ?? generatedName();
  checkResourceName("Index", name);
  const schema = obj(body, "schema", "schema", true)!;
  onlyFields(schema, ["fields"], "schema");
  const fields = obj(schema, "fields", "schema.fields", true)!;
  const classic = classicIndex(fields);
  const documents = classic ? undefined : parseSchemaFields(fields);
  const fullText = documents ? Object.values(documents.fields).some((f) => f.type === "string") : false;
  const cmek = str(body, "cmek_id", "cmek_id", false);
  if (cmek !== undefined && fullText) {
    throw new ControlError(412, "FAILED_PRECONDITION", "Index creation failed. Indexes with full_text_search fields are not supported in CMEK-encrypted projects");
  }
  if (cmek !== undefined) {
    throw invalid("cmek_id is not supported by the local service: it keeps its data in the data directory (mode 0700), not encrypted with a customer-managed key. Leave cmek_id out.");
  }
  const { spec, byoc } = parseDeployment(body);
  const rcBody = obj(body, "read_capacity", "read_capacity", false);
  const readCapacity: ReadCapacityRecord | undefined = rcBody ? parseReadCapacity(rcBody, "read_capacity") : undefined;
  if (byoc && readCapacity?.mode !== "Dedicated") {
    throw invalid("read_capacity must be {mode: Dedicated, …} for a byoc deployment: BYOC indexes do not support OnDemand, the default when read_capacity is left out.");
  }
  if (readCapacity) {
    if ("serverless" in spec) spec.serverless.read_capacity = readCapacity;
    else if ("byoc" in spec) spec.byoc.read_capacity = readCapacity;
  }
  const dense = documents ? Object.values(documents.fields).find((f) => f.type === "dense_vector") : undefined;
  const vectors: Pick<CreateIndexInput, "vectorType" | "dimension" | "metric"> =
    classic ?? (dense?.type === "dense_vector" ? { vectorType: "dense", dimension: dense.dimension, metric: dense.metric } : { vectorType: "sparse", metric: "dotproduct" });
  return {
    name,
    ...vectors,
    spec,
    deletionProtection: parseDeletionProtection(body.deletion_protection) ?? "disabled",
    tags: parseTags(body.tags) ?? {},
    ...(documents ? { schema: documents } : {}),
  };
}
