// The up-front filter check the reading tools share.
import { describe, expect, test } from "vitest";
import { filterProblem } from "../../src/tool-kit/args/filter.js";

describe("filterProblem", () => {
  test.each([
    [{ genre: "drama" }],
    [{ genre: { $eq: "drama" }, year: { $gte: 2020, $lt: 2030 } }],
    [{ $and: [{ genre: { $in: ["a", "b"] } }, { $or: [{ year: 1 }, { ok: { $exists: true } }] }] }],
    [{ tags: { $nin: ["x"] }, n: { $ne: 3, $gt: 1, $lte: 9 } }],
  ])("accepts %j", (filter) => expect(filterProblem(filter)).toBeUndefined());

  test.each([
    [{ genre: { $regex: "^d" } }, 'unknown operator "$regex" on field "genre"'],
    [{ $not: { genre: "x" } }, 'unknown operator "$not" at filter; only $and and $or combine filters'],
    [{ $and: [{ a: 1 }, { b: { $like: "x" } }] }, 'unknown operator "$like" on field "b"'],
    [{ $or: [{ a: 1 }, { $nor: [] }] }, 'unknown operator "$nor" at filter.$or[1]; only $and and $or combine filters'],
    [{ $and: [] }, "filter.$and must be a non-empty list of filters"],
    [{ $or: { a: 1 } }, "filter.$or must be a non-empty list of filters"],
    [{ $and: ["a"] }, "filter.$and[0] must be an object of field → condition"],
    [{ genre: null }, 'the condition on field "genre" is null'],
    [{ genre: ["a", "b"] }, 'field "genre" is compared with a list; use {"$in": [...]}'],
    [{ genre: {} }, 'the condition on field "genre" is empty'],
  ])("refuses %j: %s", (filter, problem) => expect(filterProblem(filter)).toBe(problem));
});
