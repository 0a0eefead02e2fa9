import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, err, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
const records = [
  { id: "m1", values: [1, 0, 0], metadata: { genre: "drama", year: 2019, rating: 7.5, tags: ["a", "b"], free: true } },
  { id: "m2", values: [1, 0, 0], metadata: { genre: "comedy", year: 2020, rating: 6, tags: ["b"], free: false } },
  { id: "m3", values: [1, 0, 0], metadata: { genre: "drama", year: 2021, tags: ["c"] } },
  { id: "m4", values: [1, 0, 0], metadata: { genre: "documentary", year: 2020 } },
  { id: "m5", values: [1, 0, 0] },
];

beforeAll(async () => {
  env = openEnv();
  api = client(env.store, makeIndex());
  await api.post("/vectors/upsert", { vectors: records });
});
afterAll(() => env.close());

async function ids(filter: unknown): Promise<string[]> {
  const res = await api.post("/query", { topK: 100, vector: [1, 0, 0], filter });
  expect(res.status).toBe(200);
  return res.body.matches.map((m: any) => m.id).sort();
}

describe("metadata filters", () => {
  it.each([
    ["implicit equality", { genre: "drama" }, ["m1", "m3"]],
    ["$eq string", { genre: { $eq: "comedy" } }, ["m2"]],
    ["$eq number", { year: { $eq: 2020 } }, ["m2", "m4"]],
    ["$eq boolean", { free: { $eq: true } }, ["m1"]],
    ["$eq on a list matches an element", { tags: { $eq: "b" } }, ["m1", "m2"]],
    ["$ne (records without the field match)", { genre: { $ne: "drama" } }, ["m2", "m4", "m5"]],
    ["$ne on a list: no element equal", { tags: { $ne: "b" } }, ["m3", "m4", "m5"]],
    ["$gt", { year: { $gt: 2020 } }, ["m3"]],
    ["$gte", { year: { $gte: 2020 } }, ["m2", "m3", "m4"]],
    ["$lt", { rating: { $lt: 7 } }, ["m2"]],
    ["$lte", { rating: { $lte: 7.5 } }, ["m1", "m2"]],
    ["$in", { genre: { $in: ["comedy", "documentary"] } }, ["m2", "m4"]],
    ["$in on a list", { tags: { $in: ["c", "zzz"] } }, ["m3"]],
    ["$nin (records without the field match)", { genre: { $nin: ["drama", "comedy"] } }, ["m4", "m5"]],
    ["$exists true", { rating: { $exists: true } }, ["m1", "m2"]],
    ["$exists false", { tags: { $exists: false } }, ["m4", "m5"]],
    ["two operators on a field", { year: { $gte: 2019, $lt: 2021 } }, ["m1", "m2", "m4"]],
    ["two fields (and)", { genre: "drama", year: { $gt: 2020 } }, ["m3"]],
    ["$and", { $and: [{ genre: "drama" }, { tags: { $in: ["a"] } }] }, ["m1"]],
    ["$or", { $or: [{ genre: "comedy" }, { year: 2021 }] }, ["m2", "m3"]],
    ["nested $or in $and", { $and: [{ $or: [{ genre: "drama" }, { genre: "comedy" }] }, { year: { $lte: 2020 } }] }, ["m1", "m2"]],
    ["empty filter matches everything", {}, ["m1", "m2", "m3", "m4", "m5"]],
    ["type must match: number vs string", { year: "2020" }, []],
    ["inherited names are not fields", { constructor: { $exists: true } }, []],
    ["inherited names with $ne", { toString: { $ne: "x" } }, ["m1", "m2", "m3", "m4", "m5"]],
  ])("%s", async (_name, filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it.each([
    [{ genre: { $regex: "dr.*" } }, "Invalid filter: unknown operator '$regex' on field 'genre'; supported: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists"],
    [{ $not: { genre: "drama" } }, "Invalid filter: unknown operator '$not' at filter; supported: $and, $or"],
    [{ year: { $gt: "2020" } }, "Invalid filter: operator $gt on field 'year' needs a number, got the string '2020'"],
    [{ genre: { $in: "drama" } }, "Invalid filter: operator $in on field 'genre' needs a list of strings, numbers or booleans, got the string 'drama'"],
    [{ genre: { $exists: 1 } }, "Invalid filter: operator $exists on field 'genre' needs true or false, got number 1"],
    [{ genre: { $eq: null } }, "Invalid filter: operator $eq on field 'genre' needs a string, number or boolean, got null"],
    [{ genre: ["drama"] }, `Invalid filter: field 'genre' is compared with a list; use {"$in": [...]}`],
    [{ $and: [] }, "Invalid filter: $and needs a non-empty list of filters, got a list"],
    [{ $or: { genre: "x" } }, "Invalid filter: $or needs a non-empty list of filters, got an object"],
    [{ genre: {} }, "Invalid filter: the condition on field 'genre' is empty"],
    [[1], "Invalid filter: filter must be an object, got a list"],
  ])("refuses %j", async (filter, message) => {
    const res = await api.post("/query", { topK: 5, vector: [1, 0, 0], filter });
    expect(res).toEqual({ status: 400, body: err(3, message) });
  });

  it("refuses a filter nested thousands of levels deep without overflowing the stack", async () => {
    const depth = 5000;
    const filter = '{"$and":['.repeat(depth) + '{"genre":"drama"}' + "]}".repeat(depth);
    const res = await api.call("POST", "/query", Buffer.from(`{"topK":1,"vector":[1,0,0],"filter":${filter}}`));
    expect(res).toEqual({ status: 400, body: err(3, "Invalid filter: $and / $or nested more than 32 levels deep") });
  });

  it("describe_index_stats counts only matching records per namespace, total stays whole", async () => {
    const res = await api.post("/describe_index_stats", { filter: { genre: "drama" } });
    expect(res.body).toEqual({ namespaces: { "": { vectorCount: 2 } }, dimension: 3, indexFullness: 0, totalVectorCount: 5, metric: "cosine", vectorType: "dense" });
    const none = await api.post("/describe_index_stats", { filter: { genre: "western" } });
    expect(none.body.namespaces).toEqual({});
    const bad = await api.post("/describe_index_stats", { filter: { genre: { $like: "x" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("unknown operator '$like'");
  });
});
