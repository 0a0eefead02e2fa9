// Contract tests: the official TypeScript client (@pinecone-database/pinecone 8.x) drives the local service.
// The client adds https:// to a host without a scheme, so data-plane handles are made with an explicit
// "http://" host: pc.index({ name, host: `http://${model.host}` }).
import { Pinecone, type Index } from "@pinecone-database/pinecone";
import { describe, expect, it } from "vitest";
import { useServiceProcess } from "../helpers/local-service.js";

let pc: Pinecone;

const pod = { environment: "us-east1-gcp", podType: "p1.x1", pods: 1 };
const serverless = { cloud: "aws" as const, region: "us-east-1" };

function handle(host: string | undefined, name: string): Index {
  return pc.index({ name, host: `http://${host}` });
}

async function waitForIndex(name: string): Promise<Awaited<ReturnType<Pinecone["describeIndex"]>>> {
  // The client's own waitUntilReady polls every 5 s; polling here keeps the test fast.
  for (let i = 0; i < 200; i++) {
    const m = await pc.describeIndex(name);
    if (m.status?.ready) return m;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`index ${name} never became ready`);
}

async function waitForCollection(name: string): Promise<Awaited<ReturnType<Pinecone["describeCollection"]>>> {
  for (let i = 0; i < 200; i++) {
    const c = await pc.describeCollection(name);
    if (c.status === "Ready") return c;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`collection ${name} never became Ready`);
}

const service = useServiceProcess((started) => {
  pc = new Pinecone({ apiKey: started.apiKey, controllerHostUrl: started.controlUrl });
});

