// The documents API of a document index (API version 2026-07), through the data plane with a real lmdb store:
// upsert, fetch, list, search (text, query_string, dense, sparse; filters with $match_*; projections), update and
// delete — the exact answers and status codes, and every refusal in the documents' error shape, nothing written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, makeIndex, openEnv, type Client, type Env } from "../setup.js";
import type { IndexSchemaRecord } from "../../../src/local/storage/index-schema.js";
import { ReferenceSearch } from "../../helpers/fulltext-reference.js";
import { specsAvailable, validateResponse } from "../../helpers/api-spec.js";
import { parseQueryString, textQuery } from "../../../src/local/search/fulltext/query-string.js";
import { Analyzer, type FullTextOptions } from "../../../src/local/search/fulltext/analyzer.js";

const schema: IndexSchemaRecord = {
  fields: {
    title: { type: "string", full_text_search: { language: "en", stemming: true, stop_words: true } },
    body: { type: "string", full_text_search: { language: "en", stemming: false, stop_words: false } },
    embedding: { type: "dense_vector", dimension: 3, metric: "cosine" },
    keywords: { type: "sparse_vector" },
  },
};
const analysis = new Map<string, FullTextOptions>([
  ["title", { language: "en", stemming: true, stopWords: true }],
  ["body", { language: "en", stemming: false, stopWords: false }],
]);
const DOCS = [
  { _id: "d1", title: "The running rivers", body: "quick brown fox jumps over the lazy dog", embedding: [1, 0, 0], keywords: { indices: [1, 5], values: [0.5, 0.25] }, genre: "nature", year: 2020 },
  { _id: "d2", title: "Stones and rivers", body: "the brown dog sleeps by the river", embedding: [0, 1, 0], genre: "nature", year: 2022 },
  { _id: "d3", title: "A lamp", body: "paper lamp and a brown paper bag", keywords: { indices: [5], values: [1] }, genre: "home", year: 2024, tags: ["x", "y"] },
];

let env: Env;
let api: Client;
beforeAll(async () => {
  env = openEnv();
  api = client(env.store, makeIndex({ name: "docs", space: "i:docs", dimension: 3, metric: "cosine", schema }));
  expect(await api.post("/namespaces/ns/documents/upsert", { documents: DOCS })).toEqual({ status: 202, body: { upserted_count: 3 } });
});
afterAll(() => env.close());

const refusal = (message: string, status = 400, code = "INVALID_ARGUMENT") => ({ status, body: { status, error: { code, message } } });
const search = (body: object) => api.post("/namespaces/ns/documents/search", body);
const reference = () => new ReferenceSearch(new Map(DOCS.map(({ _id, ...fields }) => [_id, fields])), analysis);
const analyzers = new Map([...analysis].map(([n, o]) => [n, new Analyzer(o)]));

