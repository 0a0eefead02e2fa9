// POST /vectors/upsert {vectors, namespace} → {upsertedCount}
import { invalid } from "../errors.js";
import { parseRecord } from "../records.js";
import { readUpsertBody } from "../upsert-body.js";
import { checkBodyFields } from "../known-fields.js";
import type { RouteContext } from "../types.js";
import { describe, field, type Json, LIMITS, namespaceOf, parseBody } from "../validate.js";

export async function upsert({ req, index, store }: RouteContext): Promise<{ upsertedCount: number }> {
  if (req.body.length > LIMITS.upsertBodyBytes) {
    throw invalid(`Request body is ${req.body.length} bytes; the maximum for an upsert is ${LIMITS.upsertBodyBytes} bytes (2 MB)`);
  }
  // The usual body is read straight into float32 arrays (upsert-body.ts); any other through JSON.parse.
  const { vectors, namespace: rawNamespace } = readUpsertBody(req.body) ?? parsed(req.body);
  if (vectors === undefined || vectors === null) throw invalid("vectors is required: a list of 1 to 1000 records");
  if (!Array.isArray(vectors)) throw invalid(`vectors must be a list of records, got ${describe(vectors)}`);
  if (vectors.length === 0) throw invalid("vectors must hold at least one record");
  if (vectors.length > LIMITS.upsertRecords) {
    throw invalid(`vectors has ${vectors.length} records; the maximum per upsert is ${LIMITS.upsertRecords}`);
  }
  const namespace = namespaceOf(rawNamespace);
  const records = vectors.map((v, i) => parseRecord(v, i, index));
  await store.upsert(index.space, namespace, records, index.vectorType === "dense" ? index.dimension : undefined);
  return { upsertedCount: records.length };
}

function parsed(raw: Buffer): { vectors: Json | undefined; namespace: Json | undefined } {
  const body = parseBody(raw);
  checkBodyFields("/vectors/upsert", body);
  return { vectors: field(body, "vectors"), namespace: field(body, "namespace") };
}
