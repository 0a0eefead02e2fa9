// Every limit: the request is refused whole (status, shape, exact message) and nothing changes.
import { float32ToString } from "../../../src/common/float32.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, err, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
const D = 4;
const ok = (id: string) => ({ id, values: [0.1, 0.2, 0.3, 0.4] });

beforeAll(async () => {
  env = openEnv();
  api = client(env.store, makeIndex({ dimension: D, metric: "dotproduct" }));
  await api.post("/vectors/upsert", { vectors: [{ ...ok("keep"), metadata: { v: 1 } }] });
});
afterAll(() => env.close());

async function expectUnchanged() {
  const stats = await api.post("/describe_index_stats", {});
  expect(stats.body.namespaces).toEqual({ "": { vectorCount: 1 } });
  const fetched = await api.get("/vectors/fetch", { ids: ["keep", "good", "bad"] });
  expect(Object.keys(fetched.body.vectors)).toEqual(["keep"]);
  expect(fetched.body.vectors.keep.metadata).toEqual({ v: 1 });
}

async function refusedUpsert(body: unknown, message: string) {
  const res = await api.post("/vectors/upsert", body);
  expect(res).toEqual({ status: 400, body: err(3, message) });
  await expectUnchanged();
}

const withBad = (bad: Record<string, unknown>) => ({ vectors: [ok("good"), ok("x1"), ok("x2"), { id: "bad", ...bad }] });

