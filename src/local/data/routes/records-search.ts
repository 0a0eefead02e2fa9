// POST /records/namespaces/{namespace}/search {query: {top_k, inputs: {text} | vector | id, filter?, match_terms?},
//   fields?, rerank?: {model, rank_fields, top_n?, query?}} → {result: {hits: [{_id, _score, fields}]}, usage}
// A local-bm25 index is searched by BM25 over the namespace's text postings in memory (search/text-search.ts), the
// filter answered by the metadata index; a dense one in memory by the search /query runs (the filter compiled once),
// the query text embedded by the index's model with its read parameters. Only the hits' records are read from lmdb.
import { invalid, quote } from "../errors.js";
import { compileFilter, type CompiledFilter } from "../../search/filter.js";
import { makeQuery } from "../../search/score.js";
import { queryTerms } from "../../models/bm25.js";
import { murmur3 } from "../../models/murmur3.js";
import { tokenize } from "../../models/tokenize.js";
import { embedOptions } from "../../inference/validate.js";
import { readUnits } from "../output.js";
import type { StoredRecord } from "../../storage/store.js";
import type { RouteContext } from "../types.js";
import { asData, requireEmbed, requireModels } from "./records-upsert.js";
import { checkId, describe, LIMITS, parseBody, type Json, type JsonObject } from "../validate.js";

interface Hit { _id: string; _score: number; fields: Record<string, unknown> }

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

export async function searchRecords(ctx: RouteContext, namespace: string) {
  const { req, index, store } = ctx;
  const body = parseBody(req.body);
  const q = body.query;
  if (!isObject(q)) throw invalid("query is required: an object with top_k and one of inputs, vector or id");
  const topK = q.top_k ?? q.topK;
  if (typeof topK !== "number" || !Number.isInteger(topK) || topK < 1 || topK > LIMITS.topK) {
    throw invalid(`query.top_k must be an integer from 1 to ${LIMITS.topK}, got ${describe(topK)}`);
  }
  const given = (["inputs", "vector", "id"] as const).filter((k) => q[k] !== undefined && q[k] !== null);
  if (given.length !== 1) throw invalid(`query needs exactly one of inputs, vector or id (got ${given.length === 0 ? "none" : given.join(", ")})`);
  const filter = compileFilter(q.filter); // checked whole before anything is read, compiled once
  const fields = readFields(body.fields);
  const rerank = readRerank(body.rerank);

  let queryText: string | undefined;
  let embedTokens: number | undefined;
  let ranked: { id: string; score: number }[];
  let read: number;
  const sparseIndex = index.vectorType === "sparse";
  const required = readMatchTerms(q.match_terms, index.embed?.model);
  const textSearch = (terms: Map<number, number>) => store.searchText(index.space, namespace, index.embed?.fieldMap.text, { terms, topK, required }, filter);

  if (q.inputs !== undefined && q.inputs !== null) {
    const embed = requireEmbed(index, "Searching with text");
    if (!isObject(q.inputs) || typeof q.inputs.text !== "string") throw invalid("query.inputs must be an object with a text string: {\"text\": \"…\"}");
    queryText = q.inputs.text;
    if (queryText.trim() === "") throw invalid("query.inputs.text is empty");
    if (sparseIndex) {
      const terms = queryTerms(queryText);
      embedTokens = [...terms.values()].reduce((a, b) => a + b, 0);
      ({ hits: ranked, read } = textSearch(terms));
    } else {
      const options = await asData(async () => embedOptions(embed.readParameters, "embed.read_parameters"));
      const out = await asData(() => requireModels(ctx.models).embed(embed.model, [queryText!], options));
      embedTokens = out.tokens;
      const e = out.data[0];
      if (e.vector_type !== "dense") throw invalid(`The index's model ${embed.model} gave a sparse vector for a dense index`);
      ({ ranked, read } = await denseSearch(ctx, namespace, Float32Array.from(e.values), topK, filter));
    }
  } else if (q.id !== undefined && q.id !== null) {
    const id = checkId(q.id, "query");
    const source = store.get(index.space, namespace, id);
    if (!source) {
      ranked = [];
      read = 0;
    } else if (sparseIndex) {
      const terms = new Map<number, number>();
      source.sparse?.indices.forEach((t, i) => terms.set(t, source.sparse!.values[i]));
      ({ hits: ranked, read } = textSearch(terms));
    } else {
      ({ ranked, read } = await denseSearch(ctx, namespace, source.values, topK, filter));
    }
  } else {
    const v = q.vector as Json;
    if (!isObject(v)) throw invalid("query.vector must be an object: {values} or {sparse_indices, sparse_values}");
    if (sparseIndex) {
      if (!Array.isArray(v.sparse_indices) || !Array.isArray(v.sparse_values) || v.sparse_indices.length !== v.sparse_values.length || v.sparse_indices.length === 0) {
        throw invalid("query.vector of a sparse index needs sparse_indices and sparse_values, lists of the same non-zero length");
      }
      const terms = new Map<number, number>();
      v.sparse_indices.forEach((t, i) => {
        const w = (v.sparse_values as Json[])[i];
        if (typeof t !== "number" || !Number.isInteger(t) || t < 0 || t > 0xffffffff) throw invalid(`query.vector.sparse_indices[${i}] is not an unsigned 32-bit integer`);
        if (typeof w !== "number") throw invalid(`query.vector.sparse_values[${i}] must be a number`);
        terms.set(t, w);
      });
      ({ hits: ranked, read } = textSearch(terms));
    } else {
      const values = v.values;
      if (!Array.isArray(values) || values.length !== index.dimension || !values.every((x) => typeof x === "number")) {
        throw invalid(`query.vector.values must be a list of ${index.dimension} numbers (the index's dimension)`);
      }
      ({ ranked, read } = await denseSearch(ctx, namespace, Float32Array.from(values as number[]), topK, filter));
    }
  }

  // each hit's record read once, for its fields and for the reranker's text
  const stored = ranked.map((r) => fieldsOf(store.get(index.space, namespace, r.id)));
  let hits: Hit[] = ranked.map((r, i) => ({ _id: r.id, _score: r.score, fields: pick(stored[i], fields) }));
  let rerankUnits: number | undefined;
  if (rerank) {
    const text = rerank.query ?? queryText;
    if (text === undefined) throw invalid("rerank.query is required when the search is by vector or id (there is no query text to rerank against)");
    const docs = hits.map((h, i) => {
      return rerank.rankFields
        .map((f) => {
          const value = stored[i][f];
          if (typeof value !== "string") throw invalid(`rerank.rank_fields: record ${quote(h._id)} has no text field ${quote(f)}`);
          return value;
        })
        .join("\n");
    });
    const scores = docs.length === 0 ? [] : await asData(() => requireModels(ctx.models).rerank(rerank.model, text, docs));
    hits = hits
      .map((h, i) => ({ ...h, _score: scores[i] }))
      .sort((a, b) => b._score - a._score)
      .slice(0, rerank.topN ?? topK);
    rerankUnits = 1;
  }
  return {
    result: { hits },
    usage: {
      read_units: readUnits(read),
      ...(embedTokens !== undefined ? { embed_total_tokens: embedTokens } : {}),
      ...(rerankUnits !== undefined ? { rerank_units: rerankUnits } : {}),
    },
  };
}

