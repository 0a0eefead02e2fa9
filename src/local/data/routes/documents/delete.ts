// POST /namespaces/{namespace}/documents/delete {ids | filter | delete_all: true} → 202 {} ({matched_records} by filter)
// A filter selects on metadata alone (no $match_*); the documents it keeps are found by the metadata index and each
// checked again inside the deleting transaction.
import { invalid } from "../../errors.js";
import { checkDocumentFilter } from "../../../search/fulltext/filter.js";
import { describe } from "../../validate.js";
import type { DocumentsContext } from "./context.js";
import { checkDocumentId } from "./fields.js";
import { checkKeys } from "./keys.js";

const MAX_IDS = 1000;

export async function deleteDocuments({ ctx, namespace, view, body }: DocumentsContext): Promise<{ matched_records?: number }> {
  const { index, store } = ctx;
  checkKeys(body, ["ids", "filter", "delete_all"], "a delete");
  const deleteAll = body.delete_all;
  if (deleteAll !== undefined && deleteAll !== null && typeof deleteAll !== "boolean") throw invalid(`delete_all must be true or false, got ${describe(deleteAll)}`);
  const given = [body.ids !== undefined && body.ids !== null && "ids", body.filter !== undefined && body.filter !== null && "filter", deleteAll === true && "delete_all"].filter(Boolean);
  if (given.length !== 1) {
    throw invalid(given.length === 0 ? "Give one of 'ids', 'filter' or 'delete_all' in a document delete request." : `Give only one of 'ids', 'filter' or 'delete_all' in a document delete request (got ${given.join(", ")}).`);
  }
  if (deleteAll === true) {
    await store.deleteAll(index.space, namespace);
    return {};
  }
  if (body.ids !== undefined && body.ids !== null) {
    if (!Array.isArray(body.ids) || body.ids.length === 0) throw invalid(`ids must be a non-empty list of document ids, got ${describe(body.ids)}`);
    if (body.ids.length > MAX_IDS) throw invalid(`ids has ${body.ids.length} ids; the maximum is ${MAX_IDS} per request`);
    await store.deleteIds(index.space, namespace, body.ids.map((id, i) => checkDocumentId(id, `Id at position ${i}`)));
    return {};
  }
  const filter = body.filter!;
  if (typeof filter === "object" && !Array.isArray(filter) && Object.keys(filter).length === 0) {
    throw invalid("filter must not be empty: an empty filter is refused rather than matching every document (to delete them all, set delete_all)");
  }
  const compiled = checkDocumentFilter(filter, new Set(view.fullText.keys()), false);
  const matched = store.countMatching(index.space, namespace, compiled);
  await store.deleteMatching(index.space, namespace, compiled);
  return { matched_records: matched };
}
