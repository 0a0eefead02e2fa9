// Every control-plane rule: the bad request, its exact status and body, and that nothing changed.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { call, controlClient, controlError, waitReady } from "../http.js";

let svc: RunningService;
let api: ReturnType<typeof controlClient>;

const podSpec = { pod: { environment: "us-east1-gcp", pod_type: "p1.x1" } };
const slSpec = { serverless: { cloud: "aws", region: "us-east-1" } };

async function snapshot(): Promise<unknown> {
  const [indexes, collections] = await Promise.all([api("GET", "/indexes"), api("GET", "/collections")]);
  return { indexes: indexes.body, collections: collections.body };
}

/** Sends the request, checks the exact error answer, and that the inventory is as it was. */
async function refused(method: string, path: string, body: unknown, status: number, code: string, message: string | RegExp) {
  const before = await snapshot();
  const answer = await api(method, path, body);
  const expected = controlError(status, code, typeof message === "string" ? message : (expect.stringMatching(message) as unknown as string));
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: expected });
  expect(answer.headers.get("content-type")).toBe("application/json");
  expect(await snapshot()).toEqual(before);
}

beforeAll(async () => {
  svc = await startServiceProcess();
  api = controlClient(svc.controlUrl, svc.apiKey);
  expect((await api("POST", "/indexes", { name: "existing", dimension: 2, spec: podSpec })).status).toBe(201);
  expect((await api("POST", "/indexes", { name: "sl", dimension: 2, spec: slSpec })).status).toBe(201);
});

afterAll(async () => {
  await svc?.stop();
  if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
});