describe("documents", () => {
  it("fetch by ids returns each document whole (vectors as float32 decimals), or the fields asked for", async () => {
    expect(await api.post("/namespaces/ns/documents/fetch", { ids: ["d1", "nope"] })).toEqual({
      status: 200,
      body: { documents: { d1: DOCS[0] }, namespace: "ns", usage: { read_units: 1 } },
    });
    expect((await api.post("/namespaces/ns/documents/fetch", { ids: ["d3"], include_fields: ["title", "tags", "missing"] })).body.documents).toEqual({
      d3: { _id: "d3", title: "A lamp", tags: ["x", "y"] },
    });
  });

  it("fetch by a metadata filter pages in id order with a token", async () => {
    const first = await api.post("/namespaces/ns/documents/fetch", { filter: { genre: "nature" }, include_fields: ["year"], limit: 1 });
    expect(first.body.documents).toEqual({ d1: { _id: "d1", year: 2020 } });
    const second = await api.post("/namespaces/ns/documents/fetch", { filter: { genre: "nature" }, include_fields: ["year"], limit: 1, pagination_token: first.body.pagination.next });
    expect(second.body).toEqual({ documents: { d2: { _id: "d2", year: 2022 } }, namespace: "ns", usage: { read_units: 1 } });
  });

  it("list gives ids in byte order, a page at a time", async () => {
    const page = await api.post("/namespaces/ns/documents/list", { limit: 2 });
    expect(page.body.documents).toEqual([{ _id: "d1" }, { _id: "d2" }]);
    expect((await api.post("/namespaces/ns/documents/list", { pagination_token: page.body.pagination.next })).body).toEqual({
      documents: [{ _id: "d3" }], namespace: "ns", usage: { read_units: 1 },
    });
  });

  it("text search scores BM25 over the fields named, as the brute-force reference does", async () => {
    const answer = await search({ score_by: [{ type: "text", fields: ["title", "body"], query: "brown rivers" }], top_k: 2, include_fields: ["title"] });
    const expected = [...reference().search(textQuery("brown rivers", ["title", "body"], analyzers))].sort((a, b) => b[1] - a[1]).slice(0, 2);
    expect(answer.status).toBe(200);
    expect(answer.body.matches.map((m: { _id: string }) => m._id)).toEqual(expected.map(([id]) => id));
    answer.body.matches.forEach((m: { _score: number }, i: number) => expect(m._score).toBeCloseTo(expected[i][1], 5));
    expect(answer.body.matches[0]).toEqual({ _id: expected[0][0], _score: answer.body.matches[0]._score, title: DOCS.find((d) => d._id === expected[0][0])!.title });
    expect(answer.body.usage).toEqual({ read_units: 1 });
  });

  it("query_string: fields, phrases, exclusion; with a $match_phrase filter and a metadata filter", async () => {
    const ids = async (query: string, filter?: object) =>
      (await search({ score_by: [{ type: "query_string", query }], top_k: 10, ...(filter ? { filter } : {}) })).body.matches.map((m: { _id: string }) => m._id);
    expect(await ids('body:"brown dog"')).toEqual(["d2"]);
    expect(await ids("title:river -body:fox")).toEqual(["d2"]);
    expect(await ids("brown", { body: { $match_phrase: "paper bag" } })).toEqual(["d3"]);
    expect(await ids("brown", { $and: [{ body: { $match_all: "dog brown" } }, { year: { $gte: 2021 } }] })).toEqual(["d2"]);
    const scores = (await search({ score_by: [{ type: "query_string", query: "title:river^2 OR body:paper" }], top_k: 10 })).body.matches;
    const expected = reference().search(parseQueryString("title:river^2 OR body:paper", analyzers));
    expect(new Map(scores.map((m: { _id: string; _score: number }) => [m._id, Math.fround(m._score)]))).toEqual(new Map([...expected].map(([id, s]) => [id, Math.fround(s)])));
  });

  it("dense and sparse clauses rank documents holding that vector only", async () => {
    const dense = await search({ score_by: [{ type: "dense_vector", fields: ["embedding"], values: [1, 0.1, 0] }], top_k: 5, include_fields: ["*"] });
    expect(dense.body.matches.map((m: { _id: string }) => m._id)).toEqual(["d1", "d2"]);
    expect(dense.body.matches[0]).toEqual({ ...DOCS[0], _score: dense.body.matches[0]._score });
    const sparse = await search({ score_by: [{ type: "sparse_vector", field: "keywords", sparse_values: { indices: [5], values: [2] } }], top_k: 5 });
    expect(sparse.body.matches).toEqual([{ _id: "d3", _score: 2 }, { _id: "d1", _score: 0.5 }]);
  });

  it("refuses what the spec refuses, in the documents' error shape", async () => {
    expect(await search({ score_by: [{ type: "text", fields: ["body"], query: "x" }, { type: "dense_vector", field: "embedding", values: [1, 0, 0] }], top_k: 1 })).toEqual(
      refusal("score_by: several clauses may be combined only when every one of them is text or query_string; a dense_vector or sparse_vector clause must appear on its own"),
    );
    expect(await search({ score_by: [{ type: "query_string", query: "x", fields: ["body"] }], top_k: 1 })).toEqual(
      refusal("score_by[0]: a query_string clause takes no field or fields; name fields inside the query (title:(alpha) OR body:(beta))"),
    );
    expect(await search({ score_by: [{ type: "query_string", query: 'body:"open' }], top_k: 1 })).toEqual(
      refusal("score_by[0].query is not a valid query string: unterminated phrase: the quote at character 6 is not closed"),
    );
    expect(await search({ score_by: [{ type: "text", fields: ["genre"], query: "x" }], top_k: 1 })).toEqual(
      refusal("score_by[0]: field 'genre' is not a full-text field of this index (full-text fields: 'title', 'body')"),
    );
    expect(await search({ score_by: [{ type: "text", fields: ["body"], query: "   " }], top_k: 1 })).toEqual(refusal("score_by[0].query is empty"));
    expect(await search({ score_by: [{ type: "text", fields: ["body"], query: "x" }], top_k: 0 })).toEqual(refusal("top_k must be an integer from 1 to 10000, got number 0"));
    expect(await search({ score_by: [{ type: "text", fields: ["body"], query: "x" }], top_k: 1, filter: { genre: { $match_any: "x" } } })).toEqual(
      refusal("Invalid filter: $match_any needs a full-text field; 'genre' is not one of this index's ('title', 'body')"),
    );
    expect(await api.post("/namespaces/ns/documents/fetch", { filter: { body: { $match_phrase: "brown dog" } } })).toEqual(
      refusal("Invalid filter: $match_phrase on field 'body': the text-match operators ($match_phrase, $match_all, $match_any) are supported only in search, not here (documents are selected on metadata alone)"),
    );
    expect(await search({ score_by: [{ type: "text", fields: ["body"], query: "x" }], top_k: 1, filter: { body: "brown" } })).toEqual(
      refusal("Invalid filter: field 'body' is a full-text field: it is matched by its words with $match_phrase, $match_all or $match_any, not filtered by value ($eq)"),
    );
    expect(await api.post("/namespaces/ns/documents/delete", { filter: { title: { $exists: true } } })).toEqual(
      refusal("Invalid filter: field 'title' is a full-text field: it is matched by its words with $match_phrase, $match_all or $match_any (in search), not filtered by value ($exists)"),
    );
    expect(await api.post("/namespaces/ns/documents/fetch", {})).toEqual(
      refusal("No 'ids' or 'filter' provided in the document fetch request. Provide at least one document ID in 'ids', or a metadata filter in 'filter'."),
    );
    expect(await api.post("/namespaces/ns/documents/delete", { filter: {} })).toEqual(
      refusal("filter must not be empty: an empty filter is refused rather than matching every document (to delete them all, set delete_all)"),
    );
    expect(await api.post(`/namespaces/${encodeURIComponent("nämes")}/documents/list`, {})).toEqual(refusal("Namespace 'nämes' must be ASCII without NUL"));
    expect(await api.post("/namespaces/ns/documents/frobnicate", {})).toEqual(
      refusal("Not found: /namespaces/ns/documents/frobnicate is not a documents operation; the operations are upsert, search, fetch, delete, update, list", 404, "NOT_FOUND"),
    );
  });

  it("refuses bad documents whole: nothing of the request is written", async () => {
    const upsert = (documents: unknown[]) => api.post("/namespaces/ns/documents/upsert", { documents });
    const ok = { _id: "new", body: "fine" };
    expect(await upsert([ok, { _id: "bad", embedding: [0, 0, 0] }])).toEqual(refusal("Document at position 1 (_id 'bad'): field 'embedding': a dense vector must have at least one non-zero value"));
    expect(await upsert([ok, { _id: "bad", embedding: [1, 2] }])).toEqual(refusal("Document at position 1 (_id 'bad'): field 'embedding': dimension 2 does not match the dimension of the index 3"));
    expect(await upsert([ok, { _id: "bad", body: 5 }])).toEqual(refusal("Document at position 1 (_id 'bad'): field 'body' is a full-text field: its value must be a string, got number 5"));
    expect(await upsert([ok, { _id: "bad", body: "x".repeat(100 * 1024 + 1) }])).toEqual(refusal("Document at position 1 (_id 'bad'): field 'body': a full-text value is at most 102400 bytes (100 KB), got 102401"));
    expect(await upsert([ok, { _id: "bad", body: "a ".repeat(10_001) }])).toEqual(refusal("Document at position 1 (_id 'bad'): field 'body': a full-text value is at most 10000 tokens, got 10001"));
    expect(await upsert([ok, { _id: "bad", genre: "x" }])).toEqual(refusal("Document at position 1 (_id 'bad'): a document must carry at least one field of the index's schema ('title', 'body', 'embedding', 'keywords')"));
    expect(await upsert([ok, { _id: "bad", body: "x", meta: { nested: 1 } }])).toEqual(refusal("Document at position 1 (_id 'bad'): field 'meta' is an object; a metadata value must be a string, number, boolean or list of strings"));
    expect(await upsert([ok, { _id: "bad", body: "x", _secret: 1 }])).toEqual(refusal("Document at position 1 (_id 'bad'): field '_secret': names starting with _ are reserved"));
    expect(await upsert([ok, { _id: "é", body: "x" }])).toEqual(refusal("Document at position 1 (_id 'é'): _id must be ASCII characters without NUL"));
    expect(await upsert([])).toEqual(refusal("documents must hold at least one document"));
    expect((await api.post("/namespaces/ns/documents/fetch", { ids: ["new"] })).body.documents).toEqual({});
  });
});

