import { ScannedValues } from "../check.js";
import type { SourceRecord } from "./types.js";

export type ShapeResult = { record: SourceRecord; error?: undefined; id?: undefined } | { record?: undefined; error: string; id?: string };

const KNOWN = new Set(["id", "values", "sparseValues", "sparse_values", "metadata"]);
// Field names a record is often written with by mistake. Only these are named back in a message: any other name is
// the file's own text, which results never quote (the file may be one the model should not read).
const USUAL_MISTAKES = new Set(["vector", "vectors", "embedding", "embeddings", "value", "sparse", "sparseVector", "sparse_vector", "text", "score", "namespace"]);

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

function numberList(v: unknown, field: string): number[] | string {
  if (v === undefined) return `missing "${field}"`;
  if (v instanceof ScannedValues) return v as unknown as number[]; // checked while scanned (record-line.ts)
  if (!Array.isArray(v)) return `"${field}" must be a list of numbers, got ${describe(v)}`;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== "number" || !Number.isFinite(x)) {
      return `"${field}[${i}]" must be a finite number, got ${typeof x === "number" ? String(x) : describe(x)}`;
    }
  }
  return v as number[];
}

/**
 * Checks the shape of one decoded record (types only; dimension and limits are the index checks' job).
 * Accepts `sparseValues` or the wire spelling `sparse_values`; fields other than these are refused so a typo
 * (e.g. "vector") is reported instead of silently dropped.
 */
export function recordFromObject(obj: unknown): ShapeResult {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
    return { error: `a record must be a JSON object, got ${describe(obj)}` };
  }
  const o = obj as Record<string, unknown>;
  if (typeof o.id !== "string") {
    return { error: o.id === undefined ? `missing "id"` : `"id" must be a string, got ${describe(o.id)}` };
  }
  const id = o.id;
  const fail = (error: string): ShapeResult => ({ error, id });
  const keys = Object.keys(o);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    if (KNOWN.has(key)) continue;
    const which = USUAL_MISTAKES.has(key) ? `"${key}"` : `(field ${k + 1} of the record)`;
    return fail(`unknown field ${which} (allowed: id, values, sparseValues, metadata)`);
  }
  const record: SourceRecord = { id };
  if (o.values !== undefined && o.values !== null) {
    const values = numberList(o.values, "values");
    if (typeof values === "string") return fail(values);
    record.values = values;
  }
  if (o.sparseValues !== undefined && o.sparse_values !== undefined) {
    return fail(`give "sparseValues" or "sparse_values", not both`);
  }
  const sparseKey = o.sparseValues !== undefined ? "sparseValues" : "sparse_values";
  const sparse = o[sparseKey];
  if (sparse !== undefined && sparse !== null) {
    if (typeof sparse !== "object" || Array.isArray(sparse)) {
      return fail(`"${sparseKey}" must be an object {indices, values}, got ${describe(sparse)}`);
    }
    const s = sparse as Record<string, unknown>;
    const indices = numberList(s.indices, `${sparseKey}.indices`);
    if (typeof indices === "string") return fail(indices);
    const values = numberList(s.values, `${sparseKey}.values`);
    if (typeof values === "string") return fail(values);
    record.sparseValues = { indices, values };
  }
  if (o.metadata !== undefined && o.metadata !== null) {
    if (typeof o.metadata !== "object" || Array.isArray(o.metadata)) {
      return fail(`"metadata" must be an object, got ${describe(o.metadata)}`);
    }
    record.metadata = o.metadata as Record<string, unknown>;
  }
  return { record };
}
