// Which API serves an index: a document index refuses the vector and record operations, an index of the vectors or
// records API refuses the documents operations — 400 naming the API to use, nothing written; stats and namespaces
// serve both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, makeIndex, openEnv, type Env } from "../setup.js";
import type { IndexSchemaRecord } from "../../../src/local/storage/index-schema.js";

const schema: IndexSchemaRecord = {
  fields: { body: { type: "string", full_text_search: { language: "en", stemming: false, stop_words: false } }, v: { type: "dense_vector", dimension: 3, metric: "cosine" } },
};
const refusal = (message: string) => ({ status: 400, body: { status: 400, error: { code: "INVALID_ARGUMENT", message } } });

let env: Env;
beforeAll(() => {
  env = openEnv();
});
afterAll(() => env.close());

describe("a document index", () => {
  const documents = () => client(env.store, makeIndex({ name: "docs", space: "i:docs", schema }));
  const message =
    "Index docs is a document index (it was created with a document schema), served by the documents API only: use /namespaces/{namespace}/documents/upsert, search, fetch, update, delete and list.";

  it.each([
    ["POST", "/vectors/upsert", { vectors: [{ id: "a", values: [1, 2, 3] }] }],
    ["POST", "/query", { topK: 1, vector: [1, 2, 3] }],
    ["GET", "/vectors/fetch", undefined],
    ["POST", "/vectors/update", { id: "a", values: [1, 2, 3] }],
    ["POST", "/vectors/delete", { ids: ["a"] }],
    ["GET", "/vectors/list", undefined],
    ["POST", "/records/namespaces/ns/upsert", "{}"],
  ])("refuses %s %s with 400 and writes nothing", async (method, path, body) => {
    const api = documents();
    const answer = method === "GET" ? await api.get(path) : await api.post(path, body);
    expect(answer).toEqual(refusal(message));
    expect(env.store.spaceStats("i:docs").totalVectorCount).toBe(0);
  });

  it("still answers index stats and the namespace list", async () => {
    const api = documents();
    expect((await api.post("/describe_index_stats", {})).status).toBe(200);
    expect((await api.get("/namespaces")).status).toBe(200);
  });
});

describe("indexes of the vectors and records APIs", () => {
  it("refuse the documents operations with 400 naming the vectors API", async () => {
    const api = client(env.store, makeIndex({ name: "vecs" }));
    expect(await api.post("/namespaces/ns/documents/upsert", { documents: [] })).toEqual(
      refusal(
        "Index vecs is served by the vectors API (it was created from dimension and metric, or from the reserved _values / _sparse_values schema), not the documents API: use /vectors/upsert, /query, /vectors/fetch, /vectors/update, /vectors/delete and /vectors/list.",
      ),
    );
  });

  it("refuse them naming the records API when the index embeds with a model", async () => {
    const embed = { model: "local-bm25", fieldMap: { text: "chunk_text" }, readParameters: {}, writeParameters: {} };
    const api = client(env.store, makeIndex({ name: "notes", vectorType: "sparse", dimension: 0, metric: "dotproduct", embed }));
    expect(await api.post("/namespaces/ns/documents/search", {})).toEqual(
      refusal(
        "Index notes is served by the records API (it was created with an integrated embedding model), not the documents API: use /records/namespaces/{namespace}/upsert and /records/namespaces/{namespace}/search.",
      ),
    );
  });
});
