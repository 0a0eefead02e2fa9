// POST /namespaces/{namespace}/documents/fetch {ids | filter, include_fields?, limit?, pagination_token?}
//   → 200 {documents: {id: {_id, …fields}}, namespace, pagination?: {next}, usage: {read_units}}
// By ids: the documents that exist (never paginated). By filter (metadata only): a page of `limit` (100 by default,
// 10,000 at most) in id order, found by the metadata index, with a token for the next page when more remain.
import { invalid } from "../../errors.js";
import { readUnits } from "../../output.js";
import { describe } from "../../validate.js";
import { checkDocumentFilter } from "../../../search/fulltext/filter.js";
import type { DocumentsContext } from "./context.js";
import { checkDocumentId, documentFields, project, readIncludeFields } from "./fields.js";
import { checkKeys } from "./keys.js";
import { readLimit, readToken, token } from "./pagination.js";

const MAX_IDS = 1000;
const MAX_LIMIT = 10_000;

export function fetchDocuments({ ctx, namespace, namespaceName, view, body }: DocumentsContext) {
  const { index, store } = ctx;
  checkKeys(body, ["ids", "filter", "include_fields", "limit", "pagination_token"], "a fetch");
  const hasIds = body.ids !== undefined && body.ids !== null;
  const hasFilter = body.filter !== undefined && body.filter !== null;
  if (hasIds && hasFilter) throw invalid("Give either 'ids' or 'filter' in a document fetch request, not both.");
  if (!hasIds && !hasFilter) {
    throw invalid("No 'ids' or 'filter' provided in the document fetch request. Provide at least one document ID in 'ids', or a metadata filter in 'filter'.");
  }
  const limit = readLimit(body.limit, MAX_LIMIT, 100);
  const include = readIncludeFields(body.include_fields, "all");
  const documents: Record<string, Record<string, unknown>> = {};
  if (hasIds) {
    if (body.pagination_token !== undefined && body.pagination_token !== null) throw invalid("pagination_token applies only to a fetch by filter");
    if (!Array.isArray(body.ids) || body.ids.length === 0) throw invalid(`ids must be a non-empty list of document ids, got ${describe(body.ids)}`);
    if (body.ids.length > MAX_IDS) throw invalid(`ids has ${body.ids.length} ids; the maximum is ${MAX_IDS} per request`);
    const ids = body.ids.map((id, i) => checkDocumentId(id, `Id at position ${i}`));
    for (const id of ids) {
      const r = store.get(index.space, namespace, id);
      if (r) documents[id] = { _id: id, ...project(documentFields(view, r), include) };
    }
    return { documents, namespace: namespaceName, usage: { read_units: readUnits(ids.length) } };
  }
  const filter = body.filter!;
  if (typeof filter === "object" && !Array.isArray(filter) && Object.keys(filter).length === 0) {
    throw invalid("filter must not be empty: an empty filter is refused rather than matching every document");
  }
  const compiled = checkDocumentFilter(filter, new Set(view.fullText.keys()), false);
  const after = readToken(body.pagination_token);
  let next: Buffer | undefined;
  let lastPosition: Buffer | undefined;
  let n = 0;
  for (const { position, record } of store.scanMatching(index.space, namespace, compiled, { after })) {
    if (n === limit) {
      next = lastPosition;
      break;
    }
    documents[record.id] = { _id: record.id, ...project(documentFields(view, record), include) };
    lastPosition = position;
    n++;
  }
  return { documents, namespace: namespaceName, ...(next ? { pagination: { next: token(next) } } : {}), usage: { read_units: readUnits(n) } };
}
