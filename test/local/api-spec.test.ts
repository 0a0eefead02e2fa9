// Every kind of answer the local service gives, validated against the published specs in ../shared/api-spec.
// Those files are not part of the project: without them these tests are skipped, and say why.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixQuirks, hasResponse, schemaValidator, specsAvailable, specsMissingReason, validateResponse, type SpecFile } from "../helpers/api-spec.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { call, controlClient, waitReady, type Answer } from "./http.js";

const CONTROL: SpecFile = "db_control_2026-04.oas.yaml";
const DATA: SpecFile = "db_data_2026-04.oas.yaml";
const title = specsAvailable ? "responses match the published API specs" : `responses match the published API specs — skipped: ${specsMissingReason}`;

describe.skipIf(!specsAvailable)(title, () => {
  let svc: RunningService;
  let api: ReturnType<typeof controlClient>;

  function valid(file: SpecFile, path: string, method: string, answer: Answer, status: number): void {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (hasResponse(file, path, method, status)) {
      expect(validateResponse(file, path, method, answer.status, answer.body)).toEqual([]);
    } else {
      // A status the operation does not list: it must still be the plane's error shape.
      const validate = schemaValidator(file, file === DATA ? "rpcStatus" : "ErrorResponse");
      expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
    }
  }

  beforeAll(async () => {
    svc = await startServiceProcess();
    api = controlClient(svc.controlUrl, svc.apiKey);
  });
  afterAll(async () => {
    await svc?.stop();
    if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
  });

  it("control plane: indexes", async () => {
    const pod = { pod: { environment: "us-east1-gcp", pod_type: "s1.x2", replicas: 2, shards: 1, metadata_config: { indexed: ["genre"] } } };
    valid(CONTROL, "/indexes", "post", await api("POST", "/indexes", { name: "pod", dimension: 8, metric: "dotproduct", spec: pod, tags: { a: "b" } }), 201);
    valid(CONTROL, "/indexes", "post", await api("POST", "/indexes", { name: "sl", dimension: 8, spec: { serverless: { cloud: "azure", region: "eastus2" } } }), 201);
    valid(CONTROL, "/indexes", "post", await api("POST", "/indexes", { name: "sparse", vector_type: "sparse", spec: { serverless: { cloud: "aws", region: "us-east-1" } } }), 201);
    valid(CONTROL, "/indexes", "get", await api("GET", "/indexes"), 200);
    valid(CONTROL, "/indexes/{index_name}", "get", await api("GET", "/indexes/pod"), 200);
    valid(CONTROL, "/indexes/{index_name}", "patch", await api("PATCH", "/indexes/pod", { deletion_protection: "enabled", spec: { pod: { replicas: 3 } } }), 202);
    valid(CONTROL, "/indexes/{index_name}", "delete", await api("DELETE", "/indexes/pod"), 403);
    valid(CONTROL, "/indexes/{index_name}", "patch", await api("PATCH", "/indexes/pod", { deletion_protection: "disabled" }), 202);
    valid(CONTROL, "/indexes/{index_name}", "delete", await api("DELETE", "/indexes/sparse"), 202);
    // The older spec's index record (2024-07) is a subset of what is returned.
    valid("control_2024-07.oas.yaml", "/indexes/{index_name}", "get", await api("GET", "/indexes/sl"), 200);
  });

  it("control plane: collections", async () => {
    await api("POST", "/indexes", { name: "src", dimension: 2, spec: { pod: { environment: "us-west1-gcp", pod_type: "p1.x1" } } });
    valid(CONTROL, "/collections", "post", await api("POST", "/collections", { name: "col", source: "src" }), 201);
    valid(CONTROL, "/collections/{collection_name}", "get", await api("GET", "/collections/col"), 200);
    await waitReady(api, "/collections/col");
    valid(CONTROL, "/collections/{collection_name}", "get", await api("GET", "/collections/col"), 200);
    valid(CONTROL, "/collections", "get", await api("GET", "/collections"), 200);
    valid("control_2024-07.oas.yaml", "/collections", "get", await api("GET", "/collections"), 200);
    valid(CONTROL, "/collections/{collection_name}", "delete", await api("DELETE", "/collections/col"), 202);
  });

  it("control plane: errors", async () => {
    valid(CONTROL, "/indexes", "post", await api("POST", "/indexes", { name: "Bad", dimension: 2, spec: {} }), 400);
    valid(CONTROL, "/indexes", "post", await api("POST", "/indexes", { name: "x", dimension: 2 }), 422);
    valid(CONTROL, "/indexes", "post", await api("POST", "/indexes", { name: "sl", dimension: 8, spec: { serverless: { cloud: "aws", region: "x" } } }), 409);
    valid(CONTROL, "/indexes", "get", await call(`${svc.controlUrl}/indexes`, {}), 401);
    valid(CONTROL, "/indexes/{index_name}", "get", await api("GET", "/indexes/ghost"), 404);
    valid(CONTROL, "/collections", "post", await api("POST", "/collections", { name: "c", source: "sl" }), 400);
    valid(CONTROL, "/collections", "post", await api("POST", "/collections", { name: "c", source: "ghost" }), 404);
  });

  it("data plane: every route", async () => {
    const created = await api("POST", "/indexes", { name: "dp", dimension: 2, metric: "dotproduct", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
    const host = `http://${(created.body as { host: string }).host}`;
    const d = (method: string, path: string, body?: unknown) => call(`${host}${path}`, { method, body, apiKey: svc.apiKey });
    valid(DATA, "/vectors/upsert", "post", await d("POST", "/vectors/upsert", { vectors: [{ id: "v1", values: [1, 2], metadata: { g: "a" } }, { id: "v2", values: [2, 1], sparseValues: { indices: [3], values: [0.5] } }], namespace: "n" }), 200);
    valid(DATA, "/query", "post", await d("POST", "/query", { vector: [1, 1], topK: 2, namespace: "n", includeValues: true, includeMetadata: true, filter: { g: { $in: ["a"] } } }), 200);
    valid(DATA, "/vectors/fetch", "get", await d("GET", "/vectors/fetch?ids=v1&ids=v2&namespace=n"), 200);
    valid(DATA, "/vectors/list", "get", await d("GET", "/vectors/list?namespace=n&limit=1"), 200);
    valid(DATA, "/vectors/update", "post", await d("POST", "/vectors/update", { id: "v1", setMetadata: { g: "b" }, namespace: "n" }), 200);
    valid(DATA, "/describe_index_stats", "post", await d("POST", "/describe_index_stats", {}), 200);
    valid(DATA, "/vectors/delete", "post", await d("POST", "/vectors/delete", { ids: ["v2"], namespace: "n" }), 200);
    valid(DATA, "/vectors/upsert", "post", await d("POST", "/vectors/upsert", { vectors: [{ id: "bad", values: [1, 2, 3] }] }), 400);
    valid(DATA, "/vectors/upsert", "post", await call(`${host}/vectors/upsert`, { method: "POST", body: {} }), 401);
  });

  it("data plane under 2026-07: every vectors and namespaces route", async () => {
    const DATA_2026_07: SpecFile = "db_data_2026-07.oas.yaml";
    const created = await api("POST", "/indexes", { name: "dp7", dimension: 2, metric: "dotproduct", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
    const host = `http://${(created.body as { host: string }).host}`;
    const headers = { "X-Pinecone-Api-Version": "2026-07" };
    const d = (method: string, path: string, body?: unknown) => call(`${host}${path}`, { method, body, apiKey: svc.apiKey, headers });
    valid(DATA_2026_07, "/vectors/upsert", "post", await d("POST", "/vectors/upsert", { vectors: [{ id: "v1", values: [1, 2], metadata: { g: "a" } }, { id: "v2", values: [2, 1] }], namespace: "n" }), 200);
    valid(DATA_2026_07, "/query", "post", await d("POST", "/query", { vector: [1, 1], topK: 2, namespace: "n", includeValues: true, includeMetadata: true }), 200);
    valid(DATA_2026_07, "/vectors/fetch", "get", await d("GET", "/vectors/fetch?ids=v1&namespace=n"), 200);
    valid(DATA_2026_07, "/vectors/list", "get", await d("GET", "/vectors/list?namespace=n&limit=1"), 200);
    valid(DATA_2026_07, "/vectors/fetch_by_metadata", "post", await d("POST", "/vectors/fetch_by_metadata", { namespace: "n", filter: { g: "a" } }), 200);
    valid(DATA_2026_07, "/describe_index_stats", "post", await d("POST", "/describe_index_stats", {}), 200);
    valid(DATA_2026_07, "/namespaces", "post", await d("POST", "/namespaces", { name: "made" }), 200);
    valid(DATA_2026_07, "/namespaces", "get", await d("GET", "/namespaces"), 200);
    valid(DATA_2026_07, "/namespaces/{namespace}", "get", await d("GET", "/namespaces/n"), 200);
    valid(DATA_2026_07, "/namespaces/{namespace}", "get", await d("GET", "/namespaces/none"), 404);
    valid(DATA_2026_07, "/namespace-aliases", "post", await d("POST", "/namespace-aliases", { name: "cur", target_namespace: "n" }), 200);
    valid(DATA_2026_07, "/namespace-aliases/{alias_name}", "patch", await d("PATCH", "/namespace-aliases/cur", { target_namespace: "made" }), 200);
    valid(DATA_2026_07, "/namespace-aliases/{alias_name}", "get", await d("GET", "/namespace-aliases/cur"), 200);
    valid(DATA_2026_07, "/namespace-aliases", "post", await d("POST", "/namespace-aliases", { name: "cur", target_namespace: "n" }), 409);
    valid(DATA_2026_07, "/namespace-aliases/{alias_name}", "delete", await d("DELETE", "/namespace-aliases/cur"), 200);
    valid(DATA_2026_07, "/vectors/update", "post", await d("POST", "/vectors/update", { id: "v1", setMetadata: { g: "b" }, namespace: "n" }), 200);
    valid(DATA_2026_07, "/vectors/delete", "post", await d("POST", "/vectors/delete", { ids: ["v2"], namespace: "n" }), 200);
    valid(DATA_2026_07, "/namespaces/{namespace}", "delete", await d("DELETE", "/namespaces/made"), 200);
    const unauthorized = await call(`${host}/vectors/upsert`, { method: "POST", body: {}, headers });
    expect({ status: unauthorized.status, type: unauthorized.headers.get("content-type"), body: unauthorized.body }).toEqual({ status: 401, type: "text/plain", body: "Invalid API key" });
  });
});

describe("spec quirks fixed before validation", () => {
  it("turns array string-limits into item limits, x-enum into enum, string defaults into typed ones, and lifts misplaced required", () => {
    expect(fixQuirks({ type: "array", minLength: 1, maxLength: 1000, items: { type: "string" } })).toEqual({ type: "array", minItems: 1, maxItems: 1000, items: { type: "string" } });
    expect(fixQuirks({ type: "string", "x-enum": ["a", "b"] })).toEqual({ type: "string", enum: ["a", "b"] });
    expect(fixQuirks({ type: "boolean", default: "false" })).toEqual({ type: "boolean", default: false });
    expect(fixQuirks({ type: "integer", default: "100" })).toEqual({ type: "integer", default: 100 });
    expect(fixQuirks({ type: "object", properties: { id: { type: "string", required: ["id"], minLength: 1 } } })).toEqual({
      type: "object",
      properties: { id: { type: "string", minLength: 1 } },
      required: ["id"],
    });
  });

  it.skipIf(!specsAvailable)("so that the validator catches what the raw specs would let through", () => {
    const vector = schemaValidator(DATA, "Vector");
    expect(vector({ values: [1] })).toBe(false); // id is required once lifted
    const indexModel = schemaValidator("db_control_2026-04.oas.yaml", "IndexModel");
    const model = { name: "a", metric: "cosine", host: "h", vector_type: "dense", spec: { pod: { environment: "e", pod_type: "p1.x1" } }, status: { ready: true, state: "Ready" } };
    expect(indexModel(model)).toBe(true);
    expect(indexModel({ ...model, metric: "manhattan" })).toBe(false); // x-enum enforced
    expect(indexModel({ ...model, status: { ready: true, state: "Sleeping" } })).toBe(false);
  });
});
