// POST /indexes/create-for-model {name, cloud, region, embed: {model, field_map: {text}, metric?, dimension?,
// read_parameters?, write_parameters?}, deletion_protection?, tags?} → a serverless index whose records are
// embedded by that model: local-bm25 → a sparse dotproduct index; a model of the user's embeddings server → a
// dense index of the dimension it produces (learnt from one probe call), cosine unless another metric is asked.
import { invalid, unprocessable } from "./errors.js";
import { asControl } from "../inference/routes.js";
import { embedOptions } from "../inference/validate.js";
import type { Models } from "../models/available-models.js";
import type { Metric } from "../storage/inventory.js";
import { checkResourceName, parseDeletionProtection, parseMetadataSchema, parseReadCapacity, parseTags, type CreateIndexInput } from "./validate.js";
import { onlyKnown } from "./json-fields.js";
import type { ServerlessSpecRecord } from "../storage/inventory.js";

const CLOUDS = ["aws", "gcp", "azure"];
type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function str(body: Obj, key: string, field: string): string {
  const v = body[key];
  if (v === undefined || v === null) throw unprocessable(`missing field \`${field}\``);
  if (typeof v !== "string") throw unprocessable(`${field}: invalid type: ${typeof v}, expected a string`);
  return v;
}

function params(v: unknown, field: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  embedOptions(v, field); // refuses what the local models cannot honour
  return { ...(v as Obj) };
}

export async function parseCreateForModel(body: Obj, models: Models): Promise<CreateIndexInput> {
  onlyKnown(body, ["name", "cloud", "region", "embed", "deletion_protection", "tags", "schema", "read_capacity"], "");
  const name = str(body, "name", "name");
  checkResourceName("Index", name);
  const cloud = str(body, "cloud", "cloud");
  if (!CLOUDS.includes(cloud)) throw invalid(`cloud must be one of aws, gcp or azure (got ${JSON.stringify(cloud)}).`);
  const region = str(body, "region", "region");
  if (region.trim() === "") throw invalid("region must not be empty.");
  const embed = body.embed;
  if (!isObject(embed)) throw unprocessable("missing field `embed`");
  const modelName = str(embed, "model", "embed.model");
  const fieldMap = embed.field_map;
  if (!isObject(fieldMap) || typeof fieldMap.text !== "string" || fieldMap.text === "") {
    throw invalid('embed.field_map must map "text" to the name of the field that holds each record\'s text, e.g. {"text": "chunk_text"}.');
  }
  if (Object.keys(fieldMap).length !== 1) throw invalid('embed.field_map takes only the key "text".');
  if (fieldMap.text === "_id" || fieldMap.text === "id") throw invalid(`embed.field_map.text cannot be ${JSON.stringify(fieldMap.text)}: that field is the record's id.`);
  const readParameters = params(embed.read_parameters, "embed.read_parameters");
  const writeParameters = params(embed.write_parameters, "embed.write_parameters");
  for (const [p, field] of [[readParameters, "read_parameters"], [writeParameters, "write_parameters"]] as const) {
    if (p.dimension !== undefined) throw invalid(`embed.${field}.dimension is not taken here; give embed.dimension.`);
  }

  const model = await asControl(() => models.embedModel(modelName));
  const metricRaw = embed.metric ?? (model.vectorType === "sparse" ? "dotproduct" : "cosine");
  if (typeof metricRaw !== "string" || !model.metrics.includes(metricRaw as Metric)) {
    throw invalid(`embed.metric ${JSON.stringify(metricRaw)} is not supported by ${modelName}; it supports ${model.metrics.join(", ")}.`);
  }
  const dimension = embed.dimension;
  if (dimension !== undefined && dimension !== null) {
    if (model.vectorType === "sparse") throw invalid(`embed.dimension must not be set: ${modelName} is a sparse model.`);
    if (dimension !== model.dimension) {
      throw invalid(`embed.dimension ${JSON.stringify(dimension)} is not available for ${modelName}: it produces vectors of dimension ${model.dimension}.`);
    }
  }
  const serverless: ServerlessSpecRecord = { cloud, region };
  if (isObject(body.read_capacity)) serverless.read_capacity = parseReadCapacity(body.read_capacity, "read_capacity");
  else if (body.read_capacity !== undefined && body.read_capacity !== null) throw unprocessable("read_capacity: invalid type, expected an object");
  if (isObject(body.schema)) serverless.schema = parseMetadataSchema(body.schema, "schema");
  else if (body.schema !== undefined && body.schema !== null) throw unprocessable("schema: invalid type, expected an object");
  return {
    name,
    vectorType: model.vectorType,
    ...(model.dimension !== undefined ? { dimension: model.dimension } : {}),
    metric: metricRaw as Metric,
    spec: { serverless },
    deletionProtection: parseDeletionProtection(body.deletion_protection) ?? "disabled",
    tags: parseTags(body.tags) ?? {},
    embed: {
      model: modelName,
      fieldMap: { text: fieldMap.text },
      readParameters: { input_type: "query", truncate: "END", ...readParameters },
      writeParameters: { input_type: "passage", truncate: "END", ...writeParameters },
    },
  };
}
