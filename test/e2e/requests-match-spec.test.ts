// Every request the tools send validates against the published specs of the API version they speak: route and method,
// path, query and header parameters (types, patterns, enums, bounds, no undeclared query parameter), the version
// header, and the JSON or NDJSON body — for a server speaking 2026-04 (against the 2026-04 files) and one speaking
// 2026-07 (against the 2026-07 files, with the backup schedule and alias tools), bulk imports, import_vectors and
// collections under both. The requests are what the built
// server really sent, recorded in its process by test/helpers/request-recorder.mjs; the service is the local one.
// Skipped, saying why, when ../shared/api-spec is absent.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startLocalService, type LocalService } from "../../src/local/index.js";
import { specsAvailable, specsMissingReason, validateRequest, type SentRequest, type SpecFile } from "../helpers/api-spec.js";
import { newDataDir, repoRoot } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { until } from "../helpers/until.js";
import { writeParquet } from "../ingest/sources/fixtures.js";

const KEY = "requests-match-spec-key";
const RECORDER = resolve(repoRoot, "test/helpers/request-recorder.mjs");
const SPECS: Record<string, SpecFile[]> = {
  "2026-04": ["db_control_2026-04.oas.yaml", "db_data_2026-04.oas.yaml", "inference_2026-04.oas.yaml"],
  "2026-07": ["db_control_2026-07.oas.yaml", "db_data_2026-07.oas.yaml", "inference_2026-07.oas.yaml"],
};

let svc: LocalService;
let dataDir: string;
let logDir: string;
/** Files to import: a bulk import directory per version (one namespace, Parquet) and a JSONL file for import_vectors. */
let importDir: string;

beforeAll(async () => {
  dataDir = newDataDir();
  logDir = mkdtempSync(join(tmpdir(), "vecdb-requests-"));
  importDir = mkdtempSync(join(tmpdir(), "vecdb-requests-imports-"));
  for (const version of Object.keys(SPECS)) {
    mkdirSync(join(importDir, version, "imported"), { recursive: true });
    writeParquet(join(importDir, version, "imported", "part-0.parquet"), Array.from({ length: 20 }, (_, i) => ({ id: `b${i}`, values: [i, 1, 0] })));
  }
  writeFileSync(join(importDir, "vectors.jsonl"), ["j1", "j2", "j3"].map((id, i) => JSON.stringify({ id, values: [i, 0, 1], metadata: { genre: "x" } })).join("\n") + "\n");
  svc = await startLocalService({ dataDir, apiKey: KEY, log: () => undefined, allowDirs: [importDir] });
});
afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
  rmSync(importDir, { recursive: true, force: true });
});

/** A server speaking `version` whose every request is written to a log; the requests it sent. */
async function session(version: string): Promise<{ mcp: McpSession; sent: () => SentRequest[] }> {
  const log = join(logDir, `${version}.jsonl`);
  const mcp = await startMcp({
    env: { PINECONE_API_KEY: KEY, PINECONE_CONTROLLER_HOST: svc.controlUrl, PINECONE_API_VERSION: version, NODE_OPTIONS: `--import ${RECORDER}`, VECDB_TEST_REQUEST_LOG: log },
    args: ["--allow-destructive", "--allow-dir", importDir],
  });
  const sent = () =>
    readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as SentRequest)
      .filter((r) => !r.path.startsWith("/_vecdb/")); // the loopback identity proof, not part of the API
  return { mcp, sent };
}

async function ok(mcp: McpSession, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await mcp.call(tool, args, { timeoutMs: 60_000 });
  expect(r.isError, `${tool}: ${r.text}`).toBe(false);
  return r.structured ?? {};
}

