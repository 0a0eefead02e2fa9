// A filter that breaks a rule is refused by the engine with a domain error (the rule, the field, the sentence) that
// knows nothing of HTTP; the data plane alone says it in the wire's words: the gRPC-style body of the vectors routes
// under 2026-04 and 2026-07 alike, the documents' {status, error} body under 2026-07 — byte for byte.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFilter, FilterError } from "../../../src/local/search/filter.js";
import { handleDataPlane } from "../../../src/local/data/handlers.js";
import { DataPlaneError } from "../../../src/local/data/errors.js";
import type { DataPlaneIndex } from "../../../src/local/data/types.js";
import type { IndexSchemaRecord } from "../../../src/local/storage/index-schema.js";
import { makeIndex, openEnv, type Env } from "../setup.js";

const vectors: DataPlaneIndex = makeIndex({ name: "vecs", space: "i:vecs", dimension: 2 });
const schema: IndexSchemaRecord = { fields: { body: { type: "string", full_text_search: { language: "en", stemming: false, stop_words: false } } } };
const documents: DataPlaneIndex = makeIndex({ name: "docs", space: "i:docs", dimension: 0, schema });

let env: Env;
async function call(index: DataPlaneIndex, version: "2026-04" | "2026-07" | undefined, path: string, body: unknown) {
  const res = await handleDataPlane({ method: "POST", pathname: path, query: new URLSearchParams(), body: Buffer.from(JSON.stringify(body)), apiVersion: version }, index, env.store);
  return { status: res.status, bytes: JSON.stringify(res.body) };
}

beforeAll(async () => {
  env = openEnv();
  expect((await call(vectors, undefined, "/vectors/upsert", { namespace: "ns", vectors: [{ id: "a", values: [1, 0], metadata: { year: 2020 } }] })).status).toBe(200);
  expect((await call(documents, "2026-07", "/namespaces/ns/documents/upsert", { documents: [{ _id: "d1", body: "brown fox", year: 2020 }] })).status).toBe(202);
});
afterAll(() => env.close());

const REFUSED: [string, unknown, FilterError["rule"], string | undefined, string][] = [
  ["an operand of the wrong type", { year: { $gt: "2020" } }, "operand", "year", "operator $gt on field 'year' needs a number, got the string '2020'"],
  ["an unknown operator on a field", { year: { $near: 1 } }, "operator", "year", "unknown operator '$near' on field 'year'; supported: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists"],
  ["an unknown top-level operator", { $not: { year: 1 } }, "operator", "filter", "unknown operator '$not' at filter; supported: $and, $or"],
  ["an empty $or", { $or: [] }, "list-of-filters", "$or", "$or needs a non-empty list of filters, got a list"],
  ["a list compared by value", { year: [2020] }, "condition", "year", 'field \'year\' is compared with a list; use {"$in": [...]}'],
  ["a filter that is not an object", [1], "object", "filter", "filter must be an object, got a list"],
];

describe("the engine's refusal of a filter", () => {
  it.each(REFUSED)("%s: a FilterError naming the rule and the field, no HTTP status or code", (_what, filter, rule, field, message) => {
    let thrown: unknown;
    try {
      compileFilter(filter as never);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(FilterError);
    expect(thrown).not.toBeInstanceOf(DataPlaneError);
    expect({ rule: (thrown as FilterError).rule, field: (thrown as FilterError).field, message: (thrown as FilterError).message }).toEqual({ rule, field, message });
    expect(Object.keys(thrown as object)).not.toContain("status");
  });

  it("nesting past 32 levels names the rule but no field", () => {
    const deep = JSON.parse('{"$and":['.repeat(40) + '{"year":1}' + "]}".repeat(40));
    expect(() => compileFilter(deep)).toThrow(expect.objectContaining({ rule: "nesting", field: undefined, message: "$and / $or nested more than 32 levels deep" }));
  });
});

describe("the data plane's answer to it", () => {
  it.each(REFUSED)("%s: 400 with code 3 on /query, the same bytes under 2026-04, 2026-07 and no version", async (_what, filter, _rule, _field, message) => {
    const expected = { status: 400, bytes: `{"code":3,"message":${JSON.stringify(`Invalid filter: ${message}`)},"details":[]}` };
    for (const version of [undefined, "2026-04", "2026-07"] as const) {
      expect(await call(vectors, version, "/query", { namespace: "ns", topK: 1, vector: [1, 0], filter }), version).toEqual(expected);
    }
    expect(await call(vectors, "2026-04", "/vectors/fetch_by_metadata", { namespace: "ns", filter })).toEqual(expected);
    expect(await call(vectors, "2026-04", "/describe_index_stats", { filter })).toEqual(expected);
  });

  it.each(REFUSED.filter(([, filter]) => !Array.isArray(filter)))(
    "%s: 400 INVALID_ARGUMENT in the documents' shape for search, fetch and delete",
    async (_what, filter, _rule, _field, message) => {
      const expected = { status: 400, bytes: `{"status":400,"error":{"code":"INVALID_ARGUMENT","message":${JSON.stringify(`Invalid filter: ${message}`)}}}` };
      expect(await call(documents, "2026-07", "/namespaces/ns/documents/search", { top_k: 1, score_by: [{ type: "text", fields: ["body"], query: "fox" }], filter })).toEqual(expected);
      expect(await call(documents, "2026-07", "/namespaces/ns/documents/fetch", { filter })).toEqual(expected);
      expect(await call(documents, "2026-07", "/namespaces/ns/documents/delete", { filter })).toEqual(expected);
    },
  );

  it("nothing was deleted by the refused requests", async () => {
    expect(JSON.parse((await call(documents, "2026-07", "/namespaces/ns/documents/fetch", { ids: ["d1"] })).bytes).documents.d1._id).toBe("d1");
    expect(JSON.parse((await call(vectors, "2026-04", "/query", { namespace: "ns", topK: 1, vector: [1, 0] })).bytes).matches).toHaveLength(1);
  });
});
