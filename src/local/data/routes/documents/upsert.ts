// POST /namespaces/{namespace}/documents/upsert {documents: [{_id, …fields}]} → 202 {upserted_count}
// Every document is checked against the schema before anything is written; then all are written in one commit,
// acknowledged once on disk and in memory (the full-text postings included, kept from the first upsert on).
import { invalid } from "../../errors.js";
import { describe, type JsonObject } from "../../validate.js";
import type { DocumentsContext } from "./context.js";
import { checkDocumentFields, checkDocumentId, DOCUMENT_LIMITS, toWriteRecord } from "./fields.js";
import { checkKeys } from "./keys.js";
import { documentText } from "../../../search/fulltext/search.js";

export async function upsertDocuments({ ctx, namespace, view, body }: DocumentsContext): Promise<{ upserted_count: number }> {
  const { req, index, store } = ctx;
  if (req.body.length > DOCUMENT_LIMITS.requestBytes) throw invalid(`Request body is ${req.body.length} bytes; the maximum for a documents upsert is ${DOCUMENT_LIMITS.requestBytes} bytes (2 MB)`);
  checkKeys(body, ["documents"], "an upsert");
  const documents = body.documents;
  if (documents === undefined || documents === null) throw invalid("documents is required: a list of 1 to 1000 documents");
  if (!Array.isArray(documents)) throw invalid(`documents must be a list of documents, got ${describe(documents)}`);
  if (documents.length === 0) throw invalid("documents must hold at least one document");
  if (documents.length > DOCUMENT_LIMITS.documents) throw invalid(`documents has ${documents.length} documents; the maximum per upsert is ${DOCUMENT_LIMITS.documents}`);
  const records = documents.map((doc, i) => {
    const where = `Document at position ${i}`;
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw invalid(`${where} must be an object, got ${describe(doc)}`);
    const bytes = Buffer.byteLength(JSON.stringify(doc), "utf8");
    if (bytes > DOCUMENT_LIMITS.documentBytes) throw invalid(`${where} is ${bytes} bytes; a document is at most ${DOCUMENT_LIMITS.documentBytes} bytes (2 MB)`);
    const { _id, ...fields } = doc as JsonObject;
    const id = checkDocumentId(_id, where);
    checkDocumentFields(view, fields, `${where} (_id '${id}')`);
    return toWriteRecord(view, id, fields);
  });
  await store.upsert(index.space, namespace, records, view.dense?.dimension ?? 0);
  // the namespace's full-text postings follow its writes from the first one on, so no search has to build them
  const nv = store.namespaceInMemory(index.space, namespace);
  if (nv) documentText(nv, view.fullText);
  return { upserted_count: records.length };
}
