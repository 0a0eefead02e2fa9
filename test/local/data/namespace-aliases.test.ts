// Namespace aliases over real HTTP (API version 2026-07): create, list, describe, repoint, delete; reads through an
// alias served by its target and naming it; writes to an alias refused with the spec's codes and nothing written;
// aliases over names refused; kept across a restart.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalService, type LocalService } from "../../../src/local/index.js";
import { newDataDir } from "../../helpers/local-service.js";
import { specsAvailable, validateResponse } from "../../helpers/api-spec.js";
import { call, controlClient } from "../http.js";

const V7 = { "X-Pinecone-Api-Version": "2026-07" };
let dataDir: string;
let svc: LocalService;
let host: string;

const data = (method: string, path: string, body?: unknown, headers: Record<string, string> = V7) =>
  call(`http://${host}${path}`, { method, body, apiKey: "k", headers });
const info = (reason: string, metadata?: Record<string, string>) => [
  { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "pinecone.io", ...(metadata ? { metadata } : {}) },
];
const rpc = (code: number, message: string, details: unknown[]) => ({ code, message, details });

async function start(): Promise<void> {
  svc = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
  host = ((await controlClient(svc.controlUrl, "k")("GET", "/indexes/idx")).body as { host: string }).host;
}

beforeAll(async () => {
  dataDir = newDataDir();
  svc = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
  const api = controlClient(svc.controlUrl, "k");
  const created = await api("POST", "/indexes", { name: "idx", dimension: 2, metric: "dotproduct", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
  host = (created.body as { host: string }).host;
  for (const [ns, id] of [["v1", "a"], ["v2", "b"]]) {
    expect((await data("POST", "/vectors/upsert", { namespace: ns, vectors: [{ id, values: [1, 0] }] })).status).toBe(200);
  }
});

afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("namespace aliases", () => {
  it("need API version 2026-07", async () => {
    const answer = await data("GET", "/namespace-aliases", undefined, {});
    expect(answer).toMatchObject({
      status: 400,
      body: rpc(3, "Namespace aliases need API version 2026-07 or later: send the header X-Pinecone-Api-Version: 2026-07.", info("API_VERSION_TOO_OLD")),
    });
  });

  it("are created, described and listed", async () => {
    const created = await data("POST", "/namespace-aliases", { name: "current", target_namespace: "v1" });
    expect(created.status).toBe(200);
    if (specsAvailable) expect(validateResponse("db_data_2026-07.oas.yaml", "/namespace-aliases", "post", 200, created.body)).toEqual([]);
    const body = created.body as { created_at: string; updated_at: string };
    expect(created.body).toEqual({ name: "current", target_namespace: "v1", created_at: body.created_at, updated_at: body.created_at });
    expect((await data("GET", "/namespace-aliases/current")).body).toEqual(created.body);
    expect((await data("POST", "/namespace-aliases", { name: "default", target_namespace: "__default__" })).status).toBe(400);
    const listed = await data("GET", "/namespace-aliases");
    if (specsAvailable) expect(validateResponse("db_data_2026-07.oas.yaml", "/namespace-aliases", "get", 200, listed.body)).toEqual([]);
    expect(listed.body).toEqual({ namespace_aliases: [created.body], total_count: 1 });
    expect((await data("GET", "/namespace-aliases?target_namespace=v2")).body).toEqual({ namespace_aliases: [], total_count: 0 });
  });

  it("serve reads from the target and name it", async () => {
    const query = await data("POST", "/query", { namespace: "current", topK: 5, vector: [1, 0] });
    expect(query.body).toMatchObject({ namespace: "v1", matches: [{ id: "a" }] });
    const fetched = await data("GET", "/vectors/fetch?ids=a&namespace=current");
    expect(fetched.body).toMatchObject({ namespace: "v1", vectors: { a: { id: "a" } } });
    const listed = await data("GET", "/vectors/list?namespace=current");
    expect(listed.body).toMatchObject({ namespace: "v1", vectors: [{ id: "a" }] });
  });

  it("refuse writes with the spec's codes, and nothing is written", async () => {
    const target = { target_namespace: "v1" };
    expect(await data("POST", "/vectors/upsert", { namespace: "current", vectors: [{ id: "x", values: [0, 1] }] })).toMatchObject({
      status: 409,
      body: rpc(6, "'current' is the name of a namespace alias (of 'v1'); write to the namespace itself.", info("NAME_IN_USE_BY_ALIAS", target)),
    });
    expect(await data("POST", "/vectors/delete", { namespace: "current", ids: ["a"] })).toMatchObject({
      status: 400,
      body: rpc(3, "'current' is a namespace alias (of 'v1'); writes must name the namespace itself.", info("WRITE_TO_ALIAS", target)),
    });
    expect((await data("POST", "/vectors/update", { namespace: "current", id: "a", values: [0, 1] })).status).toBe(400);
    expect((await data("POST", "/namespaces", { name: "current" })).status).toBe(409);
    expect(await data("GET", "/namespaces/current")).toMatchObject({
      status: 400,
      body: rpc(3, "'current' is a namespace alias, not a namespace; describe or delete it with /namespace-aliases/current.", info("NAMESPACE_OPERATION_ON_ALIAS")),
    });
    expect(await data("DELETE", "/namespaces/v1")).toMatchObject({
      status: 400,
      body: rpc(3, "Namespace 'v1' is the target of the aliases 'current'; repoint or delete them before deleting it.", info("NAMESPACE_TARGETED_BY_ALIAS")),
    });
    const stats = (await data("POST", "/describe_index_stats", {})).body as { namespaces: Record<string, unknown>; totalVectorCount: number };
    expect(Object.keys(stats.namespaces).sort()).toEqual(["v1", "v2"]);
    expect(stats.totalVectorCount).toBe(2);
    expect((await data("GET", "/vectors/fetch?ids=a&namespace=v1")).body).toMatchObject({ vectors: { a: { values: [1, 0] } } });
  });

  it.each([
    [{ name: "v2", target_namespace: "v1" }, 409, 6, "'v2' is the name of a namespace; an alias cannot take it.", info("NAME_IN_USE_BY_NAMESPACE")],
    [{ name: "current", target_namespace: "v2" }, 409, 6, "Alias 'current' already exists (it resolves to 'v1').", info("ALIAS_ALREADY_EXISTS", { target_namespace: "v1" })],
    [{ name: "next", target_namespace: "v3" }, 400, 3, "target_namespace 'v3' is not a namespace of index idx.", info("TARGET_NAMESPACE_NOT_FOUND")],
    [{ name: "next", target_namespace: "current" }, 400, 3, "target_namespace 'current' is an alias; an alias must resolve to a namespace.", info("TARGET_IS_ALIAS")],
    [{ name: "next" }, 400, 3, "target_namespace is required: the namespace the alias resolves to.", info("TARGET_NAMESPACE_REQUIRED")],
    [
      { name: "a/b", target_namespace: "v1" },
      400,
      3,
      "Alias name 'a/b' is invalid: it must be 1-512 characters of printable ASCII without space or / ? # % & = \\ ; +, and not __default__, . or ..",
      info("ALIAS_NAME_INVALID"),
    ],
  ])("refuses to create %j", async (body, status, code, message, details) => {
    expect(await data("POST", "/namespace-aliases", body)).toMatchObject({ status, body: rpc(code, message, details) });
    expect(((await data("GET", "/namespace-aliases")).body as { total_count: number }).total_count).toBe(1);
  });

  it("serve a records search through an alias from its target, and 2026-07 names it", async () => {
    const api = controlClient(svc.controlUrl, "k");
    const made = await api("POST", "/indexes/create-for-model", { name: "notes", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "body" } } });
    const notes = `http://${(made.body as { host: string }).host}`;
    const upsert = await call(`${notes}/records/namespaces/journal/upsert`, {
      method: "POST",
      apiKey: "k",
      body: '{"_id":"n1","body":"fog over the lighthouse"}\n{"_id":"n2","body":"sunny harbour"}\n',
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(upsert.status).toBe(201);
    const alias = await call(`${notes}/namespace-aliases`, { method: "POST", apiKey: "k", body: { name: "latest", target_namespace: "journal" }, headers: V7 });
    expect(alias.status).toBe(200);
    const search = await call(`${notes}/records/namespaces/latest/search`, { method: "POST", apiKey: "k", body: { query: { top_k: 1, inputs: { text: "lighthouse" } } }, headers: V7 });
    if (specsAvailable) expect(validateResponse("db_data_2026-07.oas.yaml", "/records/namespaces/{namespace}/search", "post", 200, search.body)).toEqual([]);
    expect(search.body).toMatchObject({ namespace: "journal", result: { hits: [{ _id: "n1" }] } });
    const refused = await call(`${notes}/records/namespaces/latest/upsert`, {
      method: "POST",
      apiKey: "k",
      body: '{"_id":"n3","body":"x"}\n',
      headers: { ...V7, "content-type": "application/x-ndjson" },
    });
    expect(refused.status).toBe(409);
  });

  it("are repointed (reads follow at once) and kept across a restart", async () => {
    const before = (await data("GET", "/namespace-aliases/current")).body as { updated_at: string; created_at: string };
    const repointed = await data("PATCH", "/namespace-aliases/current", { target_namespace: "v2" });
    expect(repointed.body).toMatchObject({ name: "current", target_namespace: "v2", created_at: before.created_at });
    expect((repointed.body as { updated_at: string }).updated_at >= before.updated_at).toBe(true);
    expect((await data("POST", "/query", { namespace: "current", topK: 5, vector: [1, 0] })).body).toMatchObject({ namespace: "v2", matches: [{ id: "b" }] });
    await svc.close();
    await start();
    expect((await data("GET", "/namespace-aliases/current")).body).toEqual(repointed.body);
    expect((await data("POST", "/query", { namespace: "current", topK: 5, vector: [1, 0] })).body).toMatchObject({ namespace: "v2", matches: [{ id: "b" }] });
  });

  it("are deleted (404 after), leaving the target's data", async () => {
    expect(await data("DELETE", "/namespace-aliases/current")).toMatchObject({ status: 200, body: {} });
    expect((await data("GET", "/namespace-aliases/current")).status).toBe(404);
    expect((await data("DELETE", "/namespace-aliases/current")).status).toBe(404);
    expect((await data("GET", "/vectors/fetch?ids=b&namespace=v2")).body).toMatchObject({ vectors: { b: { id: "b" } } });
    expect((await data("DELETE", "/namespaces/v1")).status).toBe(200);
  });
});
