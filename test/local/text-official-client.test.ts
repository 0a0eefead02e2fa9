// Contract tests of the text path: the official client 8.2 drives the local service through integrated embedding
// (createIndexForModel, upsertRecords, searchRecords with a filter and with rerank) and inference (embed, rerank,
// listModels, getModel), with local-bm25 and with a dense model of a small real OpenAI-compatible server; the raw
// answers are checked against the 2026-04 specs.
import { rmSync } from "node:fs";
import { Pinecone } from "@pinecone-database/pinecone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { specsAvailable, specsMissingReason, validateResponse } from "../helpers/api-spec.js";
import { startEmbeddingsServer, TEST_DIM, TEST_MODEL, testVector, type EmbeddingsServer } from "../helpers/embeddings-server.js";
import { call, controlClient } from "./http.js";
import { float32Double } from "../../src/common/float32.js";

let svc: RunningService;
let embedder: EmbeddingsServer;
let pc: Pinecone;
let api: ReturnType<typeof controlClient>;

const NOTES = [
  { _id: "n1", chunk_text: "The lighthouse keeper painted the tower red and white", topic: "sea" },
  { _id: "n2", chunk_text: "A recipe for sourdough bread with a long cold proof", topic: "food" },
  { _id: "n3", chunk_text: "The tower bell rang at noon over the old town", topic: "town" },
  { _id: "n4", chunk_text: "Sourdough starter needs flour and water every day", topic: "food" },
  { id: "n5", chunk_text: "Ships passed the lighthouse in the fog", topic: "sea" },
];

beforeAll(async () => {
  embedder = await startEmbeddingsServer();
  svc = await startServiceProcess({ args: ["--embed-url", embedder.url], env: { VECDB_EMBED_KEY: "embed-secret" } });
  pc = new Pinecone({ apiKey: svc.apiKey, controllerHostUrl: svc.controlUrl });
  api = controlClient(svc.controlUrl, svc.apiKey);
});

afterAll(async () => {
  await svc?.stop();
  await embedder?.close();
  if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
});

const noSpecs = !specsAvailable;