describe("upsert limits", () => {
  it("at most 1000 records", async () => {
    const vectors = Array.from({ length: 1001 }, (_, i) => ok(`r${i}`));
    await refusedUpsert({ vectors }, "vectors has 1001 records; the maximum per upsert is 1000");
  });

  it("1000 records are fine", async () => {
    const sub = client(env.store, makeIndex({ space: "i:thousand", dimension: D }));
    const res = await sub.post("/vectors/upsert", { vectors: Array.from({ length: 1000 }, (_, i) => ok(`r${i}`)) });
    expect(res).toEqual({ status: 200, body: { upsertedCount: 1000 } });
  });

  it("at most 2 MB of body", async () => {
    const body = Buffer.from(JSON.stringify({ vectors: [ok("good")], pad: "x".repeat(2 * 1024 * 1024) }));
    const res = await api.call("POST", "/vectors/upsert", body);
    expect(res).toEqual({ status: 400, body: err(3, `Request body is ${body.length} bytes; the maximum for an upsert is 2097152 bytes (2 MB)`) });
    await expectUnchanged();
  });

  it.each([
    ["dimension", { values: [1, 2, 3] }, "Vector at position 3 (id 'bad'): dimension 3 does not match the dimension of the index 4"],
    ["missing values", {}, "Vector at position 3 (id 'bad'): values are required; the index takes dense vectors of dimension 4"],
    ["values not a list", { values: "1,2,3,4" }, "Vector at position 3 (id 'bad'): values must be a list of numbers, got the string '1,2,3,4'"],
    ["a value not a number", { values: [1, 2, "3", 4] }, "Vector at position 3 (id 'bad'): values[2] must be a number, got the string '3'"],
    ["a null value", { values: [1, null, 3, 4] }, "Vector at position 3 (id 'bad'): values[1] must be a number, got null"],
    ["a value past float32", { values: [1, 2, 3, 1e39] }, "Vector at position 3 (id 'bad'): values[3] = 1e+39 is outside the range of a 32-bit float"],
    ["metadata null value", { values: [1, 2, 3, 4], metadata: { a: null } }, "Vector at position 3 (id 'bad'): metadata field 'a' is null; metadata values must be a string, number, boolean or list of strings"],
    ["metadata nested object", { values: [1, 2, 3, 4], metadata: { a: { b: 1 } } }, "Vector at position 3 (id 'bad'): metadata field 'a' is a nested object; metadata values must be a string, number, boolean or list of strings"],
    ["metadata list of numbers", { values: [1, 2, 3, 4], metadata: { a: ["x", 2] } }, "Vector at position 3 (id 'bad'): metadata field 'a'[1] is number 2; a list may hold only strings"],
    ["metadata not an object", { values: [1, 2, 3, 4], metadata: "m" }, "Vector at position 3 (id 'bad'): metadata must be an object, got the string 'm'"],
    ["metadata over 40960 bytes", { values: [1, 2, 3, 4], metadata: { t: "x".repeat(40960) } }, "Vector at position 3 (id 'bad'): metadata is 40968 bytes; the maximum is 40960 bytes per record"],
    ["sparse lengths differ", { values: [1, 2, 3, 4], sparseValues: { indices: [1, 2], values: [1] } }, "Vector at position 3 (id 'bad'): sparseValues.indices and sparseValues.values must have the same length (2 and 1)"],
    ["sparse negative index", { values: [1, 2, 3, 4], sparseValues: { indices: [-1], values: [1] } }, "Vector at position 3 (id 'bad'): sparseValues.indices[0] = -1 is not an unsigned 32-bit integer"],
    ["sparse index past u32", { values: [1, 2, 3, 4], sparseValues: { indices: [4294967296], values: [1] } }, "Vector at position 3 (id 'bad'): sparseValues.indices[0] = 4294967296 is not an unsigned 32-bit integer"],
    ["sparse fractional index", { values: [1, 2, 3, 4], sparseValues: { indices: [1.5], values: [1] } }, "Vector at position 3 (id 'bad'): sparseValues.indices[0] = 1.5 is not an unsigned 32-bit integer"],
    ["sparse duplicate index", { values: [1, 2, 3, 4], sparseValues: { indices: [3, 9, 3], values: [1, 2, 3] } }, "Vector at position 3 (id 'bad'): sparseValues.indices contains 3 more than once"],
    ["sparse value not a number", { values: [1, 2, 3, 4], sparseValues: { indices: [1], values: [true] } }, "Vector at position 3 (id 'bad'): sparseValues.values[0] must be a number, got boolean true"],
    ["sparse not an object", { values: [1, 2, 3, 4], sparseValues: [1, 2] }, "Vector at position 3 (id 'bad'): sparseValues must be an object with indices and values, got a list"],
  ])("%s", async (_name, bad, message) => {
    await refusedUpsert(withBad(bad), message);
  });

  it("at most 2048 sparse non-zeros (2048 is fine)", async () => {
    const indices = Array.from({ length: 2049 }, (_, i) => i);
    await refusedUpsert(withBad({ values: [1, 2, 3, 4], sparseValues: { indices, values: indices.map(() => 1) } }), "Vector at position 3 (id 'bad'): sparseValues has 2049 non-zero values; the maximum is 2048");
    const sub = client(env.store, makeIndex({ space: "i:sparse2048", dimension: D, metric: "dotproduct" }));
    const fine = await sub.post("/vectors/upsert", { vectors: [{ ...ok("s"), sparseValues: { indices: indices.slice(0, 2048), values: indices.slice(0, 2048).map(() => 1) } }] });
    expect(fine.status).toBe(200);
  });

  it("metadata of exactly 40960 bytes is fine", async () => {
    const sub = client(env.store, makeIndex({ space: "i:meta", dimension: D }));
    const metadata = { t: "x".repeat(40960 - 8) };
    expect(Buffer.byteLength(JSON.stringify(metadata))).toBe(40960);
    expect((await sub.post("/vectors/upsert", { vectors: [{ ...ok("m"), metadata }] })).status).toBe(200);
    expect((await sub.get("/vectors/fetch", { ids: "m" })).body.vectors.m.metadata).toEqual(metadata);
  });

  it("sparse values need the dotproduct metric", async () => {
    const cos = client(env.store, makeIndex({ space: "i:cos", dimension: D, metric: "cosine" }));
    const res = await cos.post("/vectors/upsert", { vectors: [ok("good"), { ...ok("bad"), sparseValues: { indices: [1], values: [1] } }] });
    expect(res).toEqual({ status: 400, body: err(3, "Vector at position 1 (id 'bad'): sparse values are supported only by indexes with the dotproduct metric; this index uses cosine") });
    expect((await cos.post("/describe_index_stats", {})).body.totalVectorCount).toBe(0);
    // empty sparse values carry nothing and are accepted anywhere
    const empty = await cos.post("/vectors/upsert", { vectors: [{ ...ok("e"), sparseValues: { indices: [], values: [] } }] });
    expect(empty).toEqual({ status: 200, body: { upsertedCount: 1 } });
    expect((await cos.get("/vectors/fetch", { ids: "e" })).body.vectors.e).toEqual({ id: "e", values: [0.1, 0.2, 0.3, 0.4] });
  });

  it.each([
    ["empty id", { id: "", values: [1, 2, 3, 4] }, "Vector at position 1: id must not be empty"],
    ["missing id", { values: [1, 2, 3, 4] }, "Vector at position 1: id is required"],
    ["numeric id", { id: 7, values: [1, 2, 3, 4] }, "Vector at position 1: id must be a string, got number 7"],
    ["id of 513 characters", { id: "x".repeat(513), values: [1, 2, 3, 4] }, `Vector at position 1 (id '${"x".repeat(64)}…'): id is 513 characters long; the maximum is 512`],
    ["id with NUL", { id: "a\u0000b", values: [1, 2, 3, 4] }, "Vector at position 1 (id 'a\\0b'): id must not contain the NUL character"],
    ["record not an object", 42, "Vector at position 1: must be an object with an id, got number 42"],
  ])("ids: %s", async (_name, bad, message) => {
    await refusedUpsert({ vectors: [ok("good"), bad] }, message);
  });

  it("an id of 512 characters, even 4-byte ones, is fine and comes back whole", async () => {
    const sub = client(env.store, makeIndex({ space: "i:longids", dimension: D }));
    const long = "😀".repeat(512);
    const long2 = "😀".repeat(511) + "😁";
    const res = await sub.post("/vectors/upsert", { vectors: [ok(long), ok(long2), ok("x".repeat(512))] });
    expect(res.body).toEqual({ upsertedCount: 3 });
    const fetched = await sub.get("/vectors/fetch", { ids: [long, long2] });
    expect(Object.keys(fetched.body.vectors).sort()).toEqual([long, long2].sort());
    const listed = await sub.get("/vectors/list", { prefix: "😀" });
    expect(listed.body.vectors.map((v: any) => v.id).sort()).toEqual([long, long2].sort());
    await sub.post("/vectors/delete", { ids: [long] });
    expect(Object.keys((await sub.get("/vectors/fetch", { ids: [long, long2] })).body.vectors)).toEqual([long2]);
  });

  it.each([
    ["vectors missing", {}, "vectors is required: a list of 1 to 1000 records"],
    ["vectors empty", { vectors: [] }, "vectors must hold at least one record"],
    ["vectors not a list", { vectors: { id: "a" } }, "vectors must be a list of records, got an object"],
    ["namespace too long", { vectors: [ok("good")], namespace: "n".repeat(513) }, "Namespace is 513 characters long; the maximum is 512"],
    ["namespace not a string", { vectors: [ok("good")], namespace: 5 }, "namespace must be a string, got number 5"],
  ])("request: %s", async (_name, body, message) => {
    await refusedUpsert(body, message);
  });

  it("a namespace of 512 characters is fine", async () => {
    const sub = client(env.store, makeIndex({ space: "i:ns512", dimension: D }));
    const namespace = "é".repeat(512);
    expect((await sub.post("/vectors/upsert", { namespace, vectors: [ok("a")] })).status).toBe(200);
    expect((await sub.post("/describe_index_stats", {})).body.namespaces).toEqual({ [namespace]: { vectorCount: 1 } });
  });
});