describe("official client against the local service", () => {
  it("creates, lists and describes pod and serverless indexes", async () => {
    const created = await pc.createIndex({ name: "pods", dimension: 3, metric: "cosine", spec: { pod }, waitUntilReady: true });
    expect(created).toMatchObject({
      name: "pods",
      dimension: 3,
      metric: "cosine",
      vectorType: "dense",
      deletionProtection: "disabled",
      status: { ready: true, state: "Ready" },
      spec: { pod: { environment: "us-east1-gcp", podType: "p1.x1", pods: 1, replicas: 1, shards: 1 } },
    });
    expect(created!.host).toMatch(/^127\.0\.0\.1:\d+$/);

    const sl = await pc.createIndex({
      name: "serverless-dense",
      dimension: 2,
      metric: "euclidean",
      spec: { serverless },
      tags: { team: "search" },
      waitUntilReady: true,
    });
    expect(sl).toMatchObject({ name: "serverless-dense", metric: "euclidean", tags: { team: "search" }, spec: { serverless: { cloud: "aws", region: "us-east-1" } } });

    const sparse = await pc.createIndex({ name: "sparse", vectorType: "sparse", metric: "dotproduct", spec: { serverless }, waitUntilReady: true });
    expect(sparse).toMatchObject({ name: "sparse", vectorType: "sparse", metric: "dotproduct" });
    expect(sparse!.dimension).toBeUndefined();

    const list = await pc.listIndexes();
    expect(list.indexes!.map((i) => i.name)).toEqual(["pods", "serverless-dense", "sparse"]);
    const described = await pc.describeIndex("pods");
    expect(described).toEqual(created);
    const hosts = new Set(list.indexes!.map((i) => i.host));
    expect(hosts.size).toBe(3);
  });

  it("upserts dense records with metadata into namespaces, fetches and queries them with a filter", async () => {
    const model = await pc.describeIndex("pods");
    const idx = handle(model.host, "pods");
    await idx.upsert({
      records: [
        { id: "a", values: [1, 0, 0], metadata: { genre: "drama", year: 2001, tags: ["x", "y"], ok: true } },
        { id: "b", values: [0, 1, 0], metadata: { genre: "comedy", year: 2010 } },
        { id: "c", values: [0.5, 0.5, 0], metadata: { genre: "drama", year: 2020 } },
      ],
    });
    await idx.upsert({ records: [{ id: "n1", values: [0, 0, 1] }], namespace: "other" });

    const fetched = await idx.fetch({ ids: ["a", "missing"] });
    expect(Object.keys(fetched.records)).toEqual(["a"]);
    expect(fetched.records.a).toMatchObject({ id: "a", values: [1, 0, 0], metadata: { genre: "drama", year: 2001, tags: ["x", "y"], ok: true } });

    const q = await idx.query({ vector: [1, 0.1, 0], topK: 5, filter: { genre: { $eq: "drama" }, year: { $gte: 2000 } }, includeMetadata: true });
    expect(q.matches.map((m) => m.id)).toEqual(["a", "c"]);
    expect(q.matches[0].metadata).toEqual({ genre: "drama", year: 2001, tags: ["x", "y"], ok: true });

    const byId = await idx.query({ id: "b", topK: 1, includeValues: true });
    expect(byId.matches[0]).toMatchObject({ id: "b", values: [0, 1, 0] });

    const other = await idx.namespace("other").fetch({ ids: ["n1"] });
    expect(other.records.n1.values).toEqual([0, 0, 1]);

    const stats = await idx.describeIndexStats();
    expect(stats).toMatchObject({ dimension: 3, totalRecordCount: 4, namespaces: { "": { recordCount: 3 }, other: { recordCount: 1 } } });
  });

  it("updates values and metadata, and deletes records", async () => {
    const idx = handle((await pc.describeIndex("pods")).host, "pods");
    await idx.update({ id: "b", values: [0, 0.5, 0.5], metadata: { genre: "thriller" } });
    const after = await idx.fetch({ ids: ["b"] });
    expect(after.records.b.values).toEqual([0, 0.5, 0.5]);
    expect(after.records.b.metadata).toEqual({ genre: "thriller", year: 2010 });

    await idx.deleteOne({ id: "c" });
    await idx.deleteMany({ ids: ["a"] });
    const left = await idx.fetch({ ids: ["a", "b", "c"] });
    expect(Object.keys(left.records)).toEqual(["b"]);
    await idx.namespace("other").deleteAll();
    const stats = await idx.describeIndexStats();
    expect(stats.totalRecordCount).toBe(1);
  });

  it("fetches and deletes 1000 records by UUID id in one call each (the ids travel in the URL)", async () => {
    const idx = handle((await pc.describeIndex("pods")).host, "pods").namespace("uuids");
    const ids = Array.from({ length: 1000 }, (_, i) => `${i.toString(16).padStart(8, "0")}-7c1e-4f6a-9b3d-2a6f0e8c4d1b`);
    for (let i = 0; i < ids.length; i += 500) {
      await idx.upsert({ records: ids.slice(i, i + 500).map((id, j) => ({ id, values: [1, j, 0] })) });
    }
    const fetched = await idx.fetch({ ids });
    expect(Object.keys(fetched.records).sort()).toEqual([...ids].sort());
    expect(fetched.records[ids[501]].values).toEqual([1, 1, 0]);
    await idx.deleteMany({ ids });
    expect(Object.keys((await idx.fetch({ ids: ids.slice(0, 10) })).records)).toEqual([]);
  });

  it("upserts and queries sparse records", async () => {
    const idx = handle((await pc.describeIndex("sparse")).host, "sparse");
    await idx.upsert({
      records: [
        { id: "s1", sparseValues: { indices: [1, 7, 4294967295], values: [0.5, 0.25, 1] }, metadata: { lang: "en" } },
        { id: "s2", sparseValues: { indices: [2, 7], values: [1, 2] } },
      ],
    });
    const q = await idx.query({ sparseVector: { indices: [7], values: [1] }, topK: 2, includeValues: true });
    expect(q.matches.map((m) => m.id)).toEqual(["s2", "s1"]);
    const f = await idx.fetch({ ids: ["s1"] });
    expect(f.records.s1.sparseValues).toEqual({ indices: [1, 7, 4294967295], values: [0.5, 0.25, 1] });
    expect(f.records.s1.metadata).toEqual({ lang: "en" });
  });

  it("lists ids by prefix with pagination (serverless)", async () => {
    const idx = handle((await pc.describeIndex("serverless-dense")).host, "serverless-dense");
    await idx.upsert({
      records: ["doc1#a", "doc1#b", "doc1#c", "doc2#a"].map((id, i) => ({ id, values: [i, 1] })),
      namespace: "ns",
    });
    const first = await idx.listPaginated({ prefix: "doc1#", limit: 2, namespace: "ns" });
    expect(first.vectors!.map((v) => v.id)).toEqual(["doc1#a", "doc1#b"]);
    expect(first.pagination?.next).toBeTruthy();
    const second = await idx.listPaginated({ prefix: "doc1#", limit: 2, namespace: "ns", paginationToken: first.pagination!.next });
    expect(second.vectors!.map((v) => v.id)).toEqual(["doc1#c"]);
    expect(second.pagination?.next).toBeFalsy();
  });

  it("creates, lists, describes and deletes collections, and creates an index from one", async () => {
    const source = handle((await pc.describeIndex("pods")).host, "pods");
    await source.upsert({ records: [{ id: "k1", values: [0.1, 0.2, 0.3], metadata: { kept: "yes" } }], namespace: "keep" });

    const created = await pc.createCollection({ name: "snap", source: "pods" });
    expect(created).toMatchObject({ name: "snap", status: "Initializing", environment: "us-east1-gcp" });
    const ready = await waitForCollection("snap");
    expect(ready).toMatchObject({ name: "snap", status: "Ready", environment: "us-east1-gcp", dimension: 3, vectorCount: 2 });
    expect(ready.size).toBeGreaterThan(0);
    expect((await pc.listCollections()).collections!.map((c) => c.name)).toEqual(["snap"]);

    const restored = await pc.createIndex({
      name: "restored",
      dimension: 3,
      metric: "cosine",
      spec: { pod: { ...pod, sourceCollection: "snap" } },
    });
    expect(restored).toMatchObject({ name: "restored", status: { ready: false, state: "Initializing" } });
    expect(await waitForIndex("restored")).toMatchObject({ status: { ready: true, state: "Ready" } });
    const idx = handle(restored!.host, "restored");
    const f = await idx.namespace("keep").fetch({ ids: ["k1"] });
    expect(f.records.k1.metadata).toEqual({ kept: "yes" });
    expect(f.records.k1.values.map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0.1, 0.2, 0.3]);
    expect((await idx.describeIndexStats()).totalRecordCount).toBe(2);

    // A serverless index can be made from a (pod-made) collection too.
    await pc.createIndex({ name: "restored-sl", dimension: 3, spec: { serverless: { ...serverless, sourceCollection: "snap" } } });
    const restoredSl = await waitForIndex("restored-sl");
    expect(restoredSl.spec.serverless).toMatchObject({ cloud: "aws", region: "us-east-1", sourceCollection: "snap" });
    expect((await handle(restoredSl.host, "restored-sl").describeIndexStats()).totalRecordCount).toBe(2);
    await pc.deleteIndex("restored-sl");

    await pc.deleteCollection("snap");
    expect((await pc.listCollections()).collections).toEqual([]);
    await pc.deleteIndex("restored");
  });

  it("refuses a collection from a serverless index, and reports unknown names", async () => {
    await expect(pc.createCollection({ name: "nope", source: "serverless-dense" })).rejects.toThrow(
      /Serverless indexes do not support collections/,
    );
    // The client reports a 404 on POST /collections without the body's message.
    await expect(pc.createCollection({ name: "nope", source: "no-such-index" })).rejects.toMatchObject({ name: "PineconeNotFoundError" });
    await expect(pc.describeIndex("no-such-index")).rejects.toMatchObject({ name: "PineconeNotFoundError" });
    expect((await pc.listCollections()).collections).toEqual([]);
  });

  it("configures and deletes indexes", async () => {
    const configured = await pc.configureIndex({ name: "serverless-dense", deletionProtection: "enabled", tags: { team: "", env: "dev" } });
    expect(configured).toMatchObject({ deletionProtection: "enabled", tags: { env: "dev" } });
    await expect(pc.deleteIndex("serverless-dense")).rejects.toThrow(/Deletion protection is enabled/);
    await pc.configureIndex({ name: "serverless-dense", deletionProtection: "disabled" });
    await pc.deleteIndex("serverless-dense");
    await pc.deleteIndex("sparse");
    expect((await pc.listIndexes()).indexes!.map((i) => i.name)).toEqual(["pods"]);
  });
});