/** The tools every version has, on indexes named with `p`. */
async function everyVersion(mcp: McpSession, p: string): Promise<void> {
  await ok(mcp, "list_indexes", {});
  await ok(mcp, "create_index", { name: `${p}-vec`, dimension: 3, metric: "dotproduct", tags: { team: "a" } });
  await ok(mcp, "describe_index", { index: `${p}-vec` });
  const vectors = [
    { id: "a1", values: [1, 0, 0], sparseValues: { indices: [1, 7], values: [0.5, 0.25] }, metadata: { genre: "x", year: 2020 } },
    { id: "a2", values: [0, 1, 0], metadata: { genre: "y", year: 2021 } },
    { id: "a3", values: [0, 0, 1], metadata: { genre: "x", tags: ["p", "q"] } },
  ];
  await ok(mcp, "upsert_vectors", { index: `${p}-vec`, namespace: "a", vectors });
  await ok(mcp, "query_vectors", { index: `${p}-vec`, namespace: "a", vector: [1, 0, 0], sparseVector: { indices: [1], values: [1] }, topK: 2, filter: { genre: { $eq: "x" } }, includeMetadata: true });
  await ok(mcp, "query_vectors", { index: `${p}-vec`, namespace: "a", id: "a2", topK: 2 });
  await ok(mcp, "fetch_vectors", { index: `${p}-vec`, namespace: "a", ids: ["a1", "zz"] });
  await ok(mcp, "list_vector_ids", { index: `${p}-vec`, namespace: "a", prefix: "a", limit: 2 });
  await ok(mcp, "fetch_by_metadata", { index: `${p}-vec`, namespace: "a", filter: { year: { $gte: 2020 } }, limit: 5 });
  await ok(mcp, "update_vectors", { index: `${p}-vec`, namespace: "a", id: "a2", setMetadata: { genre: "z" } });
  await ok(mcp, "describe_index_stats", { index: `${p}-vec` });
  await ok(mcp, "create_namespace", { index: `${p}-vec`, name: "b", filterableFields: ["genre"] });
  await ok(mcp, "list_namespaces", { index: `${p}-vec`, prefix: "a", limit: 10 });
  await ok(mcp, "describe_namespace", { index: `${p}-vec`, namespace: "a" });
  await ok(mcp, "configure_index", { index: `${p}-vec`, tags: { team: "b", env: "" }, deletionProtection: "enabled" });
  await ok(mcp, "configure_index", { index: `${p}-vec`, deletionProtection: "disabled" });
  const backup = (await ok(mcp, "create_backup", { index: `${p}-vec`, name: `${p}-first`, description: "before" })).backup as { backupId: string };
  await ok(mcp, "list_backups", { index: `${p}-vec`, limit: 5 });
  await ok(mcp, "list_backups", {});
  await until(async () => ((await ok(mcp, "describe_backup", { backupId: backup.backupId })).backup as { status: string }).status === "Ready", "the backup is Ready");
  const restored = await ok(mcp, "create_index_from_backup", { backupId: backup.backupId, name: `${p}-copy`, waitSeconds: 30 });
  await ok(mcp, "list_restore_jobs", { limit: 5 });
  await ok(mcp, "describe_restore_job", { restoreJobId: (restored.job as { restoreJobId: string }).restoreJobId });
  await ok(mcp, "create_index_for_model", { name: `${p}-txt`, embed: { model: "local-bm25", fieldMap: { text: "body" } } });
  await ok(mcp, "upsert_records", { index: `${p}-txt`, namespace: "notes", records: [{ _id: "n1", body: "the quick brown fox", kind: "animal" }, { _id: "n2", body: "slow green turtle" }] });
  await ok(mcp, "search_records", { index: `${p}-txt`, namespace: "notes", query: { text: "quick fox", topK: 2, filter: { kind: { $eq: "animal" } } }, fields: ["body"] });
  await ok(mcp, "list_models", {});
  await ok(mcp, "embed_texts", { model: "local-bm25", inputs: ["a fox"], inputType: "query" });
  await ok(mcp, "rerank_documents", { model: "local-bm25-rerank", query: "fox", documents: ["a fox", "a turtle"], topN: 1 });
  await ok(mcp, "delete_vectors", { index: `${p}-vec`, namespace: "a", ids: ["a3"] });
  await ok(mcp, "delete_namespace", { index: `${p}-vec`, namespace: "b" });
  await ok(mcp, "delete_backup", { backupId: backup.backupId });
  await ok(mcp, "delete_index", { index: `${p}-copy` });
}

