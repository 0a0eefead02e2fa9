// Which API serves an index's data, from its schema: a document index (typed fields made with API version 2026-07)
// takes only the documents operations; an index of the vectors or records API refuses them. Index stats and the
// namespace operations serve both. The refusals are 400 and name the API to use instead, as the service's are.
import { documentSchema } from "./document-schema.js";
import type { DataPlaneIndex, DataPlaneResponse } from "./types.js";

const DOCUMENTS_PATH = /^\/namespaces\/[^/]+\/documents(\/|$)/;
/** The vector and record data operations a document index refuses (stats and namespaces stay open to it). */
const VECTORS_PATH = /^\/(vectors\/|query$|records\/)/;

function refusal(message: string): DataPlaneResponse {
  return { status: 400, body: { status: 400, error: { code: "INVALID_ARGUMENT", message } } };
}

/** The answer for a request the index's API does not serve, or undefined when the route is its API's own. */
export function wrongApiRefusal(index: DataPlaneIndex, path: string): DataPlaneResponse | undefined {
  const documents = documentSchema(index) !== undefined;
  if (!documents && DOCUMENTS_PATH.test(path)) {
    return refusal(
      index.embed
        ? `Index ${index.name} is served by the records API (it was created with an integrated embedding model), not the documents API: use /records/namespaces/{namespace}/upsert and /records/namespaces/{namespace}/search.`
        : `Index ${index.name} is served by the vectors API (it was created from dimension and metric, or from the reserved _values / _sparse_values schema), not the documents API: use /vectors/upsert, /query, /vectors/fetch, /vectors/update, /vectors/delete and /vectors/list.`,
    );
  }
  if (documents && VECTORS_PATH.test(path)) {
    return refusal(
      `Index ${index.name} is a document index (it was created with a document schema), served by the documents API only: use /namespaces/{namespace}/documents/upsert, search, fetch, update, delete and list.`,
    );
  }
  return undefined;
}
