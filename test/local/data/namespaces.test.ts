import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, err, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
beforeAll(async () => {
  env = openEnv();
  api = client(env.store, makeIndex({ dimension: 1 }));
  await api.post("/vectors/upsert", { vectors: [{ id: "d1", values: [1] }] });
  await api.post("/vectors/upsert", { namespace: "books", vectors: [{ id: "b1", values: [1] }, { id: "b2", values: [2] }] });
  await api.post("/vectors/upsert", { namespace: "films", vectors: [{ id: "f1", values: [1] }] });
  await api.post("/vectors/upsert", { namespace: "a/b c", vectors: [{ id: "x", values: [1] }] });
});
afterAll(() => env.close());

describe("namespace API", () => {
  it("lists namespaces with record counts; the default one is '__default__'", async () => {
    const res = await api.get("/namespaces");
    expect(res).toEqual({
      status: 200,
      body: {
        namespaces: [
          { name: "__default__", record_count: 1 },
          { name: "a/b c", record_count: 1 },
          { name: "books", record_count: 2 },
          { name: "films", record_count: 1 },
        ],
        total_count: 4,
      },
    });
    const page1 = await api.get("/namespaces", { limit: "2" });
    expect(page1.body.namespaces.map((n: any) => n.name)).toEqual(["__default__", "a/b c"]);
    const page2 = await api.get("/namespaces", { limit: "2", paginationToken: page1.body.pagination.next });
    expect(page2.body).toEqual({ namespaces: [{ name: "books", record_count: 2 }, { name: "films", record_count: 1 }], total_count: 4 });
    expect((await api.get("/namespaces", { prefix: "f" })).body).toEqual({ namespaces: [{ name: "films", record_count: 1 }], total_count: 1 });
  });

  it("describes one namespace, percent-encoded in the path; unknown is 404", async () => {
    expect((await api.get("/namespaces/books")).body).toEqual({ name: "books", record_count: 2 });
    expect((await api.get("/namespaces/__default__")).body).toEqual({ name: "__default__", record_count: 1 });
    expect((await api.get(`/namespaces/${encodeURIComponent("a/b c")}`)).body).toEqual({ name: "a/b c", record_count: 1 });
    expect(await api.get("/namespaces/ghost")).toEqual({ status: 404, body: err(5, "Namespace 'ghost' not found") });
  });

  it("deletes a namespace and its records", async () => {
    expect(await api.call("DELETE", "/namespaces/films", Buffer.alloc(0))).toEqual({ status: 200, body: {} });
    expect((await api.get("/vectors/fetch", { ids: "f1", namespace: "films" })).body.vectors).toEqual({});
    expect(await api.call("DELETE", "/namespaces/films", Buffer.alloc(0))).toEqual({ status: 404, body: err(5, "Namespace 'films' not found") });
    expect(await api.post("/namespaces/books", {})).toEqual({ status: 405, body: err(12, "Method POST is not allowed on /namespaces/{namespace}; use GET or DELETE") });
  });

  it("routes of the API the local service does not implement are 501 UNIMPLEMENTED", async () => {
    // The text routes exist; an index made without integrated embedding refuses text with the next step.
    expect(await api.post("/records/namespaces/x/search", { query: { top_k: 1, inputs: { text: "a" } } })).toMatchObject({
      status: 400,
      body: { code: 3, message: expect.stringMatching(/^Searching with text needs an index with integrated embedding; index \S+ has none .*Search it with a vector or an id instead\.$/) },
    });
  });
});

describe("fetch_by_metadata", () => {
  it("returns matching records, paginated", async () => {
    const sub = client(env.store, makeIndex({ space: "i:fbm", dimension: 1 }));
    await sub.post("/vectors/upsert", { vectors: Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, values: [i], metadata: { even: i % 2 === 0 } })) });
    const first = await sub.post("/vectors/fetch_by_metadata", { filter: { even: true }, limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.vectors).toEqual({ r0: { id: "r0", values: [0], metadata: { even: true } }, r2: { id: "r2", values: [2], metadata: { even: true } } });
    expect(first.body.namespace).toBe("");
    const second = await sub.post("/vectors/fetch_by_metadata", { filter: { even: true }, limit: 2, paginationToken: first.body.pagination.next });
    expect(Object.keys(second.body.vectors)).toEqual(["r4"]);
    expect(second.body.pagination).toBeUndefined();
    expect(await sub.post("/vectors/fetch_by_metadata", { filter: { even: { $bad: 1 } } })).toEqual({ status: 400, body: err(3, "Invalid filter: unknown operator '$bad' on field 'even'; supported: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists") });
    expect(await sub.post("/vectors/fetch_by_metadata", { limit: 0 })).toEqual({ status: 400, body: err(3, "limit must be an integer from 1 to 1000, got number 0") });
  });
});