/** Bulk imports and import_vectors into `index` (dimension 3), and collections of the pod-based index `pods`. */
async function importsAndCollections(mcp: McpSession, version: string, index: string, pods: string): Promise<void> {
  const started = await ok(mcp, "start_bulk_import", { index, uri: pathToFileURL(join(importDir, version)).href, errorMode: "continue" });
  const at = { index, id: started.id as string };
  await until(async () => ((await ok(mcp, "describe_bulk_import", at)).import as { status: string }).status === "Completed", "the bulk import is Completed");
  await ok(mcp, "list_bulk_imports", { index, limit: 5 });
  const late = await mcp.call("cancel_bulk_import", at, { timeoutMs: 60_000 }); // sent, and refused: it has ended
  expect(late.text).toContain("cannot be cancelled: it has already ended (status Completed)");
  await ok(mcp, "import_vectors", { index, namespace: "jsonl", path: join(importDir, "vectors.jsonl") });
  const collection = `${pods}-snap`;
  await ok(mcp, "create_collection", { name: collection, index: pods });
  await until(async () => ((await ok(mcp, "describe_collection", { collection })).collection as { status: string }).status === "Ready", "the collection is Ready");
  await ok(mcp, "list_collections", {});
  await ok(mcp, "delete_collection", { collection });
}

/** "POST /indexes/{index_name}/backup-schedules": the operations the requests reached. */
function operations(sent: SentRequest[]): Set<string> {
  const templates = (path: string) =>
    path
      .split("?")[0]
      .replace(/^\/indexes\/[^/]+/, "/indexes/{index_name}")
      .replace(/^\/(backups|restore-jobs|backup-schedules|collections)\/[^/]+/, "/$1/{id}")
      .replace(/^\/namespace-aliases\/[^/]+/, "/namespace-aliases/{alias_name}")
      .replace(/^\/bulk\/imports\/[^/]+/, "/bulk/imports/{id}")
      .replace(/^\/namespaces\/[^/]+/, "/namespaces/{namespace}")
      .replace(/^\/records\/namespaces\/[^/]+/, "/records/namespaces/{namespace}");
  return new Set(sent.map((r) => `${r.method} ${templates(r.path)}`));
}

const title = (version: string) => `every request of a server speaking ${version} matches the ${version} specs${specsAvailable ? "" : ` — skipped: ${specsMissingReason}`}`;

