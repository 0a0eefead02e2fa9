// POST /namespaces/{namespace}/documents/update → 202
//   {documents: [{_id, _remove_fields?, …fields to set}]} → {}: each document patched; an absent one is left alone
//   {filter, set_fields?, remove_fields?} → {matched_records}: one patch for every document the filter keeps
// Every patch is checked against the schema before anything is written; a field may not be both set and removed.
import { invalid, quote } from "../../errors.js";
import { keepsJson } from "../../../search/filter.js";
import { checkDocumentFilter } from "../../../search/fulltext/filter.js";
import type { StoredRecord, WriteRecord } from "../../../storage/store.js";
import { describe, type Json, type JsonObject } from "../../validate.js";
import type { DocumentsContext } from "./context.js";
import { checkDocumentId, checkFieldValue, documentFields, toWriteRecord } from "./fields.js";
import { checkKeys } from "./keys.js";
import type { SchemaView } from "./schema-view.js";

const MAX_DOCUMENTS = 1000;

interface Patch { set: JsonObject; remove: string[] }

export async function updateDocuments({ ctx, namespace, view, body }: DocumentsContext): Promise<{ matched_records?: number }> {
  const { index, store } = ctx;
  checkKeys(body, ["documents", "filter", "set_fields", "remove_fields"], "an update");
  const setFields = body.set_fields;
  const removeFields = body.remove_fields;
  if (setFields !== undefined && setFields !== null && (typeof setFields !== "object" || Array.isArray(setFields))) throw invalid(`set_fields must be an object of field values, got ${describe(setFields)}`);
  if (removeFields !== undefined && removeFields !== null && (!Array.isArray(removeFields) || !removeFields.every((f) => typeof f === "string"))) {
    throw invalid(`remove_fields must be a list of field names, got ${describe(removeFields)}`);
  }
  const set = (setFields ?? {}) as JsonObject;
  const remove = (removeFields ?? []) as string[];
  const byFilter = Object.keys(set).length > 0 || remove.length > 0;
  const hasDocuments = body.documents !== undefined && body.documents !== null;
  const hasFilter = body.filter !== undefined && body.filter !== null;
  if (hasDocuments && (hasFilter || byFilter)) throw invalid("Give either 'documents' or a by-filter patch ('filter' with 'set_fields' / 'remove_fields') in a document update request, not both.");
  if (!hasDocuments && !hasFilter) throw invalid("Give 'documents' (per-ID patches) or 'filter' with 'set_fields' / 'remove_fields' in a document update request.");

  if (hasDocuments) {
    const docs = body.documents;
    if (!Array.isArray(docs) || docs.length === 0) throw invalid(`documents must be a non-empty list of patches, got ${describe(docs)}`);
    if (docs.length > MAX_DOCUMENTS) throw invalid(`documents has ${docs.length} patches; the maximum is ${MAX_DOCUMENTS} per request`);
    const patches = docs.map((d, i) => readPatch(d, i, view));
    await Promise.all(patches.map(({ id, patch }) => store.update(index.space, namespace, id, (r) => patched(view, r, patch))));
    return {};
  }
  if (!byFilter) throw invalid("A by-filter update needs a non-empty 'set_fields' or 'remove_fields'.");
  const filter = body.filter!;
  if (typeof filter === "object" && !Array.isArray(filter) && Object.keys(filter).length === 0) {
    throw invalid("filter must not be empty: an empty filter is refused rather than matching every document");
  }
  const compiled = checkDocumentFilter(filter, new Set(view.fullText.keys()), false);
  const patch = checkPatch({ set, remove }, view, "The by-filter patch");
  const matched = await store.rewriteWhere(index.space, namespace, (r) => {
    if (!keepsJson(compiled, r.metadataJson)) return undefined;
    return patched(view, r, patch);
  });
  return { matched_records: matched };
}

function readPatch(d: Json, i: number, view: SchemaView): { id: string; patch: Patch } {
  const where = `Patch at position ${i}`;
  if (d === null || typeof d !== "object" || Array.isArray(d)) throw invalid(`${where} must be an object with an _id, got ${describe(d)}`);
  const { _id, _remove_fields, ...set } = d as JsonObject;
  const id = checkDocumentId(_id, where);
  if (_remove_fields !== undefined && _remove_fields !== null && (!Array.isArray(_remove_fields) || !_remove_fields.every((f) => typeof f === "string"))) {
    throw invalid(`${where} (_id ${quote(id)}): _remove_fields must be a list of field names, got ${describe(_remove_fields)}`);
  }
  return { id, patch: checkPatch({ set, remove: (_remove_fields ?? []) as string[] }, view, `${where} (_id ${quote(id)})`) };
}

function checkPatch(patch: Patch, view: SchemaView, where: string): Patch {
  for (const [name, value] of Object.entries(patch.set)) checkFieldValue(view, name, value, where);
  for (const name of patch.remove) {
    if (Object.hasOwn(patch.set, name)) throw invalid(`${where}: field ${quote(name)} is both set and removed`);
    if (name.startsWith("_")) throw invalid(`${where}: field ${quote(name)} cannot be removed (names starting with _ are reserved)`);
  }
  return patch;
}

/** The document with the patch applied (a checked patch cannot make it invalid: nothing here throws). */
function patched(view: SchemaView, r: StoredRecord, patch: Patch): WriteRecord {
  const fields = documentFields(view, r) as JsonObject;
  for (const name of patch.remove) delete fields[name];
  Object.assign(fields, patch.set);
  return toWriteRecord(view, r.id, fields);
}
