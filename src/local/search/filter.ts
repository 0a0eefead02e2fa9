// Metadata filters: {"genre": {"$eq": "drama"}, "year": {"$gte": 2020}}, {"$and": [...]}, {"$or": [...]},
// and the shorthand {"genre": "drama"} for $eq. A filter is checked whole before any record is read and compiled once
// a request: the compiled filter carries the checked filter (for the metadata index) and its predicate over a record's
// metadata (for records read from lmdb). A filter that breaks a rule is refused with a FilterError naming the rule and
// the field; the HTTP layer says it in the wire's words (data/errors.ts).
import { describe, quote, type Json, type JsonObject } from "../json.js";

type Metadata = Record<string, unknown>;
export type Predicate = (m: Metadata) => boolean;

const OPERATORS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"] as const;
type Scalar = string | number | boolean;

/** Which rule a refused filter breaks. */
export type FilterRule = "nesting" | "object" | "list-of-filters" | "operator" | "condition" | "operand";

/** A filter refused: the rule it breaks, the field (or place in the filter) where, and the sentence saying so. */
export class FilterError extends Error {
  constructor(
    readonly rule: FilterRule,
    readonly field: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "FilterError";
  }
}

/** A checked filter, compiled once for a request and passed down to whatever answers it. */
export interface CompiledFilter {
  /** The filter as given (checked): what the metadata index answers. */
  readonly source: JsonObject;
  /** The same filter as a predicate over a record's metadata. */
  readonly keeps: Predicate;
}

/** Compiles a filter (null or undefined: none); throws a FilterError for one that breaks a rule. */
export function compileFilter(filter: Json | undefined): CompiledFilter | undefined {
  if (filter === undefined || filter === null) return undefined;
  return { source: filter as JsonObject, keeps: compileObject(filter, "filter", 0) };
}

/** Whether a stored record's metadata (its JSON text; none is {}) passes the filter; unreadable metadata does not. */
export function keepsJson(filter: CompiledFilter, metadataJson: string | undefined): boolean {
  try {
    return filter.keeps(metadataJson === undefined ? {} : (JSON.parse(metadataJson) as Metadata));
  } catch {
    return false;
  }
}

const MAX_DEPTH = 32;

function compileObject(filter: Json, path: string, depth: number): Predicate {
  if (depth > MAX_DEPTH) throw new FilterError("nesting", undefined, `$and / $or nested more than ${MAX_DEPTH} levels deep`);
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
    throw new FilterError("object", path, `${path} must be an object, got ${describe(filter)}`);
  }
  const parts: Predicate[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value) || value.length === 0) {
        throw new FilterError("list-of-filters", key, `${key} needs a non-empty list of filters, got ${describe(value)}`);
      }
      const subs = value.map((v, i) => compileObject(v, `${path}.${key}[${i}]`, depth + 1));
      parts.push(key === "$and" ? (m) => subs.every((p) => p(m)) : (m) => subs.some((p) => p(m)));
    } else if (key.startsWith("$")) {
      throw new FilterError("operator", path, `unknown operator ${quote(key)} at ${path}; supported: $and, $or`);
    } else {
      parts.push(compileField(key, value));
    }
  }
  return (m) => parts.every((p) => p(m));
}

function compileField(name: string, cond: Json): Predicate {
  if (cond === null || (typeof cond === "object" && !Array.isArray(cond))) {
    if (cond === null) throw new FilterError("condition", name, `the condition on field ${quote(name)} is null`);
    const parts = Object.entries(cond as JsonObject).map(([op, arg]) => compileOperator(name, op, arg));
    if (parts.length === 0) throw new FilterError("condition", name, `the condition on field ${quote(name)} is empty`);
    return (m) => parts.every((p) => p(m));
  }
  if (Array.isArray(cond)) {
    throw new FilterError("condition", name, `field ${quote(name)} is compared with a list; use {"$in": [...]}`);
  }
  return compileOperator(name, "$eq", cond);
}

function compileOperator(name: string, op: string, arg: Json): Predicate {
  if (!(OPERATORS as readonly string[]).includes(op)) {
    throw new FilterError("operator", name, `unknown operator ${quote(op)} on field ${quote(name)}; supported: ${OPERATORS.join(", ")}`);
  }
  const bad = (want: string) =>
    new FilterError("operand", name, `operator ${op} on field ${quote(name)} needs ${want}, got ${describe(arg)}`);
  switch (op) {
    case "$eq":
    case "$ne": {
      if (!isScalar(arg)) throw bad("a string, number or boolean");
      const eq = (m: Metadata) => matchesAny(own(m, name), (v) => v === arg);
      return op === "$eq" ? eq : (m) => !eq(m);
    }
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte": {
      if (typeof arg !== "number") throw bad("a number");
      const cmp = op === "$gt" ? (v: number) => v > arg : op === "$gte" ? (v: number) => v >= arg : op === "$lt" ? (v: number) => v < arg : (v: number) => v <= arg;
      return (m) => {
        const v = own(m, name);
        return typeof v === "number" && cmp(v);
      };
    }
    case "$in":
    case "$nin": {
      if (!Array.isArray(arg) || !arg.every(isScalar)) throw bad("a list of strings, numbers or booleans");
      const set = new Set<Scalar>(arg as Scalar[]);
      const any = (m: Metadata) => matchesAny(own(m, name), (v) => set.has(v as Scalar));
      return op === "$in" ? any : (m) => !any(m);
    }
    default: {
      if (typeof arg !== "boolean") throw bad("true or false");
      return (m) => (own(m, name) !== undefined) === arg;
    }
  }
}

/** A list of strings matches when any of its elements does. */
function matchesAny(v: unknown, test: (x: unknown) => boolean): boolean {
  if (v === undefined) return false;
  if (Array.isArray(v)) return v.some(test);
  return test(v);
}

/** Only the record's own fields: a field named "constructor" or "toString" must not find Object.prototype's. */
function own(m: Metadata, name: string): unknown {
  return Object.hasOwn(m, name) ? m[name] : undefined;
}

function isScalar(v: Json): v is Scalar {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}
