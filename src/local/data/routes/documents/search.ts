// POST /namespaces/{namespace}/documents/search {score_by: [clause…], top_k, include_fields?, filter?}
//   → 200 {matches: [{_id, _score, …fields}], namespace, usage: {read_units}}
// text and query_string clauses run on the namespace's full-text postings in memory (search/fulltext), several of
// them summed as optional clauses of one query; a dense_vector or sparse_vector clause alone, by exact search over the
// records in memory (a document without that vector field is not a candidate). The filter, with $match_* operators on
// full-text fields, is answered by the metadata index and the postings. Fields come from memory, not lmdb.
import { float32Double } from "../../../../common/float32.js";
import { Analyzer } from "../../../search/fulltext/analyzer.js";
import { checkDocumentFilter, selectDocuments } from "../../../search/fulltext/filter.js";
import type { FullTextQuery } from "../../../search/fulltext/query.js";
import { parseQueryString, QuerySyntaxError, textQuery, type FieldAnalyzers } from "../../../search/fulltext/query-string.js";
import { documentText, searchFullText } from "../../../search/fulltext/search.js";
import { searchNamespace } from "../../../search/exact.js";
import { makeQuery, type Metric, type Query } from "../../../search/score.js";
import type { NamespaceVectors } from "../../../memory/vectors.js";
import { invalid, quote } from "../../errors.js";
import { readUnits } from "../../output.js";
import { denseValues, describe, LIMITS, sparseValues, type Json, type JsonObject } from "../../validate.js";
import type { DocumentsContext } from "./context.js";
import { documentFields, project, readIncludeFields } from "./fields.js";
import { checkKeys } from "./keys.js";
import type { SchemaView } from "./schema-view.js";

const MAX_CLAUSES = 100;
const MAX_QUERY_BYTES = 10 * 1024;
const TYPES = ["text", "query_string", "dense_vector", "sparse_vector"];

type Plan = { kind: "text"; query: FullTextQuery } | { kind: "vector"; metric: Metric; query: Query; field: "dense" | "sparse" };

const analyzers = new WeakMap<SchemaView, FieldAnalyzers>();
function analyzersOf(view: SchemaView): FieldAnalyzers {
  let a = analyzers.get(view);
  if (!a) analyzers.set(view, (a = new Map([...view.fullText].map(([name, options]) => [name, new Analyzer(options)]))));
  return a;
}

export async function searchDocuments({ ctx, namespace, namespaceName, view, body }: DocumentsContext) {
  const { index, store } = ctx;
  checkKeys(body, ["score_by", "top_k", "include_fields", "filter"], "a search");
  const topK = body.top_k;
  if (topK === undefined || topK === null) throw invalid(`top_k is required: an integer from 1 to ${LIMITS.topK}`);
  if (typeof topK !== "number" || !Number.isInteger(topK) || topK < 1 || topK > LIMITS.topK) throw invalid(`top_k must be an integer from 1 to ${LIMITS.topK}, got ${describe(topK)}`);
  const plan = readScoreBy(body.score_by, view);
  const filter = body.filter === null ? undefined : body.filter;
  if (filter !== undefined) checkDocumentFilter(filter, new Set(view.fullText.keys()), true);
  const include = readIncludeFields(body.include_fields, "none");

  const nv = store.namespaceInMemory(index.space, namespace);
  if (!nv) return { matches: [], namespace: namespaceName, usage: { read_units: 1 } };
  const text = documentText(nv, view.fullText);
  let hits: { id: string; score: number }[];
  let considered: number;
  if (plan.kind === "text") ({ hits, considered } = searchFullText(nv, text, plan.query, topK, filter));
  else {
    const base = filter === undefined ? nv.liveSlots() : selectDocuments(filter, nv, text);
    const allowed = base.filter((slot) => (plan.field === "dense" ? nv.norms[slot] > 0 : nv.sparse[slot] !== undefined));
    hits = searchNamespace(nv, plan.metric, plan.query, topK, allowed);
    considered = allowed.length;
  }
  const matches = hits.map((h) => {
    const score = Number.isFinite(h.score) ? float32Double(h.score) : null;
    const fields = include !== "all" && include.length === 0 ? {} : project(fieldsInMemory(nv, view, h.id), include);
    return { _id: h.id, _score: score, ...fields };
  });
  return { matches, namespace: namespaceName, usage: { read_units: readUnits(considered) } };
}

function fieldsInMemory(nv: NamespaceVectors, view: SchemaView, id: string): Record<string, unknown> {
  const slot = nv.slotOf.get(id);
  if (slot === undefined) return {};
  return documentFields(view, { values: nv.dimension > 0 ? nv.row(slot) : new Float32Array(0), sparse: nv.sparse[slot], metadataJson: nv.metadataJson[slot] });
}

function readScoreBy(value: Json | undefined, view: SchemaView): Plan {
  if (value === undefined || value === null) throw invalid("score_by is required: a list of 1 to 100 scoring clauses");
  if (!Array.isArray(value) || value.length === 0) throw invalid(`score_by must be a non-empty list of scoring clauses, got ${describe(value)}`);
  if (value.length > MAX_CLAUSES) throw invalid(`score_by has ${value.length} clauses; the maximum is ${MAX_CLAUSES}`);
  const clauses = value.map((c, i) => readClause(c, `score_by[${i}]`, view));
  const vector = clauses.find((c) => c.kind === "vector");
  if (vector) {
    if (clauses.length > 1) {
      throw invalid("score_by: several clauses may be combined only when every one of them is text or query_string; a dense_vector or sparse_vector clause must appear on its own");
    }
    return vector;
  }
  if (clauses.length === 1) return clauses[0];
  const should = clauses.map((c) => (c as Extract<Plan, { kind: "text" }>).query);
  return { kind: "text", query: { kind: "bool", must: [], should, mustNot: [], boost: 1 } };
}

