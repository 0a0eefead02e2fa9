// Contract tests: the official TypeScript client 9 (the npm alias "pinecone9", API version 2026-07) drives the
// documents API of the local service end to end — upsert, fetch, list, search (text, query_string with a $match_phrase
// filter, dense), update, delete — reading back exactly what was written.
import { rmSync } from "node:fs";
import { Pinecone } from "pinecone9";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";

let svc: RunningService;
let pc: Pinecone;
let docs: ReturnType<Pinecone["index"]>["documents"];

beforeAll(async () => {
  svc = await startServiceProcess();
  pc = new Pinecone({ apiKey: svc.apiKey, controllerHostUrl: svc.controlUrl });
  const created = await pc.indexes.create({
    name: "articles",
    schema: {
      fields: {
        embedding: { type: "dense_vector", dimension: 2, metric: "dotproduct" },
        title: { type: "string", fullTextSearch: { language: "en", stemming: true, stopWords: true } },
        body: { type: "string", fullTextSearch: { language: "en" } },
      },
    },
  });
  docs = pc.index({ name: "articles", host: `http://${created.host}`, namespace: "news" }).documents;
});

afterAll(async () => {
  await svc?.stop();
  if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
});

const ARTICLES = [
  { _id: "a1", title: "Rivers of the north", body: "the quick brown fox crossed the river", embedding: [1, 0], year: 2021 },
  { _id: "a2", title: "Stone bridges", body: "a brown dog slept under the stone bridge", embedding: [0, 1], year: 2023 },
  { _id: "a3", title: "Running rivers", body: "paper boats on running water", embedding: [0.5, 0.5], year: 2024 },
];

describe("official client 9: documents", () => {
  it("upserts, fetches and lists", async () => {
    expect(await docs.upsert({ documents: ARTICLES })).toMatchObject({ upsertedCount: 3 });
    const fetched = await docs.fetch({ ids: ["a2"] });
    expect(fetched.documents).toEqual({ a2: ARTICLES[1] });
    expect(fetched.namespace).toBe("news");
    const listed = await docs.list({ limit: 2 });
    expect(listed.documents.map((d) => d._id)).toEqual(["a1", "a2"]);
    expect((await docs.list({ paginationToken: listed.pagination!.next })).documents.map((d) => d._id)).toEqual(["a3"]);
  });

  it("searches by text, by query string with a phrase filter, and by a dense vector", async () => {
    const text = await docs.search({ scoreBy: [{ type: "text", fields: ["title"], query: "river" }], topK: 5, includeFields: ["title"] });
    expect(text.matches.map((m) => m._id).sort()).toEqual(["a1", "a3"]);
    expect(text.matches[0]).toHaveProperty("title");
    const phrase = await docs.search({ scoreBy: [{ type: "query_string", query: "brown OR water" }], topK: 5, filter: { body: { $match_phrase: "brown dog" } } });
    expect(phrase.matches.map((m) => m._id)).toEqual(["a2"]);
    const dense = await docs.search({ scoreBy: [{ type: "dense_vector", fields: ["embedding"], values: [1, 0.1] }], topK: 2 });
    expect(dense.matches.map((m) => [m._id, m._score])).toEqual([["a1", 1], ["a3", 0.55]]);
  });

  it("updates and deletes, each visible at once", async () => {
    await docs.update({ documents: [{ _id: "a1", body: "a lamp" }] });
    expect((await docs.fetch({ ids: ["a1"], includeFields: ["body"] })).documents).toEqual({ a1: { _id: "a1", body: "a lamp" } });
    const byFilter = await docs.update({ filter: { year: { $gte: 2023 } }, setFields: { year: 2000 } });
    expect(byFilter.matchedRecords).toBe(2);
    const deleted = await docs.delete({ filter: { year: 2000 } });
    expect(deleted.matchedRecords).toBe(2);
    expect(Object.keys((await docs.fetch({ ids: ["a1", "a2", "a3"] })).documents)).toEqual(["a1"]);
  });

  it("surfaces a refusal's message", async () => {
    await expect(docs.search({ scoreBy: [{ type: "query_string", query: 'body:"open' }], topK: 1 })).rejects.toThrow(/unterminated phrase/);
  });
});