describe("query limits", () => {
  it.each([
    [{ vector: [1, 2, 3, 4] }, "topK is required: an integer from 1 to 10000"],
    [{ topK: 0, vector: [1, 2, 3, 4] }, "topK must be from 1 to 10000, got 0"],
    [{ topK: 10001, vector: [1, 2, 3, 4] }, "topK must be from 1 to 10000, got 10001"],
    [{ topK: 2.5, vector: [1, 2, 3, 4] }, "topK must be an integer from 1 to 10000, got number 2.5"],
    [{ topK: "5", vector: [1, 2, 3, 4] }, "topK must be an integer from 1 to 10000, got the string '5'"],
    [{ topK: 5, vector: [1, 2, 3] }, "Query vector dimension 3 does not match the dimension of the index 4"],
    [{ topK: 5, vector: [1, 2, "x", 4] }, "vector[2] must be a number, got the string 'x'"],
    [{ topK: 5 }, "A query needs a vector, a sparseVector or the id of a stored record"],
    [{ topK: 5, vector: [1, 2, 3, 4], id: "keep" }, "Specify either vector or id in a query, not both"],
    [{ topK: 5, id: "x".repeat(513) }, `Query (id '${"x".repeat(64)}…'): id is 513 characters long; the maximum is 512`],
    [{ topK: 5, vector: [1, 2, 3, 4], namespace: "n".repeat(513) }, "Namespace is 513 characters long; the maximum is 512"],
    [{ topK: 5, vector: [1, 2, 3, 4], includeValues: "yes" }, "includeValues must be a boolean, got the string 'yes'"],
    [{ topK: 5, vector: [1, 2, 3, 4], sparseVector: { indices: [1], values: [] } }, "Query: sparseValues.indices and sparseValues.values must have the same length (1 and 0)"],
    [{ topK: 5, queries: [{ values: [1, 2, 3, 4] }] }, "queries is no longer supported; send one query with vector or id"],
  ])("refuses %j", async (body, message) => {
    expect(await api.post("/query", body)).toEqual({ status: 400, body: err(3, message) });
  });

  it("topK 10000 is fine", async () => {
    expect((await api.post("/query", { topK: 10000, vector: [1, 2, 3, 4] })).status).toBe(200);
  });
});

