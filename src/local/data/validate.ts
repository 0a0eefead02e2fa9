// Parsing and checking of data-plane request parts, with the service's limits. Every check throws a
// DataPlaneError (400) whose message names the record and the rule; nothing is written before all pass.
import type { SparseVector } from "../storage/codec.js";
import { describe, quote, type Json, type JsonObject } from "../json.js";
import { invalid } from "./errors.js";

export const LIMITS = {
  upsertRecords: 1000,
  upsertBodyBytes: 2 * 1024 * 1024,
  idChars: 512,
  metadataBytes: 40960,
  sparseNonZeros: 2048,
  namespaceChars: 512,
  topK: 10000,
  idsPerRequest: 1000,
  maxDimension: 20000,
  listLimit: 100,
} as const;

export const DEFAULT_NAMESPACE_ALIAS = "__default__";

export type { Json, JsonObject } from "../json.js";
export { describe } from "../json.js";

export function parseBody(body: Buffer): JsonObject {
  const text = body.toString("utf8").trim();
  if (text === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw invalid(`Malformed JSON in request body: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid("The request body must be a JSON object");
  }
  return parsed as JsonObject;
}

/** Reads a field by its camelCase name or its snake_case name (the service accepts both). */
export function field(obj: JsonObject, camel: string): Json | undefined {
  if (camel in obj) return obj[camel];
  const snake = camel.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
  return snake in obj ? obj[snake] : undefined;
}

export function optionalBoolean(obj: JsonObject, name: string): boolean | undefined {
  const v = field(obj, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw invalid(`${name} must be a boolean, got ${describe(v)}`);
  return v;
}

export function optionalString(obj: JsonObject, name: string): string | undefined {
  const v = field(obj, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalid(`${name} must be a string, got ${describe(v)}`);
  return v;
}

/** The namespace a request names; "" and "__default__" are the same, default namespace. */
export function namespaceOf(value: Json | string | undefined | null): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw invalid(`namespace must be a string, got ${describe(value)}`);
  const chars = [...value].length;
  if (chars > LIMITS.namespaceChars) {
    throw invalid(`Namespace is ${chars} characters long; the maximum is ${LIMITS.namespaceChars}`);
  }
  return value === DEFAULT_NAMESPACE_ALIAS ? "" : value;
}

/** Checks an id; `where` is the prefix naming what carries it, e.g. "Vector at position 3". */
export function checkId(id: Json | undefined, where: string): string {
  if (id === undefined || id === null) throw invalid(`${where}: id is required`);
  if (typeof id !== "string") throw invalid(`${where}: id must be a string, got ${describe(id)}`);
  if (id.length === 0) throw invalid(`${where}: id must not be empty`);
  const chars = [...id].length;
  if (chars > LIMITS.idChars) {
    throw invalid(`${where} (id ${quote(id)}): id is ${chars} characters long; the maximum is ${LIMITS.idChars}`);
  }
  if (id.includes("\u0000")) throw invalid(`${where} (id ${quote(id.replace(/\u0000/g, "\\0"))}): id must not contain the NUL character`);
  return id;
}

export function checkIdList(value: Json | undefined, what: string): string[] {
  if (!Array.isArray(value)) throw invalid(`${what} must be a list of ids, got ${describe(value)}`);
  if (value.length > LIMITS.idsPerRequest) {
    throw invalid(`${what} has ${value.length} ids; the maximum is ${LIMITS.idsPerRequest} per request`);
  }
  return value.map((id, i) => checkId(id, `Id at position ${i}`));
}

/** Dense values as float32 (read as such already by upsert-body.ts, or checked here); `where` names the record. */
export function denseValues(value: Json | Float32Array | undefined, where: string, dimension: number): Float32Array {
  if (value instanceof Float32Array) {
    if (value.length !== dimension) throw invalid(`${where}: dimension ${value.length} does not match the dimension of the index ${dimension}`);
    return value;
  }
  if (!Array.isArray(value)) throw invalid(`${where}: values must be a list of numbers, got ${describe(value)}`);
  if (value.length !== dimension) {
    throw invalid(`${where}: dimension ${value.length} does not match the dimension of the index ${dimension}`);
  }
  const out = new Float32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v !== "number") throw invalid(`${where}: values[${i}] must be a number, got ${describe(v)}`);
    if (!Number.isFinite(Math.fround(v))) throw invalid(`${where}: values[${i}] = ${v} is outside the range of a 32-bit float`);
    out[i] = v;
  }
  return out;
}

export function sparseValues(value: Json | undefined, where: string): SparseVector {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid(`${where}: sparseValues must be an object with indices and values, got ${describe(value)}`);
  }
  const { indices, values } = value;
  if (!Array.isArray(indices)) throw invalid(`${where}: sparseValues.indices must be a list of integers, got ${describe(indices)}`);
  if (!Array.isArray(values)) throw invalid(`${where}: sparseValues.values must be a list of numbers, got ${describe(values)}`);
  if (indices.length !== values.length) {
    throw invalid(`${where}: sparseValues.indices and sparseValues.values must have the same length (${indices.length} and ${values.length})`);
  }
  if (indices.length > LIMITS.sparseNonZeros) {
    throw invalid(`${where}: sparseValues has ${indices.length} non-zero values; the maximum is ${LIMITS.sparseNonZeros}`);
  }
  const outIdx = new Uint32Array(indices.length);
  const outVal = new Float32Array(values.length);
  const seen = new Set<number>();
  for (let i = 0; i < indices.length; i++) {
    const ix = indices[i];
    if (typeof ix !== "number" || !Number.isInteger(ix) || ix < 0 || ix > 0xffffffff) {
      throw invalid(`${where}: sparseValues.indices[${i}] = ${JSON.stringify(ix)} is not an unsigned 32-bit integer`);
    }
    if (seen.has(ix)) throw invalid(`${where}: sparseValues.indices contains ${ix} more than once`);
    seen.add(ix);
    const v = values[i];
    if (typeof v !== "number") throw invalid(`${where}: sparseValues.values[${i}] must be a number, got ${describe(v)}`);
    if (!Number.isFinite(Math.fround(v))) throw invalid(`${where}: sparseValues.values[${i}] = ${v} is outside the range of a 32-bit float`);
    outIdx[i] = ix;
    outVal[i] = v;
  }
  return { indices: outIdx, values: outVal };
}

/** Checks a metadata object and returns its JSON text (the exact form that is stored). */
export function metadataJson(value: Json | undefined, where: string): string {
  checkMetadataObject(value, where);
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > LIMITS.metadataBytes) {
    throw invalid(`${where}: metadata is ${bytes} bytes; the maximum is ${LIMITS.metadataBytes} bytes per record`);
  }
  return json;
}

export function checkMetadataObject(value: Json | undefined, where: string): asserts value is JsonObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid(`${where}: metadata must be an object, got ${describe(value)}`);
  }
  for (const [k, v] of Object.entries(value)) {
    const rule = "metadata values must be a string, number, boolean or list of strings";
    if (v === null) throw invalid(`${where}: metadata field ${quote(k)} is null; ${rule}`);
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (typeof item !== "string") {
          throw invalid(`${where}: metadata field ${quote(k)}[${i}] is ${describe(item)}; a list may hold only strings`);
        }
      });
    } else if (typeof v === "object") {
      throw invalid(`${where}: metadata field ${quote(k)} is a nested object; ${rule}`);
    }
  }
}
