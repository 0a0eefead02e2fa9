// The approximate index of large namespaces (src/local/search/approximate.ts) with the real native library, at test
// sizes with the threshold lowered: recall against exact search on clustered data, kept in step with writes through
// the data plane, exact search below the threshold and for the queries it does not answer, and exact search when
// the native library cannot load.
import { afterEach, describe, expect, it } from "vitest";
import { open } from "lmdb";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Approximate, searchBreadth } from "../../../src/local/search/approximate.js";
import { startGraphThread, type GraphThread } from "../../../src/local/search/ann-thread.js";
import { scoreEach, searchNamespace } from "../../../src/local/search/exact.js";
import { makeQuery, type Metric } from "../../../src/local/search/score.js";
import { NamespaceVectors } from "../../../src/local/memory/vectors.js";
import { VectorStore, type VectorStoreOptions } from "../../../src/local/search/engine.js";
import { mixture } from "../../../bench/approximate.js";
import { client, makeIndex } from "../setup.js";
import { until } from "../../helpers/until.js";

const unlimited = { take() {}, give() {} };

/** A namespace in memory filled with `count` clustered vectors (ids r0…), and a source of more like them. */
function clustered(count: number, dim: number) {
  const nv = new NamespaceVectors(dim, unlimited, "test");
  const next = mixture(count, dim, 3);
  const row = new Float32Array(dim);
  for (let i = 0; i < count; i++) {
    next(row);
    nv.put(`r${i}`, row, undefined, undefined);
  }
  return {
    nv,
    vector: () => {
      const v = new Float32Array(dim);
      next(v);
      return v;
    },
  };
}

const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

/** The real worker, whose batches can be held back (to see a graph that has not caught up yet). */
function gatedLoader() {
  let open: Promise<void> = Promise.resolve();
  let release = () => {};
  return {
    loader: async (): Promise<GraphThread> => {
      const thread = await startGraphThread();
      return { ...thread, name: thread.name, update: async (...args) => (await open, thread.update(...args)) };
    },
    hold() {
      open = new Promise((r) => (release = r));
    },
    release: () => release(),
  };
}