describe("writes", () => {
  it("update per id and by filter, then delete by ids, filter and all: each visible to the next search", async () => {
    const w = client(env.store, makeIndex({ name: "docs", space: "i:docs2", dimension: 3, metric: "cosine", schema }));
    const ids = async (query: string) => (await w.post("/namespaces/w/documents/search", { score_by: [{ type: "query_string", query }], top_k: 10 })).body.matches.map((m: { _id: string }) => m._id).sort();
    expect((await w.post("/namespaces/w/documents/upsert", { documents: DOCS })).status).toBe(202);
    expect(await w.post("/namespaces/w/documents/update", { documents: [{ _id: "d1", body: "a paper boat", _remove_fields: ["genre"] }, { _id: "ghost", body: "x" }] })).toEqual({ status: 202, body: {} });
    expect(await ids("body:paper")).toEqual(["d1", "d3"]);
    expect(await ids("body:fox")).toEqual([]);
    expect((await w.post("/namespaces/w/documents/fetch", { ids: ["d1"], include_fields: ["genre", "body"] })).body.documents.d1).toEqual({ _id: "d1", body: "a paper boat" });
    expect(await w.post("/namespaces/w/documents/update", { filter: { genre: "nature" }, set_fields: { body: "moved" }, remove_fields: ["year"] })).toEqual({ status: 202, body: { matched_records: 1 } });
    expect(await ids("body:moved")).toEqual(["d2"]);
    expect(await w.post("/namespaces/w/documents/update", { filter: { genre: "home" }, set_fields: { body: "x" }, remove_fields: ["body"] })).toEqual(refusal("The by-filter patch: field 'body' is both set and removed"));
    expect(await w.post("/namespaces/w/documents/delete", { ids: ["d1"] })).toEqual({ status: 202, body: {} });
    expect(await ids("body:paper")).toEqual(["d3"]);
    expect(await w.post("/namespaces/w/documents/delete", { filter: { genre: "home" } })).toEqual({ status: 202, body: { matched_records: 1 } });
    expect(await ids("body:paper OR body:moved")).toEqual(["d2"]);
    expect(await w.post("/namespaces/w/documents/delete", { delete_all: true })).toEqual({ status: 202, body: {} });
    expect(await ids("body:moved")).toEqual([]);
  });
});

