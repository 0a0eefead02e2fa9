// Unknown routes, wrong methods, malformed bodies and arbitrary input: always an answer in the data-plane shape.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleDataPlane } from "../../../src/local/data/handlers.js";
import { client, err, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
beforeAll(async () => {
  env = openEnv();
  api = client(env.store, makeIndex());
  await api.post("/vectors/upsert", { vectors: [{ id: "keep", values: [1, 2, 3] }] });
});
afterAll(() => env.close());

describe("routing", () => {
  it.each([
    ["GET", "/nope"],
    ["POST", "/vectors"],
    ["POST", "/indexes"],
    ["GET", "/"],
  ])("%s %s is 404 NOT_FOUND", async (method, path) => {
    expect(await api.call(method, path, Buffer.alloc(0))).toEqual({ status: 404, body: err(5, `Not found: ${method} ${path} is not a data-plane route`) });
  });

  it.each([
    ["GET", "/vectors/upsert", "POST"],
    ["PUT", "/query", "POST"],
    ["POST", "/vectors/fetch", "GET"],
    ["DELETE", "/vectors/delete", "POST"],
    ["GET", "/vectors/update", "POST"],
    ["POST", "/vectors/list", "GET"],
    ["DELETE", "/describe_index_stats", "POST or GET"],
  ])("%s %s is 405", async (method, path, allowed) => {
    expect(await api.call(method, path, Buffer.alloc(0))).toEqual({ status: 405, body: err(12, `Method ${method} is not allowed on ${path}; use ${allowed}`) });
  });

  it("a trailing slash is the same route", async () => {
    expect((await api.call("POST", "/describe_index_stats/", Buffer.from("{}"))).status).toBe(200);
  });

  it("GET /describe_index_stats works as the legacy form", async () => {
    expect((await api.get("/describe_index_stats")).body.totalVectorCount).toBe(1);
  });

  it.each(["/vectors/upsert", "/query", "/vectors/delete", "/vectors/update", "/describe_index_stats"])("malformed JSON on %s is 400", async (path) => {
    const res = await api.call("POST", path, Buffer.from('{"vectors": [}'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(3);
    expect(res.body.details).toEqual([]);
    expect(res.body.message).toMatch(/^Malformed JSON in request body: /);
  });

  it.each(["[1,2]", "null", "42", '"text"'])("a body that is not an object (%s) is 400", async (body) => {
    expect(await api.call("POST", "/query", Buffer.from(body))).toEqual({ status: 400, body: err(3, "The request body must be a JSON object") });
  });

  it("snake_case field names are accepted like camelCase", async () => {
    const res = await api.post("/query", { top_k: 1, vector: [1, 2, 3], include_values: true });
    expect(res.body.matches).toEqual([{ id: "keep", score: expect.any(Number), values: [1, 2, 3] }]);
  });
});

describe("arbitrary input", () => {
  const paths = ["/vectors/upsert", "/query", "/vectors/fetch", "/vectors/delete", "/vectors/update", "/vectors/list", "/describe_index_stats", "/x"];
  const methods = ["GET", "POST", "PUT", "DELETE"];

  it("never throws, never hangs, always answers in the data-plane shape; valid data survives", async () => {
    const index = makeIndex({ space: "i:fuzz" });
    const json = fc.jsonValue({ maxDepth: 4 });
    const fieldish = fc.record(
      {
        vectors: fc.oneof(fc.array(fc.record({ id: fc.oneof(fc.string(), fc.integer()), values: fc.oneof(fc.array(fc.double(), { maxLength: 4 }), json), metadata: json, sparseValues: json }, { requiredKeys: [] }), { maxLength: 5 }), json),
        topK: fc.oneof(fc.integer({ min: -5, max: 20000 }), json),
        vector: fc.oneof(fc.array(fc.double(), { maxLength: 4 }), json),
        id: json,
        ids: json,
        filter: json,
        deleteAll: fc.boolean(),
        namespace: fc.oneof(fc.constant("fuzz"), fc.constant("__default__"), json),
        setMetadata: json,
        sparseVector: json,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...methods),
        fc.constantFrom(...paths),
        fc.oneof(fieldish.map((o) => JSON.stringify(o)), json.map((j) => JSON.stringify(j)), fc.string()),
        fc.dictionary(fc.constantFrom("ids", "namespace", "limit", "prefix", "paginationToken"), fc.string(), { maxKeys: 3 }),
        async (method, pathname, body, query) => {
          const res = await handleDataPlane({ method, pathname, query: new URLSearchParams(query), body: Buffer.from(body) }, index, env.store);
          expect(res.status).not.toBe(500);
          if (res.status !== 200) {
            const b = res.body as { code: unknown; message: unknown; details: unknown };
            expect(typeof b.code).toBe("number");
            expect(typeof b.message).toBe("string");
            expect(b.details).toEqual([]);
          }
          JSON.stringify(res.body);
        },
      ),
      { numRuns: 400, seed: 7 },
    );
    const keep = await api.get("/vectors/fetch", { ids: "keep" });
    expect(keep.body.vectors.keep.values).toEqual([1, 2, 3]);
  });
});
