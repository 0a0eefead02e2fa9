import { float32ToString } from "../../../src/common/float32.js";
import { afterEach, describe, expect, it } from "vitest";
import { client, err, makeIndex, openEnv, type Env } from "../setup.js";
import type { DataPlaneIndex } from "../../../src/local/data/handlers.js";

let env: Env;
afterEach(() => env.close());

function setup(over: Partial<DataPlaneIndex> = {}) {
  env = openEnv();
  return client(env.store, makeIndex(over));
}

const f = Math.fround;
const rows = [
  { id: "a", values: [1, 2, 3], metadata: { n: 1 } },
  { id: "b", values: [-1, 0.5, 2], metadata: { n: 2 } },
  { id: "c", values: [0, 0, 0] },
  { id: "d", values: [3, -2, 1] },
];

describe("query scores", () => {
  it("cosine: dot / (|q| |v|), highest first, zero vector scores 0", async () => {
    const api = setup({ metric: "cosine" });
    await api.post("/vectors/upsert", { vectors: rows });
    const q = [1, 1, 0];
    const res = await api.post("/query", { topK: 4, vector: q });
    expect(res.status).toBe(200);
    // a: (1+2)/(sqrt2*sqrt14) ; b: (-1+0.5)/(sqrt2*sqrt5.25) ; d: (3-2)/(sqrt2*sqrt14) ; c: 0
    const expected = [
      ["a", 3 / (Math.SQRT2 * Math.sqrt(14))],
      ["d", 1 / (Math.SQRT2 * Math.sqrt(14))],
      ["c", 0],
      ["b", -0.5 / (Math.SQRT2 * Math.sqrt(5.25))],
    ] as const;
    expect(res.body.matches.map((m: any) => m.id)).toEqual(expected.map((e) => e[0]));
    res.body.matches.forEach((m: any, i: number) => expect(m.score).toBeCloseTo(expected[i][1], 6));
    expect(res.body.namespace).toBe("");
    expect(res.body.usage).toEqual({ readUnits: 1 });
    expect(res.body.matches[0]).toEqual({ id: "a", score: res.body.matches[0].score, values: [] });
  });

  it("dotproduct: plain dot product, highest first", async () => {
    const api = setup({ metric: "dotproduct" });
    await api.post("/vectors/upsert", { vectors: rows });
    const res = await api.post("/query", { topK: 3, vector: [2, 0, 1] });
    // a: 2+3=5 ; b: -2+2=0 ; c: 0 ; d: 6+1=7
    expect(res.body.matches.map((m: any) => [m.id, m.score])).toEqual([["d", 7], ["a", 5], ["b", 0]]);
  });

  it("euclidean: squared distance, lowest first", async () => {
    const api = setup({ metric: "euclidean" });
    await api.post("/vectors/upsert", { vectors: rows });
    const res = await api.post("/query", { topK: 4, vector: [1, 0, 1] });
    // a: 0+4+4=8 ; b: 4+0.25+1=5.25 ; c: 1+0+1=2 ; d: 4+4+0=8 (tie: by id)
    expect(res.body.matches.map((m: any) => [m.id, m.score])).toEqual([["c", 2], ["b", 5.25], ["a", 8], ["d", 8]]);
  });

  it("scores use the stored 32-bit floats", async () => {
    const api = setup({ metric: "dotproduct", dimension: 2 });
    await api.post("/vectors/upsert", { vectors: [{ id: "x", values: [0.1, 0.7] }] });
    const res = await api.post("/query", { topK: 1, vector: [0.3, 0.9] });
    // the score of the stored floats, written as the shortest decimal of its float32 (as the hosted service does)
    expect(res.body.matches[0].score).toBe(Number(float32ToString(f(0.1) * f(0.3) + f(0.7) * f(0.9))));
  });

  it("topK limits the matches; includeValues and includeMetadata add them", async () => {
    const api = setup({ metric: "dotproduct" });
    await api.post("/vectors/upsert", { vectors: rows });
    const res = await api.post("/query", { topK: 1, vector: [1, 1, 1], includeValues: true, includeMetadata: true });
    expect(res.body.matches).toEqual([{ id: "a", score: 6, values: [1, 2, 3], metadata: { n: 1 } }]);
  });

  it("queries by the id of a stored record, and an unknown id finds nothing", async () => {
    const api = setup({ metric: "dotproduct" });
    await api.post("/vectors/upsert", { vectors: rows });
    const res = await api.post("/query", { topK: 2, id: "d" });
    expect(res.body.matches.map((m: any) => [m.id, m.score])).toEqual([["d", 14], ["a", 2]]);
    const none = await api.post("/query", { topK: 2, id: "nope" });
    expect(none.body).toEqual({ matches: [], namespace: "", usage: { readUnits: 1 } });
  });

  it("hybrid: dense plus sparse dot product on a dotproduct index; sparse values come back with values", async () => {
    const api = setup({ metric: "dotproduct", dimension: 2 });
    await api.post("/vectors/upsert", {
      vectors: [
        { id: "h1", values: [1, 0], sparseValues: { indices: [5, 10], values: [0.5, 2] } },
        { id: "h2", values: [0, 1], sparseValues: { indices: [10], values: [1] } },
        { id: "h3", values: [1, 1] },
      ],
    });
    const res = await api.post("/query", { topK: 3, vector: [1, 0], sparseVector: { indices: [10, 7], values: [3, 1] }, includeValues: true });
    // h1: 1 + 2*3 = 7 ; h2: 0 + 1*3 = 3 ; h3: 1
    expect(res.body.matches).toEqual([
      { id: "h1", score: 7, values: [1, 0], sparseValues: { indices: [5, 10], values: [0.5, 2] } },
      { id: "h2", score: 3, values: [0, 1], sparseValues: { indices: [10], values: [1] } },
      { id: "h3", score: 1, values: [1, 1] },
    ]);
    const sparseOnly = await api.post("/query", { topK: 1, sparseVector: { indices: [5], values: [2] } });
    expect(sparseOnly.body.matches).toEqual([{ id: "h1", score: 1, values: [] }]);
  });

  it("a sparse index stores and queries sparse vectors only", async () => {
    const api = setup({ metric: "dotproduct", vectorType: "sparse", dimension: 0 });
    const up = await api.post("/vectors/upsert", { vectors: [{ id: "s1", sparseValues: { indices: [1, 2], values: [1, 2] } }, { id: "s2", values: [], sparseValues: { indices: [2], values: [5] } }] });
    expect(up.body).toEqual({ upsertedCount: 2 });
    const res = await api.post("/query", { topK: 2, sparseVector: { indices: [2], values: [1] } });
    expect(res.body.matches.map((m: any) => [m.id, m.score])).toEqual([["s2", 5], ["s1", 2]]);
    const stats = await api.post("/describe_index_stats", {});
    expect(stats.body).toEqual({ namespaces: { "": { vectorCount: 2 } }, indexFullness: 0, totalVectorCount: 2, metric: "dotproduct", vectorType: "sparse" });
    const dense = await api.post("/vectors/upsert", { vectors: [{ id: "s3", values: [1], sparseValues: { indices: [1], values: [1] } }] });
    expect(dense).toEqual({ status: 400, body: err(3, "Vector at position 0 (id 's3'): a sparse index takes no dense values; send sparseValues only") });
    const noSparse = await api.post("/vectors/upsert", { vectors: [{ id: "s4" }] });
    expect(noSparse).toEqual({ status: 400, body: err(3, "Vector at position 0 (id 's4'): sparseValues are required by a sparse index") });
    const vq = await api.post("/query", { topK: 1, vector: [1] });
    expect(vq).toEqual({ status: 400, body: err(3, "This is a sparse index: query with sparseVector, not vector") });
  });
});

