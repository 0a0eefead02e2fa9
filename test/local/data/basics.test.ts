import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { client, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
beforeEach(() => {
  env = openEnv();
  api = client(env.store, makeIndex());
});
afterEach(() => env.close());

describe("upsert, fetch, query, stats", () => {
  it("upserts and fetches exactly what was written (values as 32-bit floats, metadata exact)", async () => {
    const up = await api.post("/vectors/upsert", {
      vectors: [
        { id: "a", values: [0.1, 0.2, 0.3], metadata: { genre: "drama", year: 2020, tags: ["x", "y"], ok: true } },
        { id: "b", values: [1, 0, 0] },
      ],
    });
    expect(up).toEqual({ status: 200, body: { upsertedCount: 2 } });
    const f = await api.get("/vectors/fetch", { ids: ["a", "b", "missing"] });
    expect(f.status).toBe(200);
    expect(f.body).toEqual({
      vectors: {
        a: { id: "a", values: [0.1, 0.2, 0.3], metadata: { genre: "drama", year: 2020, tags: ["x", "y"], ok: true } },
        b: { id: "b", values: [1, 0, 0] },
      },
      namespace: "",
      usage: { readUnits: 1 },
    });
  });

  it("queries by cosine and reports stats", async () => {
    await api.post("/vectors/upsert", { vectors: [{ id: "a", values: [1, 0, 0] }, { id: "b", values: [0, 1, 0] }, { id: "c", values: [1, 1, 0] }] });
    const q = await api.post("/query", { topK: 2, vector: [1, 0, 0] });
    expect(q.status).toBe(200);
    expect(q.body.matches.map((m: any) => m.id)).toEqual(["a", "c"]);
    expect(q.body.matches[0].score).toBeCloseTo(1, 6);
    expect(q.body.matches[1].score).toBeCloseTo(Math.SQRT1_2, 6);
    const s = await api.post("/describe_index_stats", {});
    expect(s.body).toEqual({ namespaces: { "": { vectorCount: 3 } }, dimension: 3, indexFullness: 0, totalVectorCount: 3, metric: "cosine", vectorType: "dense" });
  });

  it("a later record with the same id in one upsert wins; the count counts records sent", async () => {
    const up = await api.post("/vectors/upsert", { vectors: [{ id: "d", values: [1, 1, 1], metadata: { v: 1 } }, { id: "d", values: [2, 2, 2] }] });
    expect(up.body).toEqual({ upsertedCount: 2 });
    expect((await api.get("/vectors/fetch", { ids: "d" })).body.vectors.d).toEqual({ id: "d", values: [2, 2, 2] });
    expect((await api.post("/describe_index_stats", {})).body.totalVectorCount).toBe(1);
  });

  it("an upsert replaces the whole record (metadata is not merged)", async () => {
    await api.post("/vectors/upsert", { vectors: [{ id: "r", values: [1, 1, 1], metadata: { a: 1 } }] });
    await api.post("/vectors/upsert", { vectors: [{ id: "r", values: [1, 1, 1], metadata: { b: 2 } }] });
    expect((await api.get("/vectors/fetch", { ids: "r" })).body.vectors.r.metadata).toEqual({ b: 2 });
  });

  it("concurrent upserts and deletes keep counts exact", async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.post("/vectors/upsert", { namespace: `ns${i % 3}`, vectors: Array.from({ length: 10 }, (_, j) => ({ id: `id${i}-${j}`, values: [i, j, 1] })) }),
      ),
    );
    let stats = await api.post("/describe_index_stats", {});
    expect(stats.body.namespaces).toEqual({ ns0: { vectorCount: 100 }, ns1: { vectorCount: 100 }, ns2: { vectorCount: 100 } });
    await Promise.all([
      api.post("/vectors/delete", { namespace: "ns0", deleteAll: true }),
      api.post("/vectors/upsert", { namespace: "ns0", vectors: [{ id: "after", values: [1, 1, 1] }] }),
      api.post("/vectors/delete", { namespace: "ns1", ids: ["id1-0", "id1-1", "id4-0"] }),
      api.post("/vectors/upsert", { namespace: "ns2", vectors: [{ id: "id2-0", values: [0, 0, 1] }, { id: "new", values: [0, 0, 1] }] }),
    ]);
    stats = await api.post("/describe_index_stats", {});
    expect(stats.body.namespaces).toEqual({ ns0: { vectorCount: 1 }, ns1: { vectorCount: 97 }, ns2: { vectorCount: 101 } });
    expect(stats.body.totalVectorCount).toBe(199);
    expect(Object.keys((await api.get("/vectors/fetch", { ids: ["after", "id0-0"], namespace: "ns0" })).body.vectors)).toEqual(["after"]);
  });
});
