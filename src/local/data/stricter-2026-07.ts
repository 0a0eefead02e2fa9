// What API version 2026-07 refuses that earlier versions took, checked before the route runs (400, nothing
// written): record ids and namespaces must be ASCII without NUL, a dense vector whose values are all smaller than
// 1e-8 in magnitude is refused as containing only zeros, fetch_by_metadata needs a filter. Earlier versions keep
// today's rules.
import { invalid, quote } from "./errors.js";
import type { DataPlaneRequest } from "./types.js";
import { field, parseBody, type Json, type JsonObject } from "./validate.js";

const ASCII = /^[\x01-\x7F]*$/;
const ZERO = 1e-8;

function checkId(id: Json | undefined, where: string): void {
  if (typeof id === "string" && !ASCII.test(id)) throw invalid(`${where} (id ${quote(id)}): with API version 2026-07 an id must be ASCII without NUL`);
}

function checkNamespace(ns: unknown): void {
  if (typeof ns === "string" && !ASCII.test(ns)) throw invalid(`Namespace ${quote(ns)} must be ASCII without NUL with API version 2026-07`);
}

function checkNotZero(values: Json | undefined, where: string): void {
  if (!Array.isArray(values) || values.length === 0) return;
  if (values.every((v) => typeof v === "number" && Math.abs(v) < ZERO)) {
    throw invalid(`${where}: values contain only zeros (every value is smaller than 1e-8 in magnitude); a dense vector needs at least one value of magnitude 1e-8 or more`);
  }
}

function bodyOf(req: DataPlaneRequest): JsonObject | undefined {
  try {
    return parseBody(req.body);
  } catch {
    return undefined; // the route answers the malformed body
  }
}

export function checkStricter2026_07(req: DataPlaneRequest, path: string): void {
  if (req.apiVersion !== "2026-07") return;
  checkNamespace(req.query.get("namespace"));
  for (const id of req.query.getAll("ids")) checkId(id, "Id");
  const inPath = /^\/(?:records\/)?namespaces\/([^/]+)/.exec(path)?.[1];
  if (inPath !== undefined) {
    try {
      checkNamespace(decodeURIComponent(inPath));
    } catch (e) {
      if (e instanceof URIError) return; // the route answers the bad encoding
      throw e;
    }
  }
  if (req.method.toUpperCase() !== "POST" || !["/vectors/upsert", "/vectors/update", "/vectors/delete", "/query", "/vectors/fetch_by_metadata", "/namespaces"].includes(path)) return;
  const body = bodyOf(req);
  if (!body) return;
  checkNamespace(field(body, "namespace"));
  if (path === "/namespaces") checkNamespace(field(body, "name"));
  if (path === "/vectors/upsert") {
    const vectors = field(body, "vectors");
    if (!Array.isArray(vectors)) return;
    vectors.forEach((v, i) => {
      if (v === null || typeof v !== "object" || Array.isArray(v)) return;
      const where = `Vector at position ${i}`;
      checkId(v.id, where);
      checkNotZero(v.values, typeof v.id === "string" ? `${where} (id ${quote(v.id)})` : where);
    });
  } else if (path === "/vectors/update") {
    checkId(field(body, "id"), "Update");
    checkNotZero(field(body, "values"), "Update");
  } else if (path === "/vectors/delete") {
    const ids = field(body, "ids");
    if (Array.isArray(ids)) ids.forEach((id, i) => checkId(id, `Id at position ${i}`));
  } else if (path === "/query") {
    checkId(field(body, "id"), "Query");
  } else if (path === "/vectors/fetch_by_metadata") {
    const filter = field(body, "filter");
    if (filter === undefined || filter === null) throw invalid("filter is required with API version 2026-07: the metadata filter the records must match");
  }
}
