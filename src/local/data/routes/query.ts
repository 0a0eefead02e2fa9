// POST /query {topK, namespace, vector | id, sparseVector, filter, includeValues, includeMetadata}
//   → {matches: [{id, score, values, sparseValues?, metadata?}], namespace, usage}
import { float32Double } from "../../../common/float32.js";
import { invalid } from "../errors.js";
import { compileFilter } from "../../search/filter.js";
import { recordOut, readUnits } from "../output.js";
import { DeferredJson } from "../json-answer.js";
import { checkSparseAllowed } from "../records.js";
import { makeQuery } from "../../search/score.js";
import type { RouteContext } from "../types.js";
import { checkId, describe, field, LIMITS, namespaceOf, optionalBoolean, parseBody, sparseValues, type Json } from "../validate.js";
import type { SparseVector } from "../../storage/codec.js";

export async function query({ req, index, store }: RouteContext) {
  const body = parseBody(req.body);
  const topK = checkTopK(field(body, "topK"));
  const namespace = namespaceOf(field(body, "namespace"));
  const includeValues = optionalBoolean(body, "includeValues") ?? false;
  const includeMetadata = optionalBoolean(body, "includeMetadata") ?? false;
  const filter = compileFilter(field(body, "filter"));
  if (field(body, "queries") !== undefined) throw invalid("queries is no longer supported; send one query with vector or id");
  const rawVector = field(body, "vector");
  const rawId = field(body, "id");
  const rawSparse = field(body, "sparseVector");
  const hasVector = rawVector !== undefined && rawVector !== null && !(Array.isArray(rawVector) && rawVector.length === 0 && index.vectorType === "sparse");
  const hasId = rawId !== undefined && rawId !== null;
  const hasSparse = rawSparse !== undefined && rawSparse !== null;
  if (hasVector && hasId) throw invalid("Specify either vector or id in a query, not both");
  if (!hasVector && !hasId && !hasSparse) throw invalid("A query needs a vector, a sparseVector or the id of a stored record");

  let dense: Float32Array | undefined;
  let sparse: SparseVector | undefined;
  if (hasVector) {
    if (index.vectorType === "sparse") throw invalid("This is a sparse index: query with sparseVector, not vector");
    dense = queryVector(rawVector, index.dimension);
  }
  if (hasSparse) {
    checkSparseAllowed(index, "Query");
    sparse = sparseValues(rawSparse, "Query");
  }
  if (hasId) {
    const id = checkId(rawId, "Query");
    if (hasSparse) throw invalid("Specify either id or sparseVector in a query, not both");
    const source = store.get(index.space, namespace, id);
    if (!source) return { matches: [], namespace, usage: { readUnits: 1 } };
    dense = source.values.length > 0 ? source.values : undefined;
    sparse = source.sparse;
  }

  // Searched in memory (exact: the order scoring every record gives; a large namespace's approximate index: its
  // candidates scored exactly); the records answered are read from lmdb.
  const { hits, considered } = await store.search(index.space, namespace, index.metric, makeQuery(dense, sparse), topK, filter);
  // Each match with values or metadata is read when the answer's writer reaches it (json-answer.ts: in slices).
  const match = (hit: (typeof hits)[number]) => {
    const r = includeValues || includeMetadata ? store.get(index.space, namespace, hit.id) : undefined;
    return { ...(r ? recordOut(r, includeValues, includeMetadata) : { id: hit.id, values: [] }), score: float32Double(hit.score) };
  };
  const matches = hits.map((hit) => (includeValues || includeMetadata ? new DeferredJson(() => match(hit)) : match(hit)));
  return { matches, namespace, usage: { readUnits: readUnits(considered) } };
}

function checkTopK(v: Json | undefined): number {
  if (v === undefined || v === null) throw invalid(`topK is required: an integer from 1 to ${LIMITS.topK}`);
  if (typeof v !== "number" || !Number.isInteger(v)) throw invalid(`topK must be an integer from 1 to ${LIMITS.topK}, got ${describe(v)}`);
  if (v < 1 || v > LIMITS.topK) throw invalid(`topK must be from 1 to ${LIMITS.topK}, got ${v}`);
  return v;
}

function queryVector(v: Json | undefined, dimension: number): Float32Array {
  if (!Array.isArray(v)) throw invalid(`vector must be a list of numbers, got ${describe(v)}`);
  if (v.length !== dimension) throw invalid(`Query vector dimension ${v.length} does not match the dimension of the index ${dimension}`);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== "number") throw invalid(`vector[${i}] must be a number, got ${describe(x)}`);
    if (!Number.isFinite(Math.fround(x))) throw invalid(`vector[${i}] = ${x} is outside the range of a 32-bit float`);
    out[i] = x;
  }
  return out;
}