describe("approximate index: recall and answers", () => {
  it.each<Metric>(["cosine", "dotproduct", "euclidean"])("recall@10 ≥ 0.95 against exact on clustered data (%s); every score exact", async (metric) => {
    const { nv, vector } = clustered(4000, 96);
    const approximate = new Approximate({ above: 2000, budget: unlimited, log: () => {} });
    approximate.consider(nv, metric, "test");
    await until(() => approximate.state(nv)?.built === true, "the build", 60_000);
    let found = 0;
    const queries = 40;
    for (let i = 0; i < queries; i++) {
      const q = makeQuery(vector(), undefined);
      const exact = searchNamespace(nv, metric, q, 10);
      expect(approximate.answers(nv, metric, q, 10, undefined, "test")).toBe(true);
      const ann = (await approximate.search(nv, metric, q, 10, undefined))!;
      expect(ann).toHaveLength(10);
      // each hit's score is the exact one, in exact search's order
      expect(ann).toEqual(scoreEach(nv, metric, q, 10, ann.map((h) => h.slot)));
      const want = new Set(ids(exact));
      found += ann.filter((h) => want.has(h.id)).length;
    }
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.95);
    await approximate.stop();
  });

  it("stops while the worker is in a native call without taking the process down (it ends between calls)", async () => {
    // Terminating the worker inside a native call made the library throw from C++ and abort the whole process
    // ("terminate called after throwing an instance of 'Napi::Error'"); the worker now ends after the call.
    const { nv, vector } = clustered(3000, 32);
    for (let round = 0; round < 16; round++) {
      const approximate = new Approximate({ above: 2000, budget: unlimited, log: () => {} });
      approximate.consider(nv, "cosine", "test");
      await until(() => approximate.state(nv)?.built === true, "the build", 60_000);
      const searching = approximate.search(nv, "cosine", makeQuery(vector(), undefined), 10, undefined);
      await approximate.stop(); // the search is on its way to the worker, or in the native library already
      await searching; // answered, or undefined (exact search answers then)
      await approximate.stop(); // a second stop finds the worker ended and resolves too
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it("asks the graph for more candidates as the namespace grows (its search breadth), and re-scores them all", async () => {
    // the rule measured at 1,000,000 × 768 (docs/local-service.md): 128 up to 250,000 records, doubling with the size, at most 1,024
    expect([1, 250_000, 250_001, 500_000, 1_000_000, 1_000_001, 1_500_000, 100_000_000].map(searchBreadth)).toEqual([128, 128, 256, 256, 512, 1024, 1024, 1024]);
    const { nv, vector } = clustered(3000, 32);
    const asked: number[] = [];
    const approximate = new Approximate({
      above: 2000,
      budget: unlimited,
      log: () => {},
      loader: async (): Promise<GraphThread> => {
        const thread = await startGraphThread();
        return { ...thread, name: thread.name, update: thread.update.bind(thread), search: (id, v, k) => (asked.push(k), thread.search(id, v, k)) };
      },
    });
    approximate.consider(nv, "cosine", "test");
    await until(() => approximate.state(nv)?.built === true, "the build", 60_000);
    const q = makeQuery(vector(), undefined);
    const hits = (await approximate.search(nv, "cosine", q, 10, undefined))!;
    expect(asked).toEqual([128]);
    expect(ids(hits)).toEqual(ids(searchNamespace(nv, "cosine", q, 10)));
    await approximate.stop();
  });

  it("scores changed records exactly until the graph has them, and after", async () => {
    const { nv, vector } = clustered(3000, 32);
    const gate = gatedLoader();
    const approximate = new Approximate({ above: 2000, budget: unlimited, log: () => {}, loader: gate.loader });
    approximate.consider(nv, "cosine", "test");
    await until(() => approximate.state(nv)?.built === true, "the build", 60_000);
    const v = vector();
    const q = makeQuery(v, undefined);
    const search = async () => (await approximate.search(nv, "cosine", q, 10, undefined))!;
    const gone = (await search())[0];
    gate.hold(); // the worker gets no batch until release(): the graph keeps the old vectors
    nv.remove(gone.id);
    approximate.changed(nv, gone.slot);
    nv.put("moved", v, undefined, undefined); // into the freed slot
    approximate.changed(nv, nv.slotOf.get("moved")!);
    expect(nv.slotOf.get("moved")).toBe(gone.slot);
    const check = async () => {
      expect(approximate.answers(nv, "cosine", q, 10, undefined, "test")).toBe(true);
      const hits = await search();
      expect(hits[0].id).toBe("moved");
      expect(hits[0].score).toBeCloseTo(1, 6);
      expect(ids(hits)).not.toContain(gone.id);
      expect(hits).toEqual(scoreEach(nv, "cosine", q, 10, hits.map((h) => h.slot)));
    };
    await check();
    expect(approximate.state(nv)?.changed).toBe(1);
    gate.release();
    await until(() => approximate.state(nv)?.changed === 0, "the catch-up", 60_000);
    await check();
    await approximate.stop();
  });

  it("answers a filter keeping most records (only kept records, recall ≥ 0.95); leaves narrower filters, hybrid, zero and large-topK queries to exact search", async () => {
    const { nv, vector } = clustered(4000, 64);
    const approximate = new Approximate({ above: 2000, budget: unlimited, log: () => {} });
    approximate.consider(nv, "cosine", "test");
    await until(() => approximate.state(nv)?.built === true, "the build", 60_000);
    const most = nv.liveSlots().filter((s) => s % 4 !== 0); // 75%
    let found = 0;
    for (let i = 0; i < 20; i++) {
      const q = makeQuery(vector(), undefined);
      expect(approximate.answers(nv, "cosine", q, 10, most, "test")).toBe(true);
      const ann = (await approximate.search(nv, "cosine", q, 10, most))!;
      expect(ann.every((h) => h.slot % 4 !== 0)).toBe(true);
      const want = new Set(ids(searchNamespace(nv, "cosine", q, 10, most)));
      found += ann.filter((h) => want.has(h.id)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.95);
    const q = makeQuery(vector(), undefined);
    expect(approximate.answers(nv, "cosine", q, 10, nv.liveSlots().filter((s) => s % 4 === 0), "test")).toBe(false);
    expect(approximate.answers(nv, "cosine", makeQuery(vector(), { indices: Uint32Array.of(1), values: Float32Array.of(1) }), 10, undefined, "test")).toBe(false);
    expect(approximate.answers(nv, "cosine", makeQuery(new Float32Array(64), undefined), 10, undefined, "test")).toBe(false);
    expect(approximate.answers(nv, "cosine", q, 1001, undefined, "test")).toBe(false);
    expect(approximate.answers(nv, "euclidean", q, 10, undefined, "test")).toBe(false); // built for another metric
    await approximate.stop();
  });
});

describe("approximate index: in step with writes (data plane, lmdb, memory)", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function storeWith(options: VectorStoreOptions) {
    dir = mkdtempSync(join(tmpdir(), "vecdb-ann-"));
    const root = open({ path: join(dir, "data.mdb"), maxDbs: 16 });
    return { root, store: new VectorStore(root, options) };
  }

  it("a removed record is never returned, an updated vector is found at its new place — before and after the graph catches up", async () => {
    const lines: string[] = [];
    const { root, store } = storeWith({ approximateAbove: 1500, log: (l) => lines.push(l) });
    const dim = 48;
    const index = makeIndex({ dimension: dim, metric: "cosine" });
    const api = client(store, index);
    const { nv: source, vector } = clustered(2000, dim);
    const records = source.liveSlots().map((s) => ({ id: source.ids[s]!, values: Array.from(source.row(s)) }));
    for (let i = 0; i < records.length; i += 500) expect((await api.post("/vectors/upsert", { vectors: records.slice(i, i + 500) })).status).toBe(200);
    const nv = store.mirror.namespace(index.space, "", dim);
    const approximate = store.approximate;
    const query = (values: ArrayLike<number>, topK = 5) => api.post("/query", { vector: Array.from(values), topK });
    await query(vector()); // the first query tells the mirror the metric: the build starts
    await until(() => approximate.state(nv)?.built === true, "the build", 60_000);
    expect(lines.some((l) => l.includes("approximate index for namespace \"\" built"))).toBe(true);

    const answeredByGraph = (values: Float32Array) => approximate.answers(nv, "cosine", makeQuery(values, undefined), 5, undefined, "");
    const check = async () => {
      // r7 was removed: its own vector finds its neighbours, never r7
      const own = Float32Array.from(records[7].values);
      expect(answeredByGraph(own)).toBe(true);
      expect(ids((await query(own)).body.matches)).not.toContain("r7");
      // r11 now points where nothing else does: it comes first, with its exact score
      const far = new Float32Array(dim).fill(-1);
      expect(answeredByGraph(far)).toBe(true);
      const top = (await query(far, 3)).body.matches;
      expect(top[0].id).toBe("r11");
      expect(top[0].score).toBeCloseTo(1, 6);
      // a new record in a freed slot (r7's) is found at its place
      const fresh = (await query(Float32Array.from(records[0].values).map((x, i) => (i % 2 ? x : -x)), 1)).body.matches;
      expect(fresh[0].id).toBe("new");
    };
    expect((await api.post("/vectors/delete", { ids: ["r7"] })).status).toBe(200);
    expect((await api.post("/vectors/update", { id: "r11", values: new Array(dim).fill(-2) })).status).toBe(200);
    const newValues = records[0].values.map((x, i) => (i % 2 ? x : -x));
    expect((await api.post("/vectors/upsert", { vectors: [{ id: "new", values: newValues }] })).status).toBe(200);
    // at once (the changed slots are scored exactly until the graph has them)...
    await check();
    // ...and once the graph has caught up with them
    await until(() => approximate.state(nv)?.changed === 0, "the catch-up", 60_000);
    await check();
    // deleting below half the threshold drops the graph and its memory
    const bytes = store.mirror.bytesInUse;
    for (const from of [0, 650]) expect((await api.post("/vectors/delete", { ids: records.slice(from, from + 650).map((r) => r.id) })).status).toBe(200);
    await query(vector());
    expect(approximate.state(nv)).toBeUndefined();
    expect(store.mirror.bytesInUse).toBeLessThan(bytes);
    await store.stop();
    await root.close();
  });

  it("below the threshold no graph is built and results are those of scoring every record", async () => {
    const { root, store } = storeWith({ approximateAbove: 5000 });
    const dim = 16;
    const index = makeIndex({ dimension: dim, metric: "euclidean" });
    const api = client(store, index);
    const { nv: source, vector } = clustered(1000, dim);
    await api.post("/vectors/upsert", { vectors: source.liveSlots().map((s) => ({ id: source.ids[s]!, values: Array.from(source.row(s)) })) });
    const nv = store.mirror.namespace(index.space, "", dim);
    for (let i = 0; i < 10; i++) {
      const v = vector();
      const got = (await api.post("/query", { vector: Array.from(v), topK: 10 })).body.matches.map((m: { id: string }) => m.id);
      expect(got).toEqual(ids(scoreEach(nv, "euclidean", makeQuery(v, undefined), 10, nv.liveSlots())));
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(store.approximate.state(nv)).toBeUndefined();
    await store.stop();
    await root.close();
  });

  it("when the native library cannot load: one line on stderr's log, and exact answers", async () => {
    const lines: string[] = [];
    let loads = 0;
    const { root, store } = storeWith({
      approximateAbove: 500,
      log: (l) => lines.push(l),
      annLoader: async () => {
        loads++;
        throw new Error("No native build was found for platform=plan9 arch=mips");
      },
    });
    const dim = 8;
    const { nv: source, vector } = clustered(800, dim);
    const values = source.liveSlots().map((s) => ({ id: source.ids[s]!, values: Array.from(source.row(s)) }));
    for (const ns of ["a", "b"]) {
      const api = client(store, makeIndex({ dimension: dim, metric: "dotproduct" }));
      await api.post("/vectors/upsert", { namespace: ns, vectors: values });
      const nv = store.mirror.namespace("i:test", ns, dim);
      for (let i = 0; i < 5; i++) {
        const v = vector();
        const got = (await api.post("/query", { namespace: ns, vector: Array.from(v), topK: 10 })).body.matches.map((m: { id: string }) => m.id);
        expect(got).toEqual(ids(scoreEach(nv, "dotproduct", makeQuery(v, undefined), 10, nv.liveSlots())));
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(store.approximate.state(nv)).toBeUndefined();
    }
    expect(loads).toBe(1);
    expect(lines).toEqual([
      "vecdb-mcp local service: no approximate index (No native build was found for platform=plan9 arch=mips); search stays exact, which is slower past 500 records",
    ]);
    await store.stop();
    await root.close();
  });
});