describe("namespaces", () => {
  it("keeps namespaces apart; '' and '__default__' are the same default namespace", async () => {
    const api = setup({ metric: "dotproduct" });
    await api.post("/vectors/upsert", { vectors: [{ id: "a", values: [1, 0, 0] }] });
    await api.post("/vectors/upsert", { namespace: "__default__", vectors: [{ id: "b", values: [2, 0, 0] }] });
    await api.post("/vectors/upsert", { namespace: "ns1", vectors: [{ id: "a", values: [3, 0, 0] }] });
    const def = await api.post("/query", { topK: 10, vector: [1, 0, 0], namespace: "__default__" });
    expect(def.body.matches.map((m: any) => m.id)).toEqual(["b", "a"]);
    expect(def.body.namespace).toBe("");
    const ns1 = await api.post("/query", { topK: 10, vector: [1, 0, 0], namespace: "ns1" });
    expect(ns1.body).toEqual({ matches: [{ id: "a", score: 3, values: [] }], namespace: "ns1", usage: { readUnits: 1 } });
    const empty = await api.post("/query", { topK: 10, vector: [1, 0, 0], namespace: "nothing-here" });
    expect(empty.body).toEqual({ matches: [], namespace: "nothing-here", usage: { readUnits: 1 } });
    const stats = await api.post("/describe_index_stats", {});
    expect(stats.body.namespaces).toEqual({ "": { vectorCount: 2 }, ns1: { vectorCount: 1 } });
    expect(stats.body.totalVectorCount).toBe(3);
    const fetched = await api.get("/vectors/fetch", { ids: "a", namespace: "ns1" });
    expect(fetched.body.vectors.a.values).toEqual([3, 0, 0]);
    expect(fetched.body.namespace).toBe("ns1");
  });

  it("indexes are separate spaces in one store", async () => {
    env = openEnv();
    const one = client(env.store, makeIndex({ space: "i:one" }));
    const two = client(env.store, makeIndex({ space: "i:two" }));
    await one.post("/vectors/upsert", { vectors: [{ id: "a", values: [1, 0, 0] }] });
    expect((await two.get("/vectors/fetch", { ids: "a" })).body.vectors).toEqual({});
    expect((await two.post("/describe_index_stats", {})).body.totalVectorCount).toBe(0);
  });
});
