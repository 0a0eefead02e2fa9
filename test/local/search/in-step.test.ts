// The records in memory follow every write as soon as it is acknowledged (query, stats and fetch_by_metadata read
// them), and the memory limit refuses a write whole, before anything is written.
import { afterEach, describe, expect, it } from "vitest";
import { VectorStore } from "../../../src/local/search/engine.js";
import { client, err, makeIndex, openEnv, type Env } from "../setup.js";

let env: Env;
afterEach(() => env.close());

const ids = (res: { body: { matches: { id: string }[] } }) => res.body.matches.map((m) => m.id);

describe("memory in step with lmdb", () => {
  it("upsert, update, delete by id, by filter and all: each visible to the next query at once", async () => {
    env = openEnv();
    const api = client(env.store, makeIndex({ dimension: 2, metric: "dotproduct" }));
    const q = (filter?: object) => api.post("/query", { vector: [1, 0], topK: 10, ...(filter ? { filter } : {}) });
    const count = async (filter: object) => (await api.post("/describe_index_stats", { filter })).body.namespaces[""]?.vectorCount ?? 0;
    await api.post("/vectors/upsert", { vectors: [1, 2, 3, 4].map((n) => ({ id: `r${n}`, values: [n, 0], metadata: { g: n % 2 ? "odd" : "even", n } })) });
    expect(ids(await q())).toEqual(["r4", "r3", "r2", "r1"]);
    expect(ids(await q({ g: "odd" }))).toEqual(["r3", "r1"]);
    expect(await count({ n: { $gte: 2 } })).toBe(3);

    await api.post("/vectors/update", { id: "r4", values: [0.5, 0], setMetadata: { g: "odd" } });
    expect(ids(await q())).toEqual(["r3", "r2", "r1", "r4"]);
    expect(ids(await q({ g: "odd" }))).toEqual(["r3", "r1", "r4"]);
    expect(ids(await q({ g: { $ne: "odd" } }))).toEqual(["r2"]);

    await api.post("/vectors/delete", { ids: ["r3"] });
    expect(ids(await q({ g: "odd" }))).toEqual(["r1", "r4"]);
    await api.post("/vectors/delete", { filter: { n: { $lt: 2 } } });
    expect(ids(await q())).toEqual(["r2", "r4"]);
    const page = await api.post("/vectors/fetch_by_metadata", { filter: { g: { $in: ["odd", "even"] } } });
    expect(Object.keys(page.body.vectors)).toEqual(["r2", "r4"]);
    // a slot freed by a delete is reused, and the new record's metadata replaces the old one's in the index
    await api.post("/vectors/upsert", { vectors: [{ id: "r9", values: [9, 0], metadata: { g: "new" } }] });
    expect(ids(await q({ g: "odd" }))).toEqual(["r4"]);
    expect(ids(await q({ g: "new" }))).toEqual(["r9"]);
    await api.post("/vectors/delete", { deleteAll: true });
    expect(ids(await q())).toEqual([]);
    expect(await count({ g: "new" })).toBe(0);
  });

  it("a store opened on the same data reads the records back into memory", async () => {
    env = openEnv();
    const api = client(env.store, makeIndex({ dimension: 2 }));
    await api.post("/vectors/upsert", { vectors: [{ id: "a", values: [1, 0], metadata: { k: "x" } }, { id: "b", values: [0, 1] }] });
    const again = client(new VectorStore(env.root), makeIndex({ dimension: 2 }));
    expect(ids(await again.post("/query", { vector: [0, 1], topK: 2 }))).toEqual(["b", "a"]);
    expect(ids(await again.post("/query", { vector: [0, 1], topK: 2, filter: { k: "x" } }))).toEqual(["a"]);
  });

  it.each(["dotproduct", "cosine"] as const)("a store opened on the same data loads every part of every record: 768 values, their norms, sparse values, metadata, an id too long for a key (%s)", async (metric) => {
    env = openEnv();
    const index = makeIndex({ dimension: 768, metric });
    const sparse = metric === "dotproduct"; // (a cosine index takes no sparse values)
    const value = (i: number, k: number) => Math.fround(Math.sin(i * 13 + k) * (1 + (k % 7)));
    const vectors = Array.from({ length: 300 }, (_, i) => ({
      id: i === 7 ? "𝄞".repeat(500) : `r${i}`, // 2,000 UTF-8 bytes: kept in the record, not the key
      values: Array.from({ length: 768 }, (_, k) => value(i, k)),
      ...(sparse && i % 3 === 0 ? { sparseValues: { indices: [i, 1000 + i], values: [0.5, Math.fround(i / 7)] } } : {}),
      ...(i % 2 === 0 ? { metadata: { n: i, tag: `t${i % 5}`, list: ["a", `b${i}`] } } : {}),
    }));
    const api = client(env.store, index);
    for (let i = 0; i < vectors.length; i += 100) await api.post("/vectors/upsert", { vectors: vectors.slice(i, i + 100) });
    const everything = {
      vector: Array.from({ length: 768 }, (_, k) => value(-1, k)),
      ...(sparse ? { sparseVector: { indices: [3, 1003], values: [1, 1] } } : {}),
      topK: 300,
      includeValues: true,
      includeMetadata: true,
    };
    const before = await api.post("/query", everything);
    expect(before.body.matches).toHaveLength(300);

    const again = client(new VectorStore(env.root), index);
    expect((await again.post("/query", everything)).body).toEqual(before.body);
    expect((await again.post("/query", { ...everything, filter: { tag: "t2" } })).body.matches.map((m: { id: string }) => m.id).sort()).toEqual(
      vectors.filter((v, i) => i % 2 === 0 && i % 5 === 2).map((v) => v.id).sort(),
    );
  });

  it("loads in the background at open; writes during the load and queries before its end see the right records", async () => {
    env = openEnv();
    const index = makeIndex({ dimension: 2, metric: "euclidean" });
    const api = client(env.store, index);
    const all = Array.from({ length: 5000 }, (_, i) => ({ id: `r${String(i).padStart(4, "0")}`, values: [i, 0], metadata: { even: i % 2 === 0 } }));
    for (let i = 0; i < all.length; i += 1000) await api.post("/vectors/upsert", { vectors: all.slice(i, i + 1000) });

    const store = new VectorStore(env.root);
    const again = client(store, index);
    const warming = store.warm([index.space], () => {});
    // while the first slice is in: delete one at the start (applied to the slice), rewrite one near the end and add one
    // (an upsert needs room first, which finishes the load)
    await again.post("/vectors/delete", { ids: ["r0000"] });
    await again.post("/vectors/upsert", { vectors: [{ id: "r4990", values: [-1, 0], metadata: { even: false } }, { id: "new", values: [-2, 0] }] });
    await warming;
    expect(ids(await again.post("/query", { vector: [0, 0], topK: 4 }))).toEqual(["r0001", "r4990", "new", "r0002"]);
    expect((await again.post("/describe_index_stats", { filter: { even: true } })).body.namespaces[""].vectorCount).toBe(2498);

    const third = new VectorStore(env.root);
    void third.warm([index.space], () => {});
    // asked before the background load is done: the namespace is finished at once
    expect(ids(await client(third, index).post("/query", { vector: [5000, 0], topK: 2 }))).toEqual(["r4999", "r4998"]);
  });

  it("refuses a write past the memory limit, naming it, and writes nothing", async () => {
    env = openEnv();
    const store = new VectorStore(env.root, { memoryLimitBytes: 1048576 });
    const api = client(store, makeIndex({ dimension: 768 }));
    const vectors = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `v${from + i}`, values: new Array(768).fill(0.5) }));
    expect((await api.post("/vectors/upsert", { vectors: vectors(0, 200) })).status).toBe(200);
    const refused = await api.post("/vectors/upsert", { vectors: vectors(200, 300) });
    expect(refused).toEqual({
      status: 400,
      body: err(9, 'Nothing was done: the local service keeps every record in memory, and namespace "" needs 2 MB more, past its limit of 1 MB (1 MB in use). Delete records or namespaces, or start the service with a larger memory limit.'),
    });
    expect((await api.post("/describe_index_stats", {})).body.totalVectorCount).toBe(200);
    expect(ids(await api.post("/query", { vector: new Array(768).fill(1), topK: 10000 }))).toHaveLength(200);
  });
});
