// The fields each data-plane request may carry (camelCase or snake_case, as field() reads them). A field the service
// does not know is refused with its name, never dropped in silence; a filter on a field the index's schema does not
// list as filterable is refused too (the index keeps no such field filterable).
import { invalid, quote } from "./errors.js";
import type { DataPlaneIndex } from "./types.js";
import type { Json, JsonObject } from "./validate.js";

const BODY_FIELDS: Record<string, readonly string[]> = {
  "/query": ["namespace", "topK", "filter", "includeValues", "includeMetadata", "queries", "vector", "sparseVector", "id", "scanFactor", "maxCandidates"],
  "/vectors/upsert": ["vectors", "namespace"],
  "/vectors/delete": ["ids", "deleteAll", "namespace", "filter"],
  "/vectors/update": ["id", "values", "sparseValues", "setMetadata", "namespace", "filter", "dryRun"],
  "/vectors/fetch_by_metadata": ["namespace", "filter", "limit", "paginationToken"],
  "/describe_index_stats": ["filter"],
};
const QUERY_FIELDS: Record<string, readonly string[]> = {
  "/vectors/fetch": ["ids", "namespace"],
  "/vectors/list": ["prefix", "limit", "paginationToken", "namespace"],
};

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());

function checkKeys(keys: Iterable<string>, known: readonly string[], where: string): void {
  for (const key of keys) {
    if (known.includes(key) || known.some((k) => snake(k) === key)) continue;
    throw invalid(`${key} is not a field of ${where}, so it is refused rather than ignored; known: ${known.join(", ")}`);
  }
}

export function checkQueryFields(path: string, query: URLSearchParams): void {
  const known = QUERY_FIELDS[path];
  if (known) checkKeys(new Set(query.keys()), known, path);
}

/** Whether the route's body fields are checked here (routes others add are left to themselves). */
export function hasBodyFields(path: string): boolean {
  return path in BODY_FIELDS;
}

export function checkBodyFields(path: string, body: JsonObject): void {
  const known = BODY_FIELDS[path];
  if (known) checkKeys(Object.keys(body), known, path);
}

/**
 * scanFactor and maxCandidates tune the approximate search of dedicated read nodes. Search here is exact, which is
 * what their most thorough settings approach, so on such an index they are checked and honoured as given; on any
 * other index the hosted service does not support them, and neither does this one.
 */
export function checkQueryTuning(body: JsonObject, index: DataPlaneIndex): void {
  const rules = [
    ["scanFactor", (v: Json) => typeof v === "number" && v >= 0.5 && v <= 4, "a number from 0.5 to 4"],
    ["maxCandidates", (v: Json) => typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 100000, "an integer from 1 to 100000"],
  ] as const;
  for (const [name, ok, want] of rules) {
    const v = body[name] ?? body[snake(name)];
    if (v === undefined || v === null) continue;
    if (!index.dedicatedReads) {
      throw invalid(`${name} is supported only by indexes with dedicated read capacity (spec.serverless.read_capacity mode Dedicated)`);
    }
    if (!ok(v)) throw invalid(`${name} must be ${want}, got ${JSON.stringify(v)}`);
  }
}

/** Refuses a filter naming a metadata field outside the index's filterable list (schema or pod metadata_config). */
export function checkFilterable(filter: Json | undefined, index: DataPlaneIndex): void {
  const allowed = index.filterable;
  if (!allowed || filter === undefined || filter === null || typeof filter !== "object") return;
  const walk = (f: Json): void => {
    if (f === null || typeof f !== "object") return;
    if (Array.isArray(f)) return f.forEach(walk);
    for (const [key, value] of Object.entries(f)) {
      if (key === "$and" || key === "$or") walk(value);
      else if (!key.startsWith("$") && !allowed.includes(key)) {
        throw invalid(`Invalid filter: field ${quote(key)} is not filterable in this index; its schema lists: ${allowed.join(", ") || "no fields"}`);
      }
    }
  };
  walk(filter);
}
