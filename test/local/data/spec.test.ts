// Every data-plane answer matches the published schemas (skipped, saying why, when ../shared/api-spec is absent).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaValidator, specsAvailable, specsMissingReason, validateResponse, type SpecFile } from "../../helpers/api-spec.js";
import { client, makeIndex, openEnv, type Client, type Env } from "../setup.js";

let env: Env;
let api: Client;
beforeAll(async () => {
  env = openEnv();
  api = client(env.store, makeIndex({ metric: "dotproduct" }));
  await api.post("/vectors/upsert", {
    namespace: "ns",
    vectors: [
      { id: "a", values: [1, 2, 3], sparseValues: { indices: [1, 5], values: [0.5, 0.25] }, metadata: { g: "x", n: 2, t: ["p"], b: true } },
      { id: "b", values: [3, 2, 1] },
    ],
  });
});
afterAll(() => env.close());

const NEW: SpecFile = "db_data_2026-04.oas.yaml";
const OLD: SpecFile = "data_2024-07.oas.yaml";

describe.skipIf(!specsAvailable)(`data-plane responses match the published schemas${specsAvailable ? "" : ` (skipped: ${specsMissingReason})`}`, () => {
  const cases: [string, string, () => Promise<{ status: number; body: unknown }>, SpecFile[]][] = [
    ["/vectors/upsert", "post", () => api.post("/vectors/upsert", { namespace: "ns", vectors: [{ id: "c", values: [1, 1, 1] }] }), [NEW, OLD]],
    ["/query", "post", () => api.post("/query", { namespace: "ns", topK: 3, vector: [1, 0, 0], sparseVector: { indices: [1], values: [1] }, includeValues: true, includeMetadata: true }), [NEW, OLD]],
    ["/query", "post", () => api.post("/query", { namespace: "ns", topK: 3, id: "a" }), [NEW, OLD]],
    ["/vectors/fetch", "get", () => api.get("/vectors/fetch", { ids: ["a", "b", "zz"], namespace: "ns" }), [NEW, OLD]],
    ["/vectors/list", "get", () => api.get("/vectors/list", { namespace: "ns", limit: "1" }), [NEW, OLD]],
    ["/describe_index_stats", "post", () => api.post("/describe_index_stats", {}), [NEW, OLD]],
    ["/vectors/update", "post", () => api.post("/vectors/update", { namespace: "ns", id: "b", setMetadata: { g: "y" } }), [NEW, OLD]],
    ["/vectors/update", "post", () => api.post("/vectors/update", { namespace: "ns", filter: { g: "y" }, setMetadata: { h: 1 } }), [NEW]],
    ["/vectors/fetch_by_metadata", "post", () => api.post("/vectors/fetch_by_metadata", { namespace: "ns", filter: { g: { $exists: true } }, limit: 1 }), [NEW]],
    ["/namespaces", "get", () => api.get("/namespaces"), [NEW]],
    ["/namespaces/{namespace}", "get", () => api.get("/namespaces/ns"), [NEW]],
    ["/vectors/delete", "post", () => api.post("/vectors/delete", { namespace: "ns", ids: ["c"] }), [NEW, OLD]],
  ];

  it.each(cases)("%s %s", async (path, method, call, files) => {
    const res = await call();
    expect(res.status).toBe(200);
    for (const file of files) expect(validateResponse(file, path, method, 200, res.body), file).toEqual([]);
  });

  it("the validator does catch a wrong shape", () => {
    expect(validateResponse(NEW, "/vectors/upsert", "post", 200, { upsertedCount: "two" })).not.toEqual([]);
    expect(validateResponse(NEW, "/query", "post", 200, { matches: [{ score: 1 }] })).not.toEqual([]);
  });

  it("error answers match rpcStatus", async () => {
    const rpc = schemaValidator(NEW, "rpcStatus");
    const answers = [
      await api.post("/vectors/upsert", { vectors: [{ id: "x", values: [1] }] }),
      await api.post("/query", "{"),
      await api.get("/nope"),
      await api.get("/vectors/upsert"),
      await api.post("/vectors/update", { id: "ghost", values: [1, 2, 3] }),
      await api.post("/namespaces", {}),
    ];
    for (const a of answers) {
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(rpc(a.body), JSON.stringify(rpc.errors)).toBe(true);
      expect(Object.keys(a.body as object)).toEqual(["code", "message", "details"]);
    }
  });
});