describe("fetch and delete limits", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);

  it("fetch: at most 1000 ids; at least one; ids checked", async () => {
    expect(await api.get("/vectors/fetch", { ids: many(1001) })).toEqual({ status: 400, body: err(3, "ids has 1001 ids; the maximum is 1000 per request") });
    expect((await api.get("/vectors/fetch", { ids: many(1000) })).status).toBe(200);
    expect(await api.get("/vectors/fetch", {})).toEqual({ status: 400, body: err(3, "ids is required: name at least one id, as ?ids=a&ids=b") });
    expect(await api.get("/vectors/fetch", { ids: ["keep", ""] })).toEqual({ status: 400, body: err(3, "Id at position 1: id must not be empty") });
    expect(await api.get("/vectors/fetch", { ids: "keep", namespace: "n".repeat(513) })).toEqual({ status: 400, body: err(3, "Namespace is 513 characters long; the maximum is 512") });
  });

  it("delete: at most 1000 ids, nothing deleted", async () => {
    expect(await api.post("/vectors/delete", { ids: ["keep", ...many(1000)] })).toEqual({ status: 400, body: err(3, "ids has 1001 ids; the maximum is 1000 per request") });
    await expectUnchanged();
    expect(await api.post("/vectors/delete", { ids: ["keep", "x".repeat(513)] })).toEqual({ status: 400, body: err(3, `Id at position 1 (id '${"x".repeat(64)}…'): id is 513 characters long; the maximum is 512`) });
    await expectUnchanged();
  });
});

describe("fetch returns 32-bit floats", () => {
  it("every fetched value reads back as exactly Math.fround of the value sent, in its shortest decimal", async () => {
    const dim = 768;
    const sub = client(env.store, makeIndex({ space: "i:fround", dimension: dim }));
    const special = [0, -0, 1, -1, 0.1, 1 / 3, Math.PI, 1e-45, 1e-40, 3.4028234663852886e38, -3.4e38, 123456789.123, 5e-324, 2 ** -149, 0.30000000000000004];
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const vectors = Array.from({ length: 20 }, (_, r) => ({
      id: `v${r}`,
      values: Array.from({ length: dim }, (_, i) => (r === 0 && i < special.length ? special[i] : rand() * 10 ** ((i % 9) - 4))),
      sparseValues: undefined,
    }));
    expect((await sub.post("/vectors/upsert", { vectors })).status).toBe(200);
    const fetched = await sub.get("/vectors/fetch", { ids: vectors.map((v) => v.id) });
    for (const v of vectors) {
      const got: number[] = fetched.body.vectors[v.id].values;
      expect(got).toHaveLength(dim);
      got.forEach((x, i) => {
        expect(Math.fround(x)).toBe(Math.fround(v.values[i]) === 0 ? 0 : Math.fround(v.values[i]));
        expect(String(x)).toBe(float32ToString(v.values[i]));
      });
    }
  });
});
