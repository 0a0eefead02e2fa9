import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { client, makeIndex, openEnv, type Client, type Env } from "./setup.js";

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
        a: { id: "a", values: [0.1, 0.2, 0.3].map(Math.fround), metadata: { genre: "drama", year: 2020, tags: ["x", "y"], ok: true } },
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
});