describe.skipIf(!specsAvailable)("requests match the published API specs", () => {
  test(title("2026-04"), async () => {
    const { mcp, sent } = await session("2026-04");
    try {
      await everyVersion(mcp, "old");
      await ok(mcp, "create_index", { name: "old-pod", dimension: 2, pod: { environment: "us-east1-gcp", podType: "p1.x1" } });
      await ok(mcp, "describe_index_stats", { index: "old-pod", filter: { genre: "x" } });
      await importsAndCollections(mcp, "2026-04", "old-vec", "old-pod");
    } finally {
      await mcp.close();
    }
    const requests = sent();
    expect(requests.map((r) => [`${r.method} ${r.path}`, validateRequest(SPECS["2026-04"], r)]).filter(([, p]) => p.length > 0)).toEqual([]);
    expect(operations(requests).size).toBeGreaterThanOrEqual(30);
  }, 120_000);

  test(title("2026-07"), async () => {
    const { mcp, sent } = await session("2026-07");
    try {
      await everyVersion(mcp, "new");
      const schedule = (await ok(mcp, "create_backup_schedule", { index: "new-vec", name: "nightly", frequency: "daily", retentionDays: 7 })).schedule as { scheduleId: string };
      const at = { index: "new-vec", scheduleId: schedule.scheduleId };
      await ok(mcp, "list_backup_schedules", { index: "new-vec", limit: 10 });
      await ok(mcp, "describe_backup_schedule", at);
      await ok(mcp, "update_backup_schedule", { ...at, frequency: "weekly", retentionDays: 14, enabled: false });
      await ok(mcp, "list_scheduled_backups", { ...at, limit: 10 });
      await ok(mcp, "delete_backup_schedule", at);
      await ok(mcp, "configure_index", { index: "new-vec", readCapacity: { mode: "Dedicated", nodeType: "b1", replicas: 1, shards: 1 } });
      await ok(mcp, "upsert_vectors", { index: "new-vec", vectors: [{ id: "d1", values: [1, 1, 1] }] });
      await ok(mcp, "create_namespace_alias", { index: "new-vec", alias: "live", target: "a" });
      await ok(mcp, "list_namespace_aliases", { index: "new-vec", prefix: "li", target: "a", limit: 10 });
      await ok(mcp, "describe_namespace_alias", { index: "new-vec", alias: "live" });
      await ok(mcp, "repoint_namespace_alias", { index: "new-vec", alias: "live", target: "" });
      await ok(mcp, "delete_namespace_alias", { index: "new-vec", alias: "live" });
      // 2026-07 makes no pod-based index; one made under 2026-04 still makes collections
      const pod = { name: "new-pod", dimension: 2, metric: "cosine", spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x1", pods: 1, replicas: 1, shards: 1 } } };
      const made = await fetch(`${svc.controlUrl}/indexes`, { method: "POST", headers: { "Api-Key": KEY, "content-type": "application/json", "X-Pinecone-Api-Version": "2026-04" }, body: JSON.stringify(pod) });
      expect(made.status).toBe(201);
      await importsAndCollections(mcp, "2026-07", "new-vec", "new-pod");
    } finally {
      await mcp.close();
    }
    const requests = sent();
    expect(requests.map((r) => [`${r.method} ${r.path}`, validateRequest(SPECS["2026-07"], r)]).filter(([, p]) => p.length > 0)).toEqual([]);
    const reached = operations(requests);
    for (const op of [
      "POST /indexes",
      "PATCH /indexes/{index_name}",
      "POST /indexes/{index_name}/backup-schedules",
      "GET /indexes/{index_name}/backup-schedules",
      "GET /backup-schedules/{id}",
      "PATCH /backup-schedules/{id}",
      "GET /backup-schedules/{id}/history",
      "DELETE /backup-schedules/{id}",
      "POST /namespace-aliases",
      "GET /namespace-aliases",
      "GET /namespace-aliases/{alias_name}",
      "PATCH /namespace-aliases/{alias_name}",
      "DELETE /namespace-aliases/{alias_name}",
      "POST /bulk/imports",
      "GET /bulk/imports",
      "GET /bulk/imports/{id}",
      "DELETE /bulk/imports/{id}",
      "POST /vectors/upsert",
      "POST /collections",
      "GET /collections",
      "GET /collections/{id}",
      "DELETE /collections/{id}",
    ]) {
      expect(reached, op).toContain(op);
    }
    const create = requests.find((r) => r.method === "POST" && r.path === "/indexes");
    expect(JSON.parse(create!.body!)).toEqual({
      name: "new-vec",
      deployment: { deployment_type: "managed", cloud: "aws", region: "us-east-1" },
      schema: { fields: { _values: { type: "dense_vector", dimension: 3, metric: "dotproduct" } } },
      tags: { team: "a" },
    });
  }, 120_000);

  test("the check does catch a request the spec does not allow", () => {
    const headers = { "x-pinecone-api-version": "2026-07", "content-type": "application/json" };
    const legacy = { name: "x", dimension: 3, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } };
    expect(validateRequest(SPECS["2026-07"], { method: "POST", path: "/indexes", headers, body: JSON.stringify(legacy) })).not.toEqual([]);
    expect(validateRequest(SPECS["2026-07"], { method: "POST", path: "/indexes", headers: { ...headers, "x-pinecone-api-version": "2026-04" }, body: JSON.stringify({ schema: { fields: { v: { type: "sparse_vector" } } } }) })).toEqual([
      "POST /indexes: header X-Pinecone-Api-Version is 2026-04, the spec is 2026-07",
    ]);
    expect(validateRequest(SPECS["2026-07"], { method: "GET", path: "/namespace-aliases?limit=500&colour=red", headers })).toEqual([
      "GET /namespace-aliases query limit must be <= 100",
      "GET /namespace-aliases: query parameter colour is not in the spec (/namespace-aliases)",
    ]);
    const patch = (readCapacity: unknown) => validateRequest(SPECS["2026-07"], { method: "PATCH", path: "/indexes/x", headers, body: JSON.stringify({ read_capacity: readCapacity }) });
    expect(patch({ mode: "Dedicated", dedicated: { node_type: "b1" } })).toEqual([]);
    expect(patch({ mode: "Dedicated" })).not.toEqual([]); // the branch is chosen by mode, as the service does
    expect(validateRequest(SPECS["2026-07"], { method: "PUT", path: "/indexes", headers })).toEqual(["PUT /indexes: no such operation in db_control_2026-07.oas.yaml, db_data_2026-07.oas.yaml, inference_2026-07.oas.yaml"]);
  });
});
