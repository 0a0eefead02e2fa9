// What API version 2026-07 changes on the control plane besides index shapes: configure answers 200 and takes
// deployment / schema / read_capacity, create_backup answers 200 and backups carry the schema, a missing key is a
// plain-text 401 (inference keeps its JSON one), list limits default to 100.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalService, type LocalService } from "../../../src/local/index.js";
import { newDataDir } from "../../helpers/local-service.js";
import { specsAvailable, validateResponse } from "../../helpers/api-spec.js";
import { call, controlClient, controlError, waitReady } from "../http.js";

const V7 = { "X-Pinecone-Api-Version": "2026-07" };
let dataDir: string;
let svc: LocalService;
let api: ReturnType<typeof controlClient>;
const v7 = (method: string, path: string, body?: unknown) => api(method, path, body, V7);

beforeAll(async () => {
  dataDir = newDataDir();
  svc = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
  api = controlClient(svc.controlUrl, "k");
  expect((await v7("POST", "/indexes", { name: "docs", schema: { fields: { body: { type: "string", full_text_search: {} } } } })).status).toBe(201);
  expect((await api("POST", "/indexes", { name: "pods", dimension: 2, spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x1" } } })).status).toBe(201);
});

afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("configure under 2026-07", () => {
  it("answers 200 with the 2026-07 model; 2026-04 still answers 202", async () => {
    const answer = await v7("PATCH", "/indexes/docs", { tags: { env: "dev" }, deletion_protection: "enabled" });
    expect(answer.status).toBe(200);
    if (specsAvailable) expect(validateResponse("db_control_2026-07.oas.yaml", "/indexes/{index_name}", "patch", 200, answer.body)).toEqual([]);
    expect(answer.body).toMatchObject({ name: "docs", tags: { env: "dev" }, deletion_protection: "enabled" });
    expect((await api("PATCH", "/indexes/docs", { deletion_protection: "disabled" })).status).toBe(202);
  });

  it("scales a pod index through deployment, and moves read capacity to Dedicated and back", async () => {
    expect((await v7("PATCH", "/indexes/pods", { deployment: { replicas: 3, pod_type: "p1.x2" } })).body).toMatchObject({
      deployment: { deployment_type: "pod", replicas: 3, pod_type: "p1.x2" },
    });
    const dedicated = await v7("PATCH", "/indexes/docs", {
      read_capacity: { mode: "Dedicated", dedicated: { node_type: "t1", scaling: "Manual", manual: { replicas: 2, shards: 1 } } },
    });
    expect((dedicated.body as { read_capacity: unknown }).read_capacity).toEqual({
      mode: "Dedicated",
      dedicated: { node_type: "t1", scaling: "Manual", manual: { replicas: 2, shards: 1 } },
      status: { state: "Ready", current_replicas: 2, current_shards: 1 },
    });
    const more = await v7("PATCH", "/indexes/docs", { read_capacity: { mode: "Dedicated", dedicated: { scaling: "Manual", manual: { replicas: 4 } } } });
    expect((more.body as { read_capacity: { dedicated: unknown } }).read_capacity.dedicated).toEqual({ node_type: "t1", scaling: "Manual", manual: { replicas: 4, shards: 1 } });
    const back = await v7("PATCH", "/indexes/docs", { read_capacity: { mode: "OnDemand" } });
    expect((back.body as { read_capacity: unknown }).read_capacity).toEqual({ mode: "OnDemand", status: { state: "Ready" } });
  });

  it.each([
    [{ spec: { pod: { replicas: 2 } } }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: unknown field `spec`, expected one of `deployment`, `schema`, `read_capacity`, `tags`, `deletion_protection`"],
    [{ read_capacity: { mode: "Dedicated", dedicated: { node_type: "b1" } } }, 400, "INVALID_ARGUMENT", "read_capacity: index docs has OnDemand read capacity; moving it to Dedicated needs dedicated.node_type, dedicated.scaling (Manual) and dedicated.manual.replicas and shards."],
    [{ read_capacity: { mode: "Dedicated", dedicated: { manual: { replicas: 1 } } } }, 400, "INVALID_ARGUMENT", "read_capacity.dedicated.scaling and read_capacity.dedicated.manual go together: send scaling: Manual with manual, or neither."],
    [{ schema: { fields: { body: { type: "string" } } } }, 400, "INVALID_ARGUMENT", 'schema.fields.body.type must be semantic_text: only semantic_text fields can be updated after creation (got "string").'],
  ])("refuses %j", async (body, status, code, message) => {
    const before = (await v7("GET", "/indexes/docs")).body;
    const answer = await v7("PATCH", "/indexes/docs", body);
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body: controlError(status, code, message) });
    expect((await v7("GET", "/indexes/docs")).body).toEqual(before);
  });
});

describe("backups under 2026-07", () => {
  it("create_backup answers 200 and the backup describes the index by its schema; a restore is a document index again", async () => {
    const created = await v7("POST", "/indexes/docs/backups", { name: "nightly" });
    expect(created.status).toBe(200);
    if (specsAvailable) expect(validateResponse("db_control_2026-07.oas.yaml", "/indexes/{index_name}/backups", "post", 200, created.body)).toEqual([]);
    const id = (created.body as { backup_id: string }).backup_id;
    expect(created.body).toMatchObject({ name: "nightly", schema: { fields: { body: { type: "string", full_text_search: { language: "en" } } } } });
    expect(created.body).not.toHaveProperty("dimension");
    await waitReady(api, `/backups/${id}`);
    const dedicated = { mode: "Dedicated", dedicated: { node_type: "b1", scaling: "Manual", manual: { replicas: 1, shards: 2 } } };
    expect((await api("POST", `/backups/${id}/create-index`, { name: "restored", read_capacity: dedicated })).status).toBe(202);
    const restored = await waitReady(api, "/indexes/restored");
    expect(restored).toMatchObject({ name: "restored", spec: { serverless: { read_capacity: { ...dedicated, status: { state: "Ready", current_replicas: 1, current_shards: 2 } } } } });
    expect((await v7("GET", "/indexes/restored")).body).toMatchObject({ source_backup_id: id });
    expect(((await v7("GET", "/indexes/restored")).body as { schema: unknown }).schema).toEqual(((await v7("GET", "/indexes/docs")).body as { schema: unknown }).schema);
    expect((await api("POST", "/indexes/docs/backups", {})).status).toBe(201);
  });

  it("lists 100 backups to a page by default (10 before)", async () => {
    for (let i = 0; i < 11; i++) expect((await api("POST", "/indexes/docs/backups", { name: `b${i}` })).status).toBe(201);
    expect(((await v7("GET", "/backups")).body as { data: unknown[] }).data.length).toBe(13);
    expect(((await api("GET", "/backups")).body as { data: unknown[] }).data.length).toBe(10);
    const bad = await v7("GET", "/backups?paginationToken=%%%");
    expect(bad.status).toBe(400);
  });
});

describe("401 under 2026-07", () => {
  it("is plain text on the control and data planes, JSON for inference and for 2026-04", async () => {
    const control = await call(`${svc.controlUrl}/indexes`, { apiKey: "wrong", headers: V7 });
    expect({ status: control.status, type: control.headers.get("content-type"), body: control.body }).toEqual({ status: 401, type: "text/plain", body: "Invalid API key" });
    const host = ((await v7("GET", "/indexes/docs")).body as { host: string }).host;
    const data = await call(`http://${host}/describe_index_stats`, { method: "POST", body: {}, apiKey: "wrong", headers: V7 });
    expect({ status: data.status, type: data.headers.get("content-type"), body: data.body }).toEqual({ status: 401, type: "text/plain", body: "Invalid API key" });
    const inference = await call(`${svc.controlUrl}/models`, { apiKey: "wrong", headers: V7 });
    expect(inference.body).toEqual(controlError(401, "UNAUTHENTICATED", "Invalid API Key"));
    expect((await call(`${svc.controlUrl}/indexes`, { apiKey: "wrong" })).body).toEqual(controlError(401, "UNAUTHENTICATED", "Invalid API Key"));
  });
});
