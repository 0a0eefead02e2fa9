// The data plane of one index: routes a request that arrived on the index's own port.
// Every failure is answered in the service's data-plane error shape; nothing escapes as an exception.
//
// Semantics where the published API leaves a choice:
// - Default namespace: "" and "__default__" name the same namespace. Responses and describe_index_stats call
//   it "" (as the spec's examples do); the namespace API (/namespaces) calls it "__default__".
// - Scores: cosine and dotproduct, higher first; euclidean is the SQUARED distance, lower first (as the service
//   documents). Ties go by id. Stored values are 32-bit floats; fetch returns exactly Math.fround(input).
// - Update of an id that does not exist: 404, code 5 NOT_FOUND (nothing is created).
// - List: ids in byte order of UTF-8 (bitwise "C" collation), limit 1-100, default 100.
// - Delete or update in a namespace that does not exist is a no-op (delete) / 404 (update by id).
// - Unknown route: 404 code 5; wrong method: 405 code 12; a route of the API not implemented here: 501 code 12.
import { DataPlaneError, errorBody, GRPC, refusalOf } from "./errors.js";
import { deleteVectors } from "./routes/delete.js";
import { fetchByMetadata } from "./routes/fetch-by-metadata.js";
import { createNamespace, deleteNamespace, describeNamespace, listNamespaces } from "./routes/namespaces.js";
import { describeIndexStats } from "./routes/stats.js";
import { listVectors } from "./routes/list.js";
import { updateVector } from "./routes/update.js";
import { fetchVectors } from "./routes/fetch.js";
import { query } from "./routes/query.js";
import { upsert } from "./routes/upsert.js";
import { checkRequestFields } from "./request-fields.js";
import type { VectorStore } from "../search/engine.js";
import type { Models } from "../models/available-models.js";
import { recordsRoute } from "./routes/records.js";
import type { DataPlaneExtras, DataPlaneIndex, DataPlaneRequest, DataPlaneResponse, Route, RouteContext } from "./types.js";
import { bulkImportRoute } from "./routes/bulk-imports.js";
import { wrongApiRefusal } from "./wrong-api.js";
import { documentsRoute } from "./routes/documents/route.js";
import { namespaceAliasesRoute, throughAliases } from "./namespace-aliases.js";
import { checkStricter2026_07 } from "./stricter-2026-07.js";

export type { DataPlaneIndex, DataPlaneRequest, DataPlaneResponse } from "./types.js";

const ROUTES: Record<string, Partial<Record<string, Route>>> = {
  "/vectors/upsert": { POST: upsert },
  "/query": { POST: query },
  "/vectors/fetch": { GET: fetchVectors },
  "/vectors/delete": { POST: deleteVectors },
  "/vectors/update": { POST: updateVector },
  "/vectors/list": { GET: listVectors },
  "/vectors/fetch_by_metadata": { POST: fetchByMetadata },
  "/describe_index_stats": { POST: describeIndexStats, GET: describeIndexStats },
  "/namespaces": { GET: listNamespaces, POST: createNamespace },
};

/** Routes of the published API this local service does not implement: 501 UNIMPLEMENTED, not 404. */

async function namespaceRoute(ctx: RouteContext, encoded: string): Promise<unknown> {
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    throw new DataPlaneError(400, GRPC.INVALID_ARGUMENT, "The namespace in the path is not valid percent-encoding");
  }
  const method = ctx.req.method.toUpperCase();
  if (method === "GET") return describeNamespace(ctx, name);
  if (method === "DELETE") return deleteNamespace(ctx, name);
  throw new DataPlaneError(405, GRPC.UNIMPLEMENTED, `Method ${ctx.req.method} is not allowed on /namespaces/{namespace}; use GET or DELETE`);
}

export async function handleDataPlane(
  request: DataPlaneRequest,
  index: DataPlaneIndex,
  store: VectorStore,
  extras?: DataPlaneExtras,
  models?: Models,
): Promise<DataPlaneResponse> {
  try {
    const requested = request.pathname.length > 1 ? request.pathname.replace(/\/+$/, "") : request.pathname;
    const wrongApi = wrongApiRefusal(index, requested);
    if (wrongApi) return wrongApi;
    const documents = await documentsRoute({ req: request, index, store, extras, models }, requested);
    if (documents) return documents;
    checkStricter2026_07(request, requested);
    const aliasRoute = /^\/namespace-aliases(?:\/([^/]+))?$/.exec(requested);
    if (aliasRoute) return { status: 200, body: await namespaceAliasesRoute({ req: request, index, store, extras }, aliasRoute[1]) };
    // A read through a namespace alias is served by its target; a write to one is refused.
    const req = throughAliases({ req: request, index, store, extras }, requested);
    const path = req === request ? requested : req.pathname;
    const records = await recordsRoute({ req, index, store, extras, models }, path);
    if (records) return records;
    const ns = /^\/namespaces\/([^/]+)$/.exec(path);
    if (ns) return { status: 200, body: await namespaceRoute({ req, index, store, extras }, ns[1]) };
    const bulk = /^\/bulk\/imports(?:\/([^/]+))?$/.exec(path);
    if (bulk) return { status: 200, body: await bulkImportRoute({ req, index, store, extras }, bulk[1]) };
    const methods = ROUTES[path];
    if (!methods) {
      throw new DataPlaneError(404, GRPC.NOT_FOUND, `Not found: ${req.method} ${path} is not a data-plane route`);
    }
    const route = methods[req.method.toUpperCase()];
    if (!route) {
      const allowed = Object.keys(methods).join(" or ");
      throw new DataPlaneError(405, GRPC.UNIMPLEMENTED, `Method ${req.method} is not allowed on ${path}; use ${allowed}`);
    }
    checkRequestFields(path, req, index);
    const body = await route({ req, index, store, extras });
    return { status: 200, body };
  } catch (e) {
    const refused = refusalOf(e);
    if (refused) return { status: refused.status, body: errorBody(refused) };
    const message = e instanceof Error ? e.message : String(e);
    return { status: 500, body: errorBody(new DataPlaneError(500, GRPC.INTERNAL, `Internal error: ${message}`)) };
  }
}
