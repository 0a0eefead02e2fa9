// After a restart a namespace loads into memory in the background; a query that comes meanwhile is answered by reading
// lmdb through (search/scan-search.ts) when that is quicker than finishing the load. Its answers must be exactly
// those the namespace gives once loaded — ids, scores, values, metadata, order — for every metric, dense, sparse and
// hybrid, with filters, and must see every write acknowledged during the load.
import { afterEach, describe, expect, it } from "vitest";
import { VectorStore } from "../../../src/local/search/engine.js";
import { client, makeIndex, openEnv, type Env } from "../setup.js";

let env: Env;
afterEach(() => env.close());

const dimension = 12;
const count = 6000; // three slices of the background load
const value = (i: number, k: number) => Math.fround(Math.sin(i * 7.3 + k * 1.1) * (1 + (i % 5)));

function records(sparse: boolean, length = count) {
  return Array.from({ length }, (_, i) => ({
    id: `r${String(i).padStart(5, "0")}`,
    // every 50th record repeats an earlier one's values: equal scores, ordered by id
    values: Array.from({ length: dimension }, (_, k) => value(i % 50 === 49 ? i - 1 : i, k)),
    ...(sparse && i % 4 === 0 ? { sparseValues: { indices: [i % 97, 500 + (i % 13)], values: [0.25, value(i, 99)] } } : {}),
    ...(i % 3 === 0 ? { metadata: { g: `g${i % 7}`, n: i, tags: [`t${i % 11}`] } } : {}),
  }));
}

const queries = (sparse: boolean) => {
  const dense = Array.from({ length: dimension }, (_, k) => value(-3, k));
  const sparseVector = { indices: [5, 503, 96], values: [1, 2, 0.5] };
  const all = [
    { vector: dense, topK: 10 },
    { vector: dense, topK: 25, includeValues: true, includeMetadata: true },
    { vector: dense, topK: 10, filter: { g: { $in: ["g1", "g2"] } }, includeMetadata: true },
    { vector: dense, topK: 10, filter: { $or: [{ n: { $lt: 100 } }, { tags: "t3" }] } },
    { vector: dense, topK: 10, filter: { g: { $ne: "g1" } } },
    { vector: dense, topK: 10, filter: { missing: { $exists: true } } },
    // all zeros: every record scores the same (0 for cosine and dot product): the order is the ids'
    { vector: dense.map(() => 0), topK: 30 },
  ];
  return sparse ? [...all, { vector: dense, sparseVector, topK: 10 }, { sparseVector, topK: 10, includeValues: true }] : all;
};

describe("queries while a namespace loads after a restart", () => {
  it.each(["cosine", "dotproduct", "euclidean"] as const)("are answered from lmdb exactly as the loaded namespace answers them (%s)", async (metric) => {
    env = openEnv();
    const sparse = metric === "dotproduct";
    const index = makeIndex({ dimension, metric, vectorType: "dense" });
    const loaded = client(env.store, index);
    const all = records(sparse);
    for (let i = 0; i < all.length; i += 1000) await loaded.post("/vectors/upsert", { vectors: all.slice(i, i + 1000) });

    const store = new VectorStore(env.root);
    const restarted = client(store, index);
    const warming = store.warm([index.space], () => {});
    for (const query of queries(sparse)) {
      const got = await restarted.post("/query", query);
      expect(got.status, JSON.stringify(query)).toBe(200);
      expect(got.body, JSON.stringify(query)).toEqual((await loaded.post("/query", query)).body);
    }
    expect(store.mirror.scans, "answered by scanning lmdb").toBeGreaterThan(0);
    await warming;
    const scans = store.mirror.scans;
    expect((await restarted.post("/query", queries(sparse)[0])).body).toEqual((await loaded.post("/query", queries(sparse)[0])).body);
    expect(store.mirror.scans, "loaded: answered from memory").toBe(scans);
  });

  it("see every write acknowledged during the load", async () => {
    env = openEnv();
    const index = makeIndex({ dimension, metric: "dotproduct" });
    const before = client(env.store, index);
    const all = records(false, 40_000); // (the load goes on while the writes below wait for their commits)
    for (let i = 0; i < all.length; i += 1000) await before.post("/vectors/upsert", { vectors: all.slice(i, i + 1000) });
    const query = { vector: Array.from({ length: dimension }, (_, k) => value(-3, k)), topK: 3 };
    const top = (await before.post("/query", query)).body.matches.map((m: { id: string }) => m.id);

    const store = new VectorStore(env.root);
    const restarted = client(store, index);
    const log: string[] = [];
    const warming = store.warm([{ space: index.space, metric: index.metric, index: index.name }], (line) => log.push(line));
    const ids = async () => (await restarted.post("/query", query)).body.matches.map((m: { id: string }) => m.id);
    await restarted.post("/vectors/delete", { ids: [top[0]] });
    await restarted.post("/vectors/update", { id: top[2], values: query.vector.map((x) => -x) });
    const got = await ids();
    expect(store.mirror.scans, "answered by scanning lmdb").toBe(1);
    expect(got[0]).toBe(top[1]);
    expect(got).not.toContain(top[0]);
    expect(got).not.toContain(top[2]);
    // an upsert makes room in memory first, which finishes the load: from then on memory answers, the same
    await restarted.post("/vectors/upsert", { vectors: [{ id: "new", values: query.vector.map((x) => x * 100) }] });
    expect(await ids()).toEqual(["new", ...got.slice(0, 2)]);
    expect(store.mirror.scans).toBe(1);
    await warming;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^vecdb-mcp local service: index "idx", namespace "" in memory: 39999 records loaded in \d+\.\d s; 1 query answered from lmdb meanwhile$/);
  });
});
