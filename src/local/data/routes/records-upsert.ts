// POST /records/namespaces/{namespace}/upsert, NDJSON: one record a line, `_id` (or `id`), the text field the index's
// field_map names, and any other fields — all of them, the text too, stored as the record's metadata (fetch and
// search return them). The whole body is checked, then the texts are embedded by the index's model (write
// parameters), then written in one transaction: nothing is written when one record is bad or the model fails.
import { DataPlaneError, GRPC, invalid, quote } from "../errors.js";
import { ModelError } from "../../models/errors.js";
import type { Embedding, Models } from "../../models/available-models.js";
import { embedOptions } from "../../inference/validate.js";
import { ControlError } from "../../control/errors.js";
import type { WriteRecord } from "../../storage/store.js";
import type { DataPlaneIndex, RouteContext } from "../types.js";
import { checkId, describe, LIMITS, metadataJson, type Json } from "../validate.js";

/** The hosted service's limits for text upserts: 96 records and 2 MB a request. */
const TEXT_UPSERT_LIMITS = { records: 96, bytes: 2 * 1024 * 1024 } as const;

export function requireEmbed(index: DataPlaneIndex, what: string): NonNullable<DataPlaneIndex["embed"]> {
  if (!index.embed) {
    throw invalid(
      `${what} needs an index with integrated embedding; index ${index.name} has none (it was made with POST /indexes, not create-for-model). ` +
        (what.startsWith("Upserting") ? "Upsert vectors with /vectors/upsert instead." : "Search it with a vector or an id instead."),
    );
  }
  return index.embed;
}

export function requireModels(models: Models | undefined): Models {
  if (!models) throw new DataPlaneError(503, 14, "The local service has no model inventory on this port");
  return models;
}

/** ModelError / ControlError (from the models or their parameters) in the data plane's shape. */
export async function asData<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ModelError || e instanceof ControlError) {
      const code = e.status === 400 ? GRPC.INVALID_ARGUMENT : e.status === 429 ? 8 : 14;
      throw new DataPlaneError(e.status, code, e.message);
    }
    throw e;
  }
}

export async function upsertRecords({ req, index, store, models }: RouteContext, namespace: string): Promise<void> {
  const embed = requireEmbed(index, "Upserting text records");
  if (req.body.length > TEXT_UPSERT_LIMITS.bytes) {
    throw invalid(`Request body is ${req.body.length} bytes; the maximum for a text upsert is ${TEXT_UPSERT_LIMITS.bytes} bytes (2 MB)`);
  }
  const lines = req.body.toString("utf8").split("\n");
  const records: { id: string; text: string; metadataJson: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].trim();
    if (text === "") continue;
    if (records.length === TEXT_UPSERT_LIMITS.records) {
      throw invalid(`The body holds more than ${TEXT_UPSERT_LIMITS.records} records; a text upsert takes at most ${TEXT_UPSERT_LIMITS.records}`);
    }
    records.push(readLine(text, i + 1, embed.fieldMap.text));
  }
  if (records.length === 0) throw invalid("The body holds no records: send one JSON object per line (NDJSON)");

  const options = await asData(async () => embedOptions(embed.writeParameters, "embed.write_parameters"));
  const model = requireModels(models);
  const out = await asData(() => model.embed(embed.model, records.map((r) => r.text), options));
  const writes = records.map((r, i): WriteRecord => toWrite(r, out.data[i], index));
  await store.upsert(index.space, namespace, writes, index.vectorType === "dense" ? index.dimension : undefined);
}

function readLine(text: string, line: number, field: string): { id: string; text: string; metadataJson: string; line: number } {
  const at = `Record on line ${line}`;
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch (e) {
    throw invalid(`${at}: not valid JSON (${(e as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw invalid(`${at}: must be a JSON object, got ${describe(value)}`);
  const { _id, id: alias, ...fields } = value;
  if (_id !== undefined && alias !== undefined && _id !== alias) throw invalid(`${at}: give _id or id, not both`);
  const id = checkId(_id ?? alias, at);
  const where = `${at} (id ${quote(id)})`;
  const t = fields[field];
  if (t === undefined || t === null) throw invalid(`${where}: the text field ${quote(field)} is missing (the index embeds that field)`);
  if (typeof t !== "string") throw invalid(`${where}: the text field ${quote(field)} must be a string, got ${describe(t)}`);
  if (t.trim() === "") throw invalid(`${where}: the text field ${quote(field)} is empty`);
  return { id, text: t, metadataJson: metadataJson(fields, where), line };
}

function toWrite(r: { id: string; metadataJson: string; line: number }, e: Embedding, index: DataPlaneIndex): WriteRecord {
  if (e.vector_type === "sparse") {
    if (e.sparse_indices.length === 0) {
      throw invalid(`Record on line ${r.line} (id ${quote(r.id)}): its text holds no words ${index.embed!.model} can index (letters or digits)`);
    }
    if (e.sparse_indices.length > LIMITS.sparseNonZeros) {
      throw invalid(`Record on line ${r.line} (id ${quote(r.id)}): its text has ${e.sparse_indices.length} distinct words; at most ${LIMITS.sparseNonZeros} fit a sparse vector`);
    }
    return {
      id: r.id,
      values: new Float32Array(0),
      sparse: { indices: Uint32Array.from(e.sparse_indices), values: Float32Array.from(e.sparse_values) },
      metadataJson: r.metadataJson,
    };
  }
  if (e.values.length !== index.dimension) {
    throw new DataPlaneError(502, 14, `The embeddings server returned ${e.values.length} values for ${index.embed!.model}; index ${index.name} has dimension ${index.dimension}`);
  }
  return { id: r.id, values: Float32Array.from(e.values), metadataJson: r.metadataJson };
}