describe("integrated embedding with local-bm25, through the official client", () => {
  it("creates a sparse index for local-bm25, writes notes as text and finds them by a rare word", async () => {
    const model = await pc.createIndexForModel({
      name: "notes",
      cloud: "aws",
      region: "us-east-1",
      embed: { model: "local-bm25", fieldMap: { text: "chunk_text" } },
      waitUntilReady: true,
    });
    expect(model).toMatchObject({
      name: "notes",
      vectorType: "sparse",
      metric: "dotproduct",
      embed: { model: "local-bm25", metric: "dotproduct", vectorType: "sparse", fieldMap: { text: "chunk_text" } },
    });
    const ns = pc.index({ name: "notes", host: `http://${model!.host}` }).namespace("journal");
    await ns.upsertRecords({ records: NOTES });

    const found = await ns.searchRecords({ query: { topK: 3, inputs: { text: "sourdough" } } });
    // Both hold the word once; the shorter note ranks first (BM25's length normalisation).
    expect(found.result.hits.map((h) => h._id)).toEqual(["n4", "n2"]);
    expect(found.result.hits[1].fields).toEqual({ chunk_text: NOTES[1].chunk_text, topic: "food" });
    expect(found.usage).toMatchObject({ readUnits: 1, embedTotalTokens: 1 });

    const filtered = await ns.searchRecords({ query: { topK: 5, inputs: { text: "tower lighthouse" }, filter: { topic: { $eq: "sea" } } }, fields: ["topic"] });
    expect(filtered.result.hits.map((h) => h._id)).toEqual(["n1", "n5"]);
    expect(filtered.result.hits[0].fields).toEqual({ topic: "sea" });

    const reranked = await ns.searchRecords({
      query: { topK: 5, inputs: { text: "tower" } },
      rerank: { model: "local-bm25-rerank", rankFields: ["chunk_text"], topN: 1, query: "bell at noon" },
    });
    expect(reranked.result.hits.map((h) => h._id)).toEqual(["n3"]);
    expect(reranked.result.hits[0]._score).toBeGreaterThan(0);
    expect(reranked.result.hits[0]._score).toBeLessThan(1);

    // The text is stored as metadata, as the hosted service does: fetch returns it.
    const fetched = await ns.fetch({ ids: ["n5"] });
    expect(fetched.records.n5.metadata).toEqual({ chunk_text: NOTES[4].chunk_text, topic: "sea" });
  });

  it.skipIf(noSpecs)(`answers valid against the 2026-04 specs${noSpecs ? ` (skipped: ${specsMissingReason})` : ""}`, async () => {
    const described = await api("GET", "/indexes/notes");
    expect(validateResponse("db_control_2026-04.oas.yaml", "/indexes/{index_name}", "GET", 200, described.body)).toEqual([]);
    const host = `http://${(described.body as { host: string }).host}`;
    const search = await call(`${host}/records/namespaces/journal/search`, {
      method: "POST",
      apiKey: svc.apiKey,
      body: { query: { top_k: 2, inputs: { text: "lighthouse fog" } }, rerank: { model: "local-bm25-rerank", rank_fields: ["chunk_text"] } },
      headers: { "X-Pinecone-API-Version": "2026-04" },
    });
    expect(search.status).toBe(200);
    expect(validateResponse("db_data_2026-04.oas.yaml", "/records/namespaces/{namespace}/search", "POST", 200, search.body)).toEqual([]);
    const upsert = await call(`${host}/records/namespaces/journal/upsert`, {
      method: "POST",
      apiKey: svc.apiKey,
      body: '{"_id":"n6","chunk_text":"fresh note"}\n',
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(upsert).toMatchObject({ status: 201, body: undefined });
    const created = await api("POST", "/indexes/create-for-model", { name: "spec-check", cloud: "gcp", region: "us-central1", embed: { model: TEST_MODEL, field_map: { text: "body" }, metric: "dotproduct" } });
    expect(created.status).toBe(201);
    expect(validateResponse("db_control_2026-04.oas.yaml", "/indexes/create-for-model", "POST", 201, created.body)).toEqual([]);
    expect(created.body).toMatchObject({ dimension: TEST_DIM, metric: "dotproduct", embed: { model: TEST_MODEL, dimension: TEST_DIM, field_map: { text: "body" }, write_parameters: { input_type: "passage", truncate: "END" } } });
    for (const [path, method, body] of [
      ["/embed", "POST", { model: TEST_MODEL, inputs: [{ text: "a b" }], parameters: { input_type: "query" } }],
      ["/embed", "POST", { model: "local-bm25", inputs: [{ text: "a b" }], parameters: { input_type: "passage" } }],
      ["/rerank", "POST", { model: "local-bm25-rerank", query: "a", documents: [{ text: "a b" }, { text: "c" }] }],
      ["/models", "GET", undefined],
      ["/models/{model_name}", "GET", undefined],
    ] as const) {
      const answer = await api(method, path.replace("{model_name}", TEST_MODEL), body);
      expect(answer.status).toBe(200);
      expect(validateResponse("inference_2026-04.oas.yaml", path, method, 200, answer.body)).toEqual([]);
    }
  });

  it("refuses bad text records whole, naming the line, the id and the rule", async () => {
    const model = await pc.describeIndex("notes");
    const host = `http://${model.host}`;
    const answer = await call(`${host}/records/namespaces/journal/upsert`, {
      method: "POST",
      apiKey: svc.apiKey,
      body: '{"_id":"ok","chunk_text":"fine"}\n{"_id":"bad","text":"wrong field"}\n',
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 3, message: "Record on line 2 (id 'bad'): the text field 'chunk_text' is missing (the index embeds that field)" },
    });
    const ok = await pc.index({ name: "notes", host }).namespace("journal").fetch({ ids: ["ok"] });
    expect(ok.records).toEqual({});
  });
});

describe("inference through the official client", () => {
  it("embeds with local-bm25: term counts at murmur3 indices", async () => {
    const out = await pc.inference.embed({ model: "local-bm25", inputs: ["Hello hello world"], parameters: { inputType: "passage" } as never });
    expect(out.vectorType).toBe("sparse");
    const e = out.data[0] as { sparseIndices: number[]; sparseValues: number[]; sparseTokens: string[] };
    // murmur3_32("hello", seed 0) = 613153351
    const at = e.sparseIndices.indexOf(613153351);
    expect(e.sparseValues[at]).toBe(2);
    expect(e.sparseTokens.sort()).toEqual(["hello", "world"]);
    expect(out.usage).toEqual({ totalTokens: 3 });
  });

  it("reranks documents by BM25 and lists and describes the models", async () => {
    const out = await pc.inference.rerank({
      model: "local-bm25-rerank",
      query: "sourdough bread",
      documents: ["a tower", "sourdough bread recipe", "bread"],
      topN: 2,
    });
    expect(out.data.map((d) => d.index)).toEqual([1, 2]);
    expect(out.data[0].document).toEqual({ text: "sourdough bread recipe" });
    const models = await pc.inference.listModels();
    expect(models.models!.map((m) => m.model)).toEqual(["local-bm25", "local-bm25-rerank", TEST_MODEL, "chat-model-not-embeddings"]);
    const rerankers = await pc.inference.listModels({ type: "rerank" });
    expect(rerankers.models!.map((m) => m.model)).toEqual(["local-bm25-rerank"]);
    await expect(pc.inference.getModel("multilingual-e5-large")).rejects.toThrow(/HTTP status 404/);
    const missing = await api("GET", "/models/multilingual-e5-large");
    expect(missing.body).toMatchObject({ status: 404, error: { code: "NOT_FOUND", message: expect.stringMatching(/^Model multilingual-e5-large not found\. Available on the local service: local-bm25 /) } });
  });

  it("refuses a hosted model's name instead of faking its vectors", async () => {
    const answer = await api("POST", "/embed", { model: "multilingual-e5-large", inputs: [{ text: "x" }], parameters: { input_type: "query" } });
    expect(answer).toEqual({
      status: 400,
      headers: answer.headers,
      body: {
        status: 400,
        error: {
          code: "INVALID_ARGUMENT",
          message: `Model multilingual-e5-large is not available on the local service. Available on the local service: local-bm25 (sparse embedding), local-bm25-rerank (rerank), ${TEST_MODEL} (dense embedding, from ${embedder.url}), chat-model-not-embeddings (dense embedding, from ${embedder.url}).`,
        },
      },
    });
  });
});

describe("a dense model of the user's OpenAI-compatible server", () => {
  it("creates an index of the dimension it produces, embeds with it, and searches by meaning", async () => {
    const model = await pc.createIndexForModel({
      name: "dense-notes",
      cloud: "aws",
      region: "us-east-1",
      embed: { model: TEST_MODEL, fieldMap: { text: "body" } },
      waitUntilReady: true,
    });
    expect(model).toMatchObject({ dimension: TEST_DIM, metric: "cosine", vectorType: "dense", embed: { model: TEST_MODEL, dimension: TEST_DIM } });
    const ns = pc.index({ name: "dense-notes", host: `http://${model!.host}` }).namespace("__default__");
    await ns.upsertRecords({ records: NOTES.map(({ chunk_text, ...rest }) => ({ ...rest, body: chunk_text })) });
    const found = await ns.searchRecords({ query: { topK: 1, inputs: { text: "starter flour water" } } });
    expect(found.result.hits[0]._id).toBe("n4");
    // The stored vector is the server's, as float32.
    const fetched = await ns.fetch({ ids: ["n4"] });
    expect(fetched.records.n4.values).toEqual(testVector(NOTES[3].chunk_text).map(float32Double)); // shortest decimal of each float32
    // The key went to the embeddings server as a bearer token.
    expect(embedder.requests.every((r) => r.auth === "Bearer embed-secret")).toBe(true);
    const embedded = await pc.inference.embed({ model: TEST_MODEL, inputs: ["tower"] });
    expect((embedded.data[0] as { values: number[] }).values).toEqual(testVector("tower"));
  });

  it("maps the server's failures to the API's errors, after retrying", async () => {
    embedder.failNext = 1; // one failure: retried, then fine
    const ok = await api("POST", "/embed", { model: TEST_MODEL, inputs: [{ text: "x" }] });
    expect(ok.status).toBe(200);
    embedder.failNext = 5;
    const failed = await api("POST", "/embed", { model: TEST_MODEL, inputs: [{ text: "x" }] });
    expect(failed.body).toEqual({
      status: 502,
      error: { code: "UNAVAILABLE", message: `The embeddings server at ${embedder.url} answered POST /embeddings with HTTP 500: model runner crashed` },
    });
    embedder.failNext = 0;
  });
});