function readClause(c: Json, at: string, view: SchemaView): Plan {
  if (c === null || typeof c !== "object" || Array.isArray(c)) throw invalid(`${at} must be an object with a type, got ${describe(c)}`);
  const clause = c as JsonObject;
  const type = clause.type;
  if (typeof type !== "string" || !TYPES.includes(type)) throw invalid(`${at}.type must be one of ${TYPES.join(", ")}, got ${describe(type)}`);
  checkKeys(clause, ["type", "fields", "field", "query", "values", "sparse_values"], `a ${type} clause (${at}) of a search`);
  const fields = clauseFields(clause, at, type);
  const query = () => {
    const q = clause.query;
    if (typeof q !== "string") throw invalid(`${at}.query is required for a ${type} clause: a string, got ${describe(q)}`);
    const trimmed = q.trim();
    if (trimmed === "") throw invalid(`${at}.query is empty`);
    if (Buffer.byteLength(trimmed, "utf8") > MAX_QUERY_BYTES) throw invalid(`${at}.query is ${Buffer.byteLength(trimmed, "utf8")} bytes; the maximum is ${MAX_QUERY_BYTES} (10 KB)`);
    return trimmed;
  };
  const unused = (names: string[]) => {
    for (const n of names) if (clause[n] !== undefined && clause[n] !== null) throw invalid(`${at}.${n} does not apply to a ${type} clause`);
  };
  switch (type) {
    case "text": {
      unused(["values", "sparse_values"]);
      for (const f of fields!) {
        if (!view.fullText.has(f)) throw invalid(`${at}: field ${quote(f)} is not a full-text field of this index (full-text fields: ${names(view.fullText.keys())})`);
      }
      return { kind: "text", query: textQuery(query(), fields!, analyzersOf(view)) };
    }
    case "query_string": {
      unused(["values", "sparse_values"]);
      if (view.fullText.size === 0) throw invalid(`${at}: a query_string clause needs a full-text field, and this index has none`);
      try {
        return { kind: "text", query: parseQueryString(query(), analyzersOf(view)) };
      } catch (e) {
        if (e instanceof QuerySyntaxError) throw invalid(`${at}.query is not a valid query string: ${e.message}`);
        throw e;
      }
    }
    case "dense_vector": {
      unused(["query", "sparse_values"]);
      const dense = view.dense;
      if (!dense || fields![0] !== dense.name) throw invalid(`${at}: field ${quote(fields![0])} is not the dense_vector field of this index (${dense ? quote(dense.name) : "it has none"})`);
      if (clause.values === undefined || clause.values === null) throw invalid(`${at}.values is required for a dense_vector clause`);
      return { kind: "vector", metric: dense.metric, query: makeQuery(denseValues(clause.values, at, dense.dimension), undefined), field: "dense" };
    }
    default: {
      unused(["query", "values"]);
      if (!view.sparse || fields![0] !== view.sparse.name) throw invalid(`${at}: field ${quote(fields![0])} is not the sparse_vector field of this index (${view.sparse ? quote(view.sparse.name) : "it has none"})`);
      if (clause.sparse_values === undefined || clause.sparse_values === null) throw invalid(`${at}.sparse_values is required for a sparse_vector clause`);
      return { kind: "vector", metric: "dotproduct", query: makeQuery(undefined, sparseValues(clause.sparse_values, at)), field: "sparse" };
    }
  }
}

/** The fields a clause names: `fields` or the older `field`, never both; none for query_string. */
function clauseFields(clause: JsonObject, at: string, type: string): string[] | undefined {
  const hasFields = clause.fields !== undefined && clause.fields !== null;
  const hasField = clause.field !== undefined && clause.field !== null;
  if (type === "query_string") {
    if (hasFields || hasField) throw invalid(`${at}: a query_string clause takes no field or fields; name fields inside the query (title:(alpha) OR body:(beta))`);
    return undefined;
  }
  if (hasFields && hasField) throw invalid(`${at}: give fields or field, not both`);
  if (!hasFields && !hasField) throw invalid(`${at}: a ${type} clause needs fields (the field${type === "text" ? "s" : ""} to score against)`);
  let list: Json[];
  if (hasField) {
    if (typeof clause.field !== "string") throw invalid(`${at}.field must be a field name, got ${describe(clause.field)}`);
    list = [clause.field];
  } else {
    if (!Array.isArray(clause.fields) || clause.fields.length === 0 || !clause.fields.every((f) => typeof f === "string")) {
      throw invalid(`${at}.fields must be a non-empty list of field names, got ${describe(clause.fields)}`);
    }
    list = clause.fields;
  }
  if (type !== "text" && list.length !== 1) throw invalid(`${at}: a ${type} clause names exactly one field, got ${list.length}`);
  return [...new Set(list as string[])];
}

function names(it: Iterable<string>): string {
  return [...it].map((n) => quote(n)).join(", ") || "none";
}