describe("authentication", () => {
  const unauth = controlError(401, "UNAUTHENTICATED", "Invalid API Key");

  it.each([
    ["GET", "/indexes", undefined],
    ["POST", "/indexes", { name: "x", dimension: 2, spec: podSpec }],
    ["DELETE", "/indexes/existing", undefined],
    ["GET", "/collections", undefined],
    ["POST", "/collections", { name: "c", source: "existing" }],
    ["GET", "/no-such-route", undefined],
  ])("%s %s without a key or with a wrong key is 401 and changes nothing", async (method, path, body) => {
    const before = await snapshot();
    for (const apiKey of [null, "wrong-key", `${svc.apiKey}x`]) {
      const answer = await call(`${svc.controlUrl}${path}`, { method, body, apiKey });
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: unauth });
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("POST /indexes rules", () => {
  const long = "a".repeat(46);
  it.each([
    [{ name: long, dimension: 2, spec: podSpec }, 400, "INVALID_ARGUMENT", `Index name "${long}" is invalid: name must be 1-45 characters long (got 46).`],
    [{ name: "", dimension: 2, spec: podSpec }, 400, "INVALID_ARGUMENT", `Index name "" is invalid: name must be 1-45 characters long (got 0).`],
    [{ name: "Upper", dimension: 2, spec: podSpec }, 400, "INVALID_ARGUMENT", `Index name "Upper" is invalid: name must consist only of lower case alphanumeric characters or '-'.`],
    [{ name: "under_score", dimension: 2, spec: podSpec }, 400, "INVALID_ARGUMENT", `Index name "under_score" is invalid: name must consist only of lower case alphanumeric characters or '-'.`],
    [{ name: "-lead", dimension: 2, spec: podSpec }, 400, "INVALID_ARGUMENT", `Index name "-lead" is invalid: name must start and end with an alphanumeric character.`],
    [{ name: "trail-", dimension: 2, spec: podSpec }, 400, "INVALID_ARGUMENT", `Index name "trail-" is invalid: name must start and end with an alphanumeric character.`],
    [{ dimension: 2, spec: podSpec }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `name`"],
    [{ name: 7, dimension: 2, spec: podSpec }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: name: invalid type: integer, expected a string"],
    [{ name: "d", spec: podSpec }, 400, "INVALID_ARGUMENT", "dimension is required for a dense index (an integer from 1 to 20000)."],
    [{ name: "d", dimension: 0, spec: podSpec }, 400, "INVALID_ARGUMENT", "dimension must be between 1 and 20000 (got 0)."],
    [{ name: "d", dimension: 20001, spec: podSpec }, 400, "INVALID_ARGUMENT", "dimension must be between 1 and 20000 (got 20001)."],
    [{ name: "d", dimension: "3", spec: podSpec }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: dimension: invalid type: string, expected an integer"],
    [{ name: "d", dimension: 2.5, spec: podSpec }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: dimension: invalid type: number, expected an integer"],
    [{ name: "d", dimension: 2, metric: "manhattan", spec: podSpec }, 400, "INVALID_ARGUMENT", `metric must be one of cosine, euclidean or dotproduct (got "manhattan").`],
    [{ name: "d", dimension: 2, vector_type: "dense2", spec: slSpec }, 400, "INVALID_ARGUMENT", `vector_type must be "dense" or "sparse" (got "dense2").`],
    [{ name: "d", vector_type: "sparse", dimension: 2, spec: slSpec }, 400, "INVALID_ARGUMENT", "dimension must not be set for a sparse index."],
    [{ name: "d", vector_type: "sparse", metric: "cosine", spec: slSpec }, 400, "INVALID_ARGUMENT", `metric must be dotproduct for a sparse index (got "cosine").`],
    [{ name: "d", vector_type: "sparse", spec: podSpec }, 400, "INVALID_ARGUMENT", "vector_type sparse is only supported for serverless indexes, not pod-based ones."],
    [{ name: "d", dimension: 2 }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `spec`"],
    [{ name: "d", dimension: 2, spec: {} }, 400, "INVALID_ARGUMENT", "spec must contain exactly one of serverless or pod (got none)."],
    [{ name: "d", dimension: 2, spec: { ...podSpec, ...slSpec } }, 400, "INVALID_ARGUMENT", "spec must contain exactly one of serverless or pod (got pod, serverless)."],
    [{ name: "d", dimension: 2, spec: { byoc: { environment: "x" } } }, 400, "INVALID_ARGUMENT", "spec.byoc is not supported by the local service: use spec.serverless or spec.pod."],
    [{ name: "d", dimension: 2, spec: { serverless: { cloud: "ibm", region: "x" } } }, 400, "INVALID_ARGUMENT", `spec.serverless.cloud must be one of aws, gcp or azure (got "ibm").`],
    [{ name: "d", dimension: 2, spec: { serverless: { cloud: "aws" } } }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `spec.serverless.region`"],
    [{ name: "d", dimension: 2, spec: { pod: { pod_type: "p1.x1" } } }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `spec.pod.environment`"],
    [{ name: "d", dimension: 2, spec: { pod: { environment: "e", pod_type: "p3.x1" } } }, 400, "INVALID_ARGUMENT", `spec.pod.pod_type "p3.x1" is invalid: it must be one of s1, p1 or p2 followed by '.' and one of x1, x2, x4 or x8 (e.g. "p1.x1").`],
    [{ name: "d", dimension: 2, spec: { pod: { environment: "e", pod_type: "p1.x1", replicas: 0 } } }, 400, "INVALID_ARGUMENT", "spec.pod.replicas must be at least 1 (got 0)."],
    [{ name: "d", dimension: 2, spec: podSpec, deletion_protection: "maybe" }, 400, "INVALID_ARGUMENT", `deletion_protection must be "enabled" or "disabled" (got "maybe").`],
    [{ name: "d", dimension: 2, spec: podSpec, tags: { "bad key": "v" } }, 400, "INVALID_ARGUMENT", `tags key "bad key" is invalid: keys must be 1-80 characters of alphanumerics, '_' or '-'.`],
    [{ name: "existing", dimension: 2, spec: podSpec }, 409, "ALREADY_EXISTS", "Index existing already exists."],
    // 400 with this text, as the hosted service answers (not 404)
    [{ name: "d", dimension: 2, spec: { pod: { ...podSpec.pod, source_collection: "ghost" } } }, 400, "INVALID_ARGUMENT", "Resource ghost not found"],
  ])("refuses %j with %i", async (body, status, code, message) => {
    await refused("POST", "/indexes", body, status, code, message);
  });

  it("refuses an index from a collection of another dimension", async () => {
    expect((await api("POST", "/collections", { name: "dim2", source: "existing" })).status).toBe(201);
    await waitReady(api, "/collections/dim2");
    await refused("POST", "/indexes", { name: "d", dimension: 3, spec: { pod: { ...podSpec.pod, source_collection: "dim2" } } }, 400, "INVALID_ARGUMENT", "dimension 3 does not match the dimension of collection dim2 (2).");
    expect((await api("DELETE", "/collections/dim2")).status).toBe(202);
  });
});

describe("index and collection names in paths", () => {
  it("404s unknown indexes and collections with the service's messages", async () => {
    await refused("GET", "/indexes/ghost", undefined, 404, "NOT_FOUND", "Index ghost not found.");
    await refused("DELETE", "/indexes/ghost", undefined, 404, "NOT_FOUND", "Index ghost not found.");
    await refused("PATCH", "/indexes/ghost", { deletion_protection: "enabled" }, 404, "NOT_FOUND", "Index ghost not found.");
    await refused("GET", "/collections/ghost", undefined, 404, "NOT_FOUND", "Collection ghost not found.");
    await refused("DELETE", "/collections/ghost", undefined, 404, "NOT_FOUND", "Collection ghost not found.");
  });

  it("refuses to delete an index with deletion protection (403) until it is disabled", async () => {
    expect((await api("POST", "/indexes", { name: "guarded", dimension: 2, spec: slSpec, deletion_protection: "enabled" })).status).toBe(201);
    await refused("DELETE", "/indexes/guarded", undefined, 403, "FORBIDDEN", "Deletion protection is enabled for this index. Disable deletion protection before retrying.");
    const patched = await api("PATCH", "/indexes/guarded", { deletion_protection: "disabled" });
    expect(patched.status).toBe(202);
    expect(patched.body).toMatchObject({ name: "guarded", deletion_protection: "disabled" });
    expect((await api("DELETE", "/indexes/guarded")).status).toBe(202);
    expect((await api("GET", "/indexes/guarded")).status).toBe(404);
  });

  it("refuses (412) to delete an index with a pending collection, or a collection an index is being created from", async () => {
    // 20,000 records make each copy take many commits, so the DELETE sent right after the 201 arrives mid-copy.
    const created = await api("POST", "/indexes", { name: "busy", dimension: 16, spec: podSpec });
    const host = (created.body as { host: string }).host;
    for (let b = 0; b < 20; b++) {
      const vectors = Array.from({ length: 1000 }, (_, i) => ({ id: `r${b}-${i}`, values: Array.from({ length: 16 }, (_, k) => (i + k) / 7) }));
      expect((await call(`http://${host}/vectors/upsert`, { method: "POST", apiKey: svc.apiKey, body: { vectors } })).status).toBe(200);
    }
    expect((await api("POST", "/collections", { name: "busy-snap", source: "busy" })).status).toBe(201);
    // (The copy's progress changes the records meanwhile, so "nothing changed" is checked by name here.)
    const deleteIndex = await api("DELETE", "/indexes/busy");
    expect({ status: deleteIndex.status, body: deleteIndex.body }).toEqual({
      status: 412,
      body: controlError(412, "FAILED_PRECONDITION", "Unable to delete an index. There are pending collections for this index: ['busy-snap']"),
    });
    expect((await api("GET", "/indexes/busy")).status).toBe(200);
    expect((await waitReady(api, "/collections/busy-snap")).vector_count).toBe(20000);

    const restoring = await api("POST", "/indexes", { name: "busy-copy", dimension: 16, spec: { pod: { ...podSpec.pod, source_collection: "busy-snap" } } });
    expect(restoring.status).toBe(201);
    expect(restoring.body).toMatchObject({ status: { ready: false, state: "Initializing" } });
    const early = await call(`http://${(restoring.body as { host: string }).host}/describe_index_stats`, { method: "POST", apiKey: svc.apiKey, body: {} });
    expect({ status: early.status, body: early.body }).toEqual({
      status: 503,
      body: { code: 14, message: "Index busy-copy is not ready yet (state Initializing); retry shortly.", details: [] },
    });
    const deleteCollection = await api("DELETE", "/collections/busy-snap");
    expect({ status: deleteCollection.status, body: deleteCollection.body }).toEqual({
      status: 412,
      body: controlError(412, "FAILED_PRECONDITION", "Unable to delete a collection. There are indexes being created from this collection: ['busy-copy']"),
    });
    expect((await api("GET", "/collections/busy-snap")).status).toBe(200);
    await waitReady(api, "/indexes/busy-copy");
    for (const path of ["/indexes/busy-copy", "/collections/busy-snap", "/indexes/busy"]) expect((await api("DELETE", path)).status).toBe(202);
  });

  it("refuses pod settings on a serverless index", async () => {
    await refused("PATCH", "/indexes/sl", { spec: { pod: { replicas: 2 } } }, 400, "INVALID_ARGUMENT", "spec.pod cannot be configured: index sl is serverless.");
  });

  it("refuses a path name that is not valid percent-encoding", async () => {
    await refused("GET", "/indexes/%E0%A4%A", undefined, 400, "INVALID_ARGUMENT", "The name in the path /indexes/%E0%A4%A is not valid percent-encoding.");
  });
});

describe("POST /collections rules", () => {
  it.each([
    [{ name: "Bad", source: "existing" }, 400, "INVALID_ARGUMENT", `Collection name "Bad" is invalid: name must consist only of lower case alphanumeric characters or '-'.`],
    [{ name: "c".repeat(46), source: "existing" }, 400, "INVALID_ARGUMENT", `Collection name "${"c".repeat(46)}" is invalid: name must be 1-45 characters long (got 46).`],
    [{ name: "end-", source: "existing" }, 400, "INVALID_ARGUMENT", `Collection name "end-" is invalid: name must start and end with an alphanumeric character.`],
    [{ name: "c" }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `source`"],
    [{ name: "c", source: "sl" }, 400, "INVALID_ARGUMENT", "Serverless indexes do not support collections: index sl is serverless. Collections can only be created from pod-based indexes."],
    [{ name: "c", source: "ghost" }, 404, "NOT_FOUND", "Index ghost not found."],
  ])("refuses %j with %i", async (body, status, code, message) => {
    await refused("POST", "/collections", body, status, code, message);
  });

  it("refuses a taken collection name with 409", async () => {
    expect((await api("POST", "/collections", { name: "taken", source: "existing" })).status).toBe(201);
    await waitReady(api, "/collections/taken");
    await refused("POST", "/collections", { name: "taken", source: "existing" }, 409, "ALREADY_EXISTS", "Collection taken already exists.");
    expect((await api("DELETE", "/collections/taken")).status).toBe(202);
  });
});

describe("malformed requests", () => {
  it("answers malformed JSON with 400 and a non-object body with 422", async () => {
    await refused("POST", "/indexes", '{"name": "x",', 400, "INVALID_ARGUMENT", /^Failed to parse the request body as JSON: Expected double-quoted property name in JSON at position 13/);
    await refused("POST", "/collections", "", 400, "INVALID_ARGUMENT", "Failed to parse the request body as JSON: Unexpected end of JSON input");
    await refused("POST", "/indexes", "[1,2]", 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: invalid type: array, expected a JSON object");
    await refused("POST", "/collections", "null", 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: invalid type: null, expected a JSON object");
  });

  it("answers unknown routes with 404 and wrong methods with 405", async () => {
    await refused("GET", "/nope", undefined, 404, "NOT_FOUND", "Unknown route: GET /nope");
    await refused("GET", "/indexes/a/b", undefined, 404, "NOT_FOUND", "Unknown route: GET /indexes/a/b");
    await refused("PUT", "/indexes", {}, 405, "UNIMPLEMENTED", "Method PUT is not allowed on /indexes; allowed: GET, POST.");
    await refused("POST", "/indexes/existing", {}, 405, "UNIMPLEMENTED", "Method POST is not allowed on /indexes/existing; allowed: GET, DELETE, PATCH.");
    await refused("PATCH", "/collections/x", {}, 405, "UNIMPLEMENTED", "Method PATCH is not allowed on /collections/x; allowed: GET, DELETE.");
    const answer = await api("PUT", "/collections", {});
    expect(answer.headers.get("allow")).toBe("GET, POST");
  });

  it("answers a control-plane body over 1 MiB with 413 without reading it all", async () => {
    await refused("POST", "/indexes", JSON.stringify({ name: "big", pad: "x".repeat(1024 * 1024) }), 413, "INVALID_ARGUMENT", "Request body is larger than the limit of 1048576 bytes.");
  });

  it("accepts any X-Pinecone-API-Version, or none", async () => {
    for (const version of ["2024-07", "2025-04", "2026-04", "not-a-version"]) {
      const answer = await api("GET", "/indexes/existing", undefined, { "X-Pinecone-API-Version": version });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ name: "existing", vector_type: "dense", deletion_protection: "disabled", tags: {} });
    }
    expect((await api("GET", "/indexes/existing")).status).toBe(200);
  });
});
