// POST /namespaces/{namespace}/documents/list {prefix?, limit?, pagination_token?}
//   → 200 {documents: [{_id}], namespace, pagination?: {next}, usage: {read_units}}: ids in byte order, 100 a page.
import { invalid } from "../../errors.js";
import { describe } from "../../validate.js";
import type { DocumentsContext } from "./context.js";
import { checkKeys } from "./keys.js";
import { readLimit, readToken, token } from "./pagination.js";

export function listDocuments({ ctx, namespace, namespaceName, body }: DocumentsContext) {
  const { index, store } = ctx;
  checkKeys(body, ["prefix", "limit", "pagination_token"], "a list");
  const prefix = body.prefix;
  if (prefix !== undefined && prefix !== null) {
    if (typeof prefix !== "string" || !/^[\x01-\x7F]*$/.test(prefix) || prefix.length > 512) throw invalid(`prefix must be at most 512 ASCII characters without NUL, got ${describe(prefix)}`);
  }
  const limit = readLimit(body.limit, 100, 100);
  const page = store.listIds(index.space, namespace, { prefix: typeof prefix === "string" ? prefix : undefined, after: readToken(body.pagination_token), limit });
  return {
    documents: page.ids.map((_id) => ({ _id })),
    namespace: namespaceName,
    ...(page.next ? { pagination: { next: token(page.next) } } : {}),
    usage: { read_units: 1 },
  };
}
