import { open } from "lmdb";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VectorStore } from "../../../src/local/search/engine.js";
import { client, makeIndex, openEnv, type Env } from "../setup.js";

let env: Env;
afterEach(() => env.close());

const rec = (id: string, values: number[], metadata?: Record<string, unknown>) => ({ id, values, ...(metadata ? { metadata } : {}) });

describe("VectorStore", () => {
  it("spaceStats: per-namespace counts, total, bytes, dimension; unknown space is empty", async () => {
    env = openEnv();
    const s = env.store;
    expect(s.spaceStats("i:none")).toEqual({ namespaces: {}, totalVectorCount: 0, bytes: 0 });
    await s.put("i:a", "", [rec("x", [1, 2]), rec("y", [3, 4])], 2);
    await s.put("i:a", "ns", [rec("x", [1, 2], { k: "v" })], 2);
    const stats = s.spaceStats("i:a");
    expect(stats.namespaces).toEqual({ "": { vectorCount: 2, bytes: expect.any(Number) }, ns: { vectorCount: 1, bytes: expect.any(Number) } });
    expect(stats.totalVectorCount).toBe(3);
    expect(stats.dimension).toBe(2);
    expect(stats.bytes).toBeGreaterThan(3 * (8 + 8 + 16));
    // overwriting with the same record keeps the byte count; deleting gives bytes back
    const before = stats.bytes;
    await s.put("i:a", "", [rec("x", [5, 6])], 2);
    expect(s.spaceStats("i:a").bytes).toBe(before);
    await s.deleteIds("i:a", "ns", ["x"]);
    expect(s.spaceStats("i:a")).toEqual({ namespaces: { "": { vectorCount: 2, bytes: expect.any(Number) } }, totalVectorCount: 2, bytes: expect.any(Number), dimension: 2 });
    expect(s.spaceStats("i:a").bytes).toBeLessThan(before);
  });

  it("copySpace copies every namespace, returns the copy's stats, and the copy is independent", async () => {
    env = openEnv();
    const s = env.store;
    await s.put("i:src", "", [rec("a", [1, 0], { g: "x" }), rec("b", [0, 1])], 2);
    await s.put("i:src", "two", [rec("c", [1, 1], { tags: ["p", "q"] })], 2);
    const stats = await s.copySpace("i:src", "c:copy");
    expect(stats).toEqual(s.spaceStats("i:src"));
    expect(stats.namespaces).toEqual({ "": { vectorCount: 2, bytes: expect.any(Number) }, two: { vectorCount: 1, bytes: expect.any(Number) } });
    expect(s.get("c:copy", "two", "c")?.metadataJson).toBe('{"tags":["p","q"]}');
    expect(Array.from(s.get("c:copy", "", "a")!.values)).toEqual([1, 0]);
    await s.deleteAll("i:src", "");
    await s.put("i:src", "two", [rec("d", [2, 2])], 2);
    expect(s.spaceStats("c:copy").namespaces).toEqual({ "": { vectorCount: 2, bytes: expect.any(Number) }, two: { vectorCount: 1, bytes: expect.any(Number) } });
    expect(s.get("c:copy", "two", "d")).toBeUndefined();
    // writing to the copy later works (namespace numbers continue)
    await s.put("c:copy", "three", [rec("e", [3, 3])], 2);
    expect(s.spaceStats("c:copy").totalVectorCount).toBe(4);
    expect(s.spaceStats("i:src").totalVectorCount).toBe(2);
  });

  it("copySpace replaces what the target held; copying an unknown space gives an empty one", async () => {
    env = openEnv();
    const s = env.store;
    await s.put("i:src", "", [rec("a", [1])], 1);
    await s.put("c:t", "old", [rec("zzz", [9])], 1);
    await s.copySpace("i:src", "c:t");
    expect(s.spaceStats("c:t").namespaces).toEqual({ "": { vectorCount: 1, bytes: expect.any(Number) } });
    expect(s.get("c:t", "old", "zzz")).toBeUndefined();
    expect(await s.copySpace("i:ghost", "c:t")).toEqual({ namespaces: {}, totalVectorCount: 0, bytes: 0 });
  });

  it("copySpace of a big space copies in chunks and leaves the event loop free", async () => {
    env = openEnv();
    const s = env.store;
    const dim = 64;
    for (let b = 0; b < 20; b++) {
      await s.put("i:big", `ns${b % 3}`, Array.from({ length: 1000 }, (_, i) => rec(`r${b}-${i}`, Array.from({ length: dim }, (_, j) => i + j))), dim);
    }
    const before = s.spaceStats("i:big");
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = Date.now();
    const copying = s.copySpace("i:big", "c:big");
    // writes to the source while the copy runs do not reach the copy: it reads one snapshot
    await new Promise((r) => setTimeout(r, 5));
    await s.put("i:big", "late", [rec("late", Array.from({ length: dim }, () => 1))], dim);
    await s.deleteAll("i:big", "ns0");
    const stats = await copying;
    clearInterval(timer);
    const elapsed = Date.now() - started;
    process.stderr.write(`copy of 20000 x ${dim}: ${elapsed} ms, ${ticks} timer ticks\n`);
    expect(stats.totalVectorCount).toBe(20000);
    expect(stats).toEqual(before);
    expect(s.get("c:big", "late", "late")).toBeUndefined();
    expect(s.get("c:big", "ns0", "r0-0")).toBeDefined();
    expect([...s.scan("c:big", "ns0")].length).toBe(7000);
    // 20 chunks at least; timers ran between them
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(elapsed).toBeLessThan(30000);
  });

  it("dropSpace removes every record and namespace of one space only", async () => {
    env = openEnv();
    const s = env.store;
    await s.put("i:a", "", [rec("x", [1])], 1);
    await s.put("i:a", "n", [rec("y", [1])], 1);
    await s.put("i:b", "", [rec("x", [2])], 1);
    await s.dropSpace("i:a");
    expect(s.spaceStats("i:a")).toEqual({ namespaces: {}, totalVectorCount: 0, bytes: 0 });
    expect(s.get("i:a", "", "x")).toBeUndefined();
    expect(Array.from(s.get("i:b", "", "x")!.values)).toEqual([2]);
    await s.dropSpace("i:never");
    // the name can be used again, starting empty
    await s.put("i:a", "", [rec("new", [3])], 1);
    expect(s.spaceStats("i:a").namespaces).toEqual({ "": { vectorCount: 1, bytes: expect.any(Number) } });
    expect(await s.sweepOrphans()).toBe(0);
  });

  it("sweepOrphans removes records no space names (as a crash during a copy leaves them)", async () => {
    env = openEnv();
    const s = env.store;
    await s.put("i:live", "", [rec("x", [1])], 1);
    const records = env.root.openDB<Buffer, Buffer>({ name: "vectors.records", encoding: "binary", keyEncoding: "binary" });
    const orphan = Buffer.concat([Buffer.from([0, 0, 3, 231, 0, 0, 0, 1]), Buffer.from("lost")]);
    await records.put(orphan, Buffer.alloc(16));
    expect(await s.sweepOrphans()).toBe(1);
    expect(records.get(orphan)).toBeUndefined();
    expect(s.spaceStats("i:live").totalVectorCount).toBe(1);
    expect(s.get("i:live", "", "x")).toBeDefined();
  });

  it("everything is still there after the environment is closed and opened again", async () => {
    env = openEnv();
    const api = client(env.store, makeIndex({ metric: "dotproduct" }));
    await api.post("/vectors/upsert", { namespace: "n", vectors: [{ id: "a", values: [0.1, 0.2, 0.3], sparseValues: { indices: [7], values: [0.5] }, metadata: { s: "é", n: 1.25, b: false, l: ["x"] } }] });
    await env.root.close();
    const root = open({ path: join(env.dir, "data.mdb"), maxDbs: 16 });
    env.root = root;
    const again = client(new VectorStore(root), makeIndex({ metric: "dotproduct" }));
    const res = await again.get("/vectors/fetch", { ids: "a", namespace: "n" });
    expect(res.body.vectors.a).toEqual({ id: "a", values: [0.1, 0.2, 0.3], sparseValues: { indices: [7], values: [0.5] }, metadata: { s: "é", n: 1.25, b: false, l: ["x"] } });
    expect((await again.post("/describe_index_stats", {})).body.namespaces).toEqual({ n: { vectorCount: 1 } });
  });

  it("upsert of 100 records of 768 dimensions is cheap", async () => {
    env = openEnv();
    const api = client(env.store, makeIndex({ dimension: 768 }));
    const body = { vectors: Array.from({ length: 100 }, (_, i) => ({ id: `doc-${i}`, values: Array.from({ length: 768 }, (_, j) => Math.sin(i * 768 + j)), metadata: { i, text: "some text" } })) };
    const buf = Buffer.from(JSON.stringify(body));
    await api.call("POST", "/vectors/upsert", buf); // warm-up
    const rounds = 10;
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) expect((await api.call("POST", "/vectors/upsert", buf)).status).toBe(200);
    const perUpsert = (performance.now() - t0) / rounds;
    const t1 = performance.now();
    for (let r = 0; r < rounds; r++) JSON.parse(buf.toString());
    const perParse = (performance.now() - t1) / rounds;
    process.stderr.write(`upsert 100x768: ${perUpsert.toFixed(1)} ms (JSON.parse alone ${perParse.toFixed(1)} ms)\n`);
    expect(perUpsert).toBeLessThan(250);
    const q0 = performance.now();
    const q = await api.post("/query", { topK: 10, vector: body.vectors[5].values });
    process.stderr.write(`query over 100x768: ${(performance.now() - q0).toFixed(1)} ms\n`);
    expect(q.body.matches[0].id).toBe("doc-5");
  });
});
