// POST /namespaces/{namespace}/documents/{upsert, search, fetch, delete, update, list} on a document index (API
// version 2026-07): the namespace resolved through a namespace alias for reads (writes to an alias refused), the body
// parsed, the operation run; every failure answered in the documents' error shape {status, error: {code, message}}.
import { GRPC, quote, refusalOf } from "../../errors.js";
import { documentSchema } from "../../document-schema.js";
import { throughAliases } from "../../namespace-aliases.js";
import type { DataPlaneResponse, RouteContext } from "../../types.js";
import { namespaceOf, parseBody } from "../../validate.js";
import type { DocumentsContext } from "./context.js";
import { deleteDocuments } from "./delete.js";
import { fetchDocuments } from "./fetch.js";
import { listDocuments } from "./list.js";
import { schemaView } from "./schema-view.js";
import { searchDocuments } from "./search.js";
import { updateDocuments } from "./update.js";
import { upsertDocuments } from "./upsert.js";

const DOCUMENTS = /^\/namespaces\/([^/]+)\/documents(?:\/([^/]*))?$/;

const OPERATIONS: Record<string, { run: (d: DocumentsContext) => unknown; status: number }> = {
  upsert: { run: upsertDocuments, status: 202 },
  search: { run: searchDocuments, status: 200 },
  fetch: { run: fetchDocuments, status: 200 },
  delete: { run: deleteDocuments, status: 202 },
  update: { run: updateDocuments, status: 202 },
  list: { run: listDocuments, status: 200 },
};

const CODE_NAMES: Record<number, string> = {
  [GRPC.INVALID_ARGUMENT]: "INVALID_ARGUMENT",
  [GRPC.NOT_FOUND]: "NOT_FOUND",
  [GRPC.ALREADY_EXISTS]: "ALREADY_EXISTS",
  [GRPC.FAILED_PRECONDITION]: "FAILED_PRECONDITION",
  [GRPC.UNIMPLEMENTED]: "UNIMPLEMENTED",
  [GRPC.INTERNAL]: "INTERNAL",
};

function failure(status: number, code: string, message: string): DataPlaneResponse {
  return { status, body: { status, error: { code, message } } };
}

/** The answer to a documents request, or undefined when the path is not one (a document index's other routes). */
export async function documentsRoute(ctx: RouteContext, path: string): Promise<DataPlaneResponse | undefined> {
  const m = DOCUMENTS.exec(path);
  if (!m) return undefined;
  try {
    const operation = OPERATIONS[m[2] ?? ""];
    if (!operation) return failure(404, "NOT_FOUND", `Not found: ${path} is not a documents operation; the operations are ${Object.keys(OPERATIONS).join(", ")}`);
    if (ctx.req.method.toUpperCase() !== "POST") return failure(405, "UNIMPLEMENTED", `Method ${ctx.req.method} is not allowed on ${path}; use POST`);
    const schema = documentSchema(ctx.index);
    if (!schema) return failure(400, "INVALID_ARGUMENT", `Index ${ctx.index.name} is not a document index`);
    const req = throughAliases(ctx, path);
    const resolved = DOCUMENTS.exec(req.pathname) ?? m;
    let namespaceName: string;
    try {
      namespaceName = decodeURIComponent(resolved[1]);
    } catch {
      return failure(400, "INVALID_ARGUMENT", "The namespace in the path is not valid percent-encoding");
    }
    if (!/^[\x01-\x7F]+$/.test(namespaceName)) return failure(400, "INVALID_ARGUMENT", `Namespace ${quote(namespaceName)} must be ASCII without NUL`);
    const namespace = namespaceOf(namespaceName);
    const body = await operation.run({ ctx: { ...ctx, req }, namespace, namespaceName, view: schemaView(schema), body: parseBody(req.body) });
    return { status: operation.status, body };
  } catch (e) {
    const refused = refusalOf(e);
    if (refused) return failure(refused.status, CODE_NAMES[refused.code] ?? "UNKNOWN", refused.message);
    return failure(500, "INTERNAL", `Internal error: ${e instanceof Error ? e.message : String(e)}`);
  }
}