/** The dense search of /query (in memory: exact, or a large namespace's approximate index), the filter compiled once. */
async function denseSearch(ctx: RouteContext, namespace: string, vector: Float32Array, topK: number, filter: CompiledFilter | undefined) {
  const { index, store } = ctx;
  if (vector.length !== index.dimension) throw invalid(`The query vector has ${vector.length} values; the index has dimension ${index.dimension}`);
  const { hits, considered } = await store.search(index.space, namespace, index.metric, makeQuery(vector, undefined), topK, filter);
  return { ranked: hits.map(({ id, score }) => ({ id, score })), read: considered };
}

function readFields(v: Json | undefined): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((f) => typeof f === "string")) throw invalid("fields must be a list of field names");
  if (v.length > 100) throw invalid(`fields has ${v.length} names; at most 100`);
  return v as string[];
}

function readRerank(v: Json | undefined): { model: string; rankFields: string[]; topN?: number; query?: string } | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw invalid("rerank must be an object: {model, rank_fields, top_n?}");
  if (typeof v.model !== "string" || v.model === "") throw invalid("rerank.model is required: the name of a reranking model");
  const rf = v.rank_fields;
  if (!Array.isArray(rf) || rf.length === 0 || !rf.every((f) => typeof f === "string" && f !== "")) {
    throw invalid("rerank.rank_fields is required: a non-empty list of the text fields to rerank by");
  }
  const topN = v.top_n;
  if (topN !== undefined && topN !== null && (typeof topN !== "number" || !Number.isInteger(topN) || topN < 1)) {
    throw invalid(`rerank.top_n must be a positive integer, got ${describe(topN)}`);
  }
  if (v.parameters !== undefined && v.parameters !== null && (!isObject(v.parameters) || Object.keys(v.parameters).length > 0)) {
    throw invalid("rerank.parameters: the local rerank model takes no parameters");
  }
  if (v.query !== undefined && v.query !== null && typeof v.query !== "string") throw invalid("rerank.query must be a string");
  return {
    model: v.model,
    rankFields: rf as string[],
    ...(typeof topN === "number" ? { topN } : {}),
    ...(typeof v.query === "string" ? { query: v.query } : {}),
  };
}

function readMatchTerms(v: Json | undefined, model: string | undefined): number[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (model !== "local-bm25") throw invalid("query.match_terms is supported only by sparse indexes with integrated embedding (local-bm25 here)");
  if (!isObject(v) || !Array.isArray(v.terms) || !v.terms.every((t) => typeof t === "string")) {
    throw invalid('query.match_terms must be {"terms": [text, …], "strategy": "all"}');
  }
  if (v.strategy !== undefined && v.strategy !== "all") throw invalid(`query.match_terms.strategy must be "all", got ${describe(v.strategy)}`);
  return [...new Set((v.terms as string[]).flatMap((t) => tokenize(t)).map((t) => murmur3(t)))];
}

function fieldsOf(r: StoredRecord | undefined): Record<string, unknown> {
  return r?.metadataJson === undefined ? {} : (JSON.parse(r.metadataJson) as Record<string, unknown>);
}

function pick(all: Record<string, unknown>, only: string[] | undefined): Record<string, unknown> {
  if (!only) return all;
  const out: Record<string, unknown> = {};
  for (const f of only) if (f in all) out[f] = all[f];
  return out;
}