describe("every answer as db_data_2026-07.oas.yaml describes it", () => {
  it.skipIf(!specsAvailable)("successes and refusals of each operation validate against the spec's response schemas", async () => {
    const s = client(env.store, makeIndex({ name: "docs", space: "i:docs3", dimension: 3, metric: "cosine", schema }));
    const cases: [string, object][] = [
      ["upsert", { documents: DOCS }],
      ["upsert", { documents: [{ _id: "x" }] }],
      ["search", { score_by: [{ type: "query_string", query: "body:brown" }], top_k: 2, include_fields: ["*"] }],
      ["search", { score_by: [], top_k: 2 }],
      ["fetch", { ids: ["d1", "d2"] }],
      ["fetch", { filter: { genre: "nature" }, limit: 1 }],
      ["fetch", {}],
      ["list", { limit: 1 }],
      ["update", { documents: [{ _id: "d1", body: "x" }] }],
      ["update", { filter: { genre: "home" }, set_fields: { year: 1 } }],
      ["delete", { filter: { genre: "home" } }],
      ["delete", { ids: ["d1"] }],
      ["delete", {}],
    ];
    for (const [operation, body] of cases) {
      const answer = await s.post(`/namespaces/ns/documents/${operation}`, body);
      const problems = validateResponse("db_data_2026-07.oas.yaml", `/namespaces/{namespace}/documents/${operation}`, "post", answer.status, answer.body);
      expect(problems, `${operation} ${JSON.stringify(body)} → ${answer.status} ${JSON.stringify(answer.body)}`).toEqual([]);
    }
  });
});
