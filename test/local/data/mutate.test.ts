import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { client, err, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
beforeEach(async () => {
  env = openEnv();
  api = client(env.store, makeIndex({ metric: "dotproduct" }));
  await api.post("/vectors/upsert", {
    vectors: [
      { id: "a", values: [1, 0, 0], metadata: { genre: "drama", year: 2020 } },
      { id: "b", values: [0, 1, 0], metadata: { genre: "comedy" } },
      { id: "c", values: [0, 0, 1] },
    ],
  });
  await api.post("/vectors/upsert", { namespace: "other", vectors: [{ id: "a", values: [1, 1, 1] }] });
});
afterEach(() => env.close());

async function fetchIds(namespace = ""): Promise<string[]> {
  const res = await api.get("/vectors/fetch", { ids: ["a", "b", "c"], namespace });
  return Object.keys(res.body.vectors).sort();
}

describe("delete", () => {
  it("by ids (unknown ids are ignored)", async () => {
    expect(await api.post("/vectors/delete", { ids: ["a", "zzz"] })).toEqual({ status: 200, body: {} });
    expect(await fetchIds()).toEqual(["b", "c"]);
    expect(await fetchIds("other")).toEqual(["a"]);
    expect((await api.post("/describe_index_stats", {})).body.namespaces).toEqual({ "": { vectorCount: 2 }, other: { vectorCount: 1 } });
  });

  it("deleteAll empties one namespace, which then leaves the stats", async () => {
    expect(await api.post("/vectors/delete", { deleteAll: true, namespace: "__default__" })).toEqual({ status: 200, body: {} });
    expect(await fetchIds()).toEqual([]);
    expect(await fetchIds("other")).toEqual(["a"]);
    expect((await api.post("/describe_index_stats", {})).body.namespaces).toEqual({ other: { vectorCount: 1 } });
    // the namespace can be filled again
    await api.post("/vectors/upsert", { vectors: [{ id: "n", values: [1, 2, 3] }] });
    expect((await api.get("/vectors/fetch", { ids: "n" })).body.vectors.n.values).toEqual([1, 2, 3]);
  });

  it("by filter", async () => {
    expect(await api.post("/vectors/delete", { filter: { genre: { $in: ["drama", "comedy"] } } })).toEqual({ status: 200, body: {} });
    expect(await fetchIds()).toEqual(["c"]);
    expect((await api.post("/describe_index_stats", {})).body.totalVectorCount).toBe(2);
  });

  it("from a namespace that does not exist is a no-op", async () => {
    expect(await api.post("/vectors/delete", { deleteAll: true, namespace: "ghost" })).toEqual({ status: 200, body: {} });
    expect(await api.post("/vectors/delete", { ids: ["a"], namespace: "ghost" })).toEqual({ status: 200, body: {} });
  });

  it.each([
    [{}, "Specify what to delete: ids, deleteAll: true, or a filter"],
    [{ deleteAll: false }, "Specify what to delete: ids, deleteAll: true, or a filter"],
    [{ ids: ["a"], deleteAll: true }, "ids, deleteAll and filter are mutually exclusive; specify exactly one"],
    [{ ids: ["a"], filter: { genre: "drama" } }, "ids, deleteAll and filter are mutually exclusive; specify exactly one"],
    [{ deleteAll: true, filter: { genre: "drama" } }, "ids, deleteAll and filter are mutually exclusive; specify exactly one"],
    [{ ids: [] }, "ids must hold at least one id"],
    [{ ids: "a" }, "ids must be a list of ids, got the string 'a'"],
    [{ ids: ["a", 7] }, "Id at position 1: id must be a string, got number 7"],
    [{ deleteAll: "yes" }, "deleteAll must be a boolean, got the string 'yes'"],
    [{ filter: {} }, "filter must not be empty; use deleteAll to delete every record"],
    [{ filter: { genre: { $foo: 1 } } }, "Invalid filter: unknown operator '$foo' on field 'genre'; supported: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists"],
  ])("refuses %j and deletes nothing", async (body, message) => {
    expect(await api.post("/vectors/delete", body)).toEqual({ status: 400, body: err(3, message) });
    expect(await fetchIds()).toEqual(["a", "b", "c"]);
  });
});

describe("update", () => {
  it("by id: setMetadata merges into the metadata, values replace, sparse values are set", async () => {
    const res = await api.post("/vectors/update", { id: "a", setMetadata: { year: 2024, extra: ["x"] }, values: [0.5, 0.25, 3], sparseValues: { indices: [4], values: [0.1] } });
    expect(res).toEqual({ status: 200, body: {} });
    const v = (await api.get("/vectors/fetch", { ids: "a" })).body.vectors.a;
    expect(v).toEqual({ id: "a", values: [0.5, 0.25, 3], sparseValues: { indices: [4], values: [0.1] }, metadata: { genre: "drama", year: 2024, extra: ["x"] } });
    // only metadata: values stay
    await api.post("/vectors/update", { id: "c", set_metadata: { first: true } });
    expect((await api.get("/vectors/fetch", { ids: "c" })).body.vectors.c).toEqual({ id: "c", values: [0, 0, 1], metadata: { first: true } });
    expect((await api.post("/describe_index_stats", {})).body.totalVectorCount).toBe(4);
  });

  it("by id in a namespace", async () => {
    await api.post("/vectors/update", { id: "a", namespace: "other", values: [9, 9, 9] });
    expect((await api.get("/vectors/fetch", { ids: "a", namespace: "other" })).body.vectors.a.values).toEqual([9, 9, 9]);
    expect((await api.get("/vectors/fetch", { ids: "a" })).body.vectors.a.values).toEqual([1, 0, 0]);
  });

  it("of an id that does not exist: 404 NOT_FOUND, nothing created", async () => {
    expect(await api.post("/vectors/update", { id: "ghost", values: [1, 1, 1] })).toEqual({ status: 404, body: err(5, "Vector with id 'ghost' not found in the default namespace") });
    expect(await api.post("/vectors/update", { id: "b", namespace: "other", setMetadata: { x: 1 } })).toEqual({ status: 404, body: err(5, "Vector with id 'b' not found in namespace 'other'") });
    expect((await api.get("/vectors/fetch", { ids: "ghost" })).body.vectors).toEqual({});
  });

  it("by filter: sets metadata on every match and reports matchedRecords; dryRun only counts", async () => {
    expect(await api.post("/vectors/update", { filter: { genre: { $exists: true } }, setMetadata: { seen: true }, dryRun: true })).toEqual({ status: 200, body: { matchedRecords: 2 } });
    expect((await api.get("/vectors/fetch", { ids: "a" })).body.vectors.a.metadata).toEqual({ genre: "drama", year: 2020 });
    expect(await api.post("/vectors/update", { filter: { genre: { $exists: true } }, setMetadata: { seen: true } })).toEqual({ status: 200, body: { matchedRecords: 2 } });
    const all = (await api.get("/vectors/fetch", { ids: ["a", "b", "c"] })).body.vectors;
    expect(all.a.metadata).toEqual({ genre: "drama", year: 2020, seen: true });
    expect(all.b.metadata).toEqual({ genre: "comedy", seen: true });
    expect(all.c.metadata).toBeUndefined();
  });

  it("refuses metadata that would grow past 40960 bytes, and changes nothing", async () => {
    const big = "x".repeat(40960);
    const res = await api.post("/vectors/update", { id: "a", setMetadata: { big } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Update of id 'a': metadata after the update would be \d+ bytes; the maximum is 40960 bytes per record$/);
    const byFilter = await api.post("/vectors/update", { filter: { genre: { $exists: true } }, setMetadata: { big: "y".repeat(40940) } });
    expect(byFilter.status).toBe(400);
    const all = (await api.get("/vectors/fetch", { ids: ["a", "b"] })).body.vectors;
    expect(all.a.metadata).toEqual({ genre: "drama", year: 2020 });
    expect(all.b.metadata).toEqual({ genre: "comedy" });
  });

  it.each([
    [{ values: [1, 1, 1] }, 400, "An update needs the id of a record (or a filter with setMetadata)"],
    [{ id: "a" }, 400, "Update of id 'a': nothing to update; give values, sparseValues or setMetadata"],
    [{ id: "a", values: [1, 2] }, 400, "Update of id 'a': dimension 2 does not match the dimension of the index 3"],
    [{ id: "a", setMetadata: { x: null } }, 400, "setMetadata: metadata field 'x' is null; metadata values must be a string, number, boolean or list of strings"],
    [{ id: "a", setMetadata: { x: { y: 1 } } }, 400, "setMetadata: metadata field 'x' is a nested object; metadata values must be a string, number, boolean or list of strings"],
    [{ id: "a", sparseValues: { indices: [1, 1], values: [1, 2] } }, 400, "Update of id 'a': sparseValues.indices contains 1 more than once"],
    [{ id: "a", filter: { genre: "drama" }, setMetadata: { x: 1 } }, 400, "Specify either id or filter in an update, not both"],
    [{ filter: { genre: "drama" } }, 400, "An update by filter needs setMetadata"],
    [{ filter: { genre: "drama" }, values: [1, 2, 3], setMetadata: { x: 1 } }, 400, "An update by filter can only set metadata; values and sparseValues need an id"],
    [{ id: "" }, 400, "Update: id must not be empty"],
  ])("refuses %j", async (body, status, message) => {
    expect(await api.post("/vectors/update", body)).toEqual({ status, body: err(3, message) });
    expect((await api.get("/vectors/fetch", { ids: "a" })).body.vectors.a).toEqual({ id: "a", values: [1, 0, 0], metadata: { genre: "drama", year: 2020 } });
  });
});
