// A document as written: checked against the index's schema (every rule names the document and the field) and
// turned into the stored record — the dense field as its values, the sparse field as its sparse values, every other
// field (full-text and metadata) in the record's metadata JSON. And back: a stored record as a document.
import { float32Doubles } from "../../../../common/float32.js";
import { wordCount } from "../../../search/fulltext/analyzer.js";
import type { StoredRecord, WriteRecord } from "../../../storage/store.js";
import { invalid, quote } from "../../errors.js";
import { denseValues, describe, sparseValues, type Json, type JsonObject } from "../../validate.js";
import type { SchemaView } from "./schema-view.js";

export const DOCUMENT_LIMITS = {
  documentBytes: 2 * 1024 * 1024,
  requestBytes: 2 * 1024 * 1024,
  documents: 1000,
  fullTextBytes: 100 * 1024,
  fullTextTokens: 10_000,
  idChars: 512,
} as const;

const ID = /^[\x01-\x7F]+$/;

/** A document id: 1–512 ASCII characters without NUL. */
export function checkDocumentId(id: Json | undefined, where: string): string {
  if (id === undefined || id === null) throw invalid(`${where}: _id is required`);
  if (typeof id !== "string") throw invalid(`${where}: _id must be a string, got ${describe(id)}`);
  if (id.length === 0 || id.length > DOCUMENT_LIMITS.idChars) throw invalid(`${where}: _id must be 1 to ${DOCUMENT_LIMITS.idChars} characters long, got ${id.length}`);
  if (!ID.test(id)) throw invalid(`${where} (_id ${quote(id)}): _id must be ASCII characters without NUL`);
  return id;
}

/** Checks one field's value against the schema; `where` names the document. */
export function checkFieldValue(view: SchemaView, name: string, value: Json, where: string): void {
  const at = `${where}: field ${quote(name)}`;
  if (name.startsWith("$")) throw invalid(`${at}: field names must not start with $ (it introduces a filter operator)`);
  if (name.startsWith("_")) throw invalid(`${at}: names starting with _ are reserved`);
  if (name === "") throw invalid(`${where}: a field name must not be empty`);
  if (view.dense?.name === name) {
    const values = denseValues(value, at, view.dense.dimension);
    if (values.every((v) => v === 0)) throw invalid(`${at}: a dense vector must have at least one non-zero value`);
    return;
  }
  if (view.sparse?.name === name) {
    const sv = sparseValues(value, at);
    if (sv.indices.length === 0) throw invalid(`${at}: a sparse vector must have at least one value`);
    return;
  }
  if (view.fullText.has(name)) {
    if (typeof value !== "string") throw invalid(`${at} is a full-text field: its value must be a string, got ${describe(value)}`);
    const bytes = Buffer.byteLength(value, "utf8");
    if (bytes > DOCUMENT_LIMITS.fullTextBytes) throw invalid(`${at}: a full-text value is at most ${DOCUMENT_LIMITS.fullTextBytes} bytes (100 KB), got ${bytes}`);
    const tokens = wordCount(value);
    if (tokens > DOCUMENT_LIMITS.fullTextTokens) throw invalid(`${at}: a full-text value is at most ${DOCUMENT_LIMITS.fullTextTokens} tokens, got ${tokens}`);
    return;
  }
  const rule = "a metadata value must be a string, number, boolean or list of strings";
  if (value === null) throw invalid(`${at} is null; ${rule}`);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (typeof item !== "string") throw invalid(`${at}[${i}] is ${describe(item)}; a list may hold only strings`);
    });
  } else if (typeof value === "object") throw invalid(`${at} is an object; ${rule}`);
}

/** A whole document's fields (not its _id) checked; at least one must be a schema field. */
export function checkDocumentFields(view: SchemaView, fields: JsonObject, where: string): void {
  let declared = false;
  for (const [name, value] of Object.entries(fields)) {
    checkFieldValue(view, name, value, where);
    if (view.declared.has(name)) declared = true;
  }
  if (!declared) throw invalid(`${where}: a document must carry at least one field of the index's schema (${[...view.declared].map((f) => quote(f)).join(", ")})`);
}

/** The stored record of a checked document. */
export function toWriteRecord(view: SchemaView, id: string, fields: JsonObject): WriteRecord {
  const metadata: JsonObject = {};
  let values: Float32Array = new Float32Array(view.dense?.dimension ?? 0);
  let sparse: WriteRecord["sparse"];
  for (const [name, value] of Object.entries(fields)) {
    if (view.dense?.name === name) values = denseValues(value, name, view.dense.dimension);
    else if (view.sparse?.name === name) sparse = sparseValues(value, name);
    else metadata[name] = value;
  }
  return { id, values, sparse, metadataJson: Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : undefined };
}

/** A stored record as the document's fields (its dense field when it has one: all zeros is no vector). */
export function documentFields(view: SchemaView, r: { values: Float32Array; sparse?: StoredRecord["sparse"]; metadataJson?: string }): Record<string, unknown> {
  const out: Record<string, unknown> = r.metadataJson === undefined ? {} : (JSON.parse(r.metadataJson) as Record<string, unknown>);
  if (view.dense && r.values.some((v) => v !== 0)) out[view.dense.name] = float32Doubles(r.values);
  if (view.sparse && r.sparse) out[view.sparse.name] = { indices: Array.from(r.sparse.indices), values: float32Doubles(r.sparse.values) };
  return out;
}

/** The fields to return: all, or those named (`["*"]`: all). */
export function project(fields: Record<string, unknown>, include: readonly string[] | "all"): Record<string, unknown> {
  if (include === "all") return fields;
  const out: Record<string, unknown> = {};
  for (const name of include) if (Object.hasOwn(fields, name)) out[name] = fields[name];
  return out;
}

/** include_fields: a list of field names; `*` alone means every field. */
export function readIncludeFields(value: Json | undefined, whenAbsent: "all" | "none"): readonly string[] | "all" {
  if (value === undefined || value === null) return whenAbsent === "all" ? "all" : [];
  if (!Array.isArray(value) || !value.every((f) => typeof f === "string")) throw invalid(`include_fields must be a list of field names, got ${describe(value)}`);
  if (value.includes("*")) return "all";
  if (value.length === 0) return whenAbsent === "all" ? "all" : [];
  return value as string[];
}
