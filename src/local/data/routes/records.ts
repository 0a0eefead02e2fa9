// /records/namespaces/{namespace}/upsert and /search: the text routes of an index with integrated embedding.
import { DataPlaneError, GRPC, invalid } from "../errors.js";
import type { DataPlaneResponse, RouteContext } from "../types.js";
import { DEFAULT_NAMESPACE_ALIAS, namespaceOf } from "../validate.js";
import { upsertRecords } from "./records-upsert.js";
import { searchRecords } from "./records-search.js";

const PATH = /^\/records\/namespaces\/([^/]*)\/(upsert|search)$/;

/** The answer of a records route, or undefined when the path is not one. */
export async function recordsRoute(ctx: RouteContext, path: string): Promise<DataPlaneResponse | undefined> {
  if (!path.startsWith("/records/")) return undefined;
  const m = PATH.exec(path);
  if (!m) throw new DataPlaneError(404, GRPC.NOT_FOUND, `Not found: ${ctx.req.method} ${path} is not a data-plane route`);
  if (ctx.req.method.toUpperCase() !== "POST") {
    throw new DataPlaneError(405, GRPC.UNIMPLEMENTED, `Method ${ctx.req.method} is not allowed on ${path}; use POST`);
  }
  let raw: string;
  try {
    raw = decodeURIComponent(m[1]);
  } catch {
    throw invalid("The namespace in the path is not valid percent-encoding");
  }
  if (raw === "") throw invalid('The namespace in the path is empty; the default namespace is "__default__"');
  const namespace = namespaceOf(raw);
  if (m[2] === "upsert") {
    await upsertRecords(ctx, namespace);
    return { status: 201, body: undefined };
  }
  const found = await searchRecords(ctx, namespace);
  // 2026-07 names the namespace searched (through an alias: its target), the default one as "__default__".
  return { status: 200, body: ctx.req.apiVersion === "2026-07" ? { ...found, namespace: namespace === "" ? DEFAULT_NAMESPACE_ALIAS : namespace } : found };
}
