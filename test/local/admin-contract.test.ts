// Contract tests of the administration surface on the local service: the official client 8.2 drives
// configure, namespaces (create → 409 when it exists), backups and restore jobs, bulk imports from a file://
// directory; every answer is also validated against the published 2026-04 specs.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Pinecone, type Index } from "@pinecone-database/pinecone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasResponse, schemaValidator, specsAvailable, validateResponse, type SpecFile } from "../helpers/api-spec.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { writeParquet } from "../ingest/sources/fixtures.js";
import { call, controlClient, type Answer } from "./http.js";

const CONTROL: SpecFile = "db_control_2026-04.oas.yaml";
const DATA: SpecFile = "db_data_2026-04.oas.yaml";
const serverless = { serverless: { cloud: "aws" as const, region: "us-east-1" } };

let svc: RunningService;
let pc: Pinecone;
let api: ReturnType<typeof controlClient>;
let importRoot: string;

function valid(file: SpecFile, path: string, method: string, answer: Answer, status: number): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  if (!specsAvailable) return;
  if (hasResponse(file, path, method, status)) expect(validateResponse(file, path, method, status, answer.body)).toEqual([]);
  else {
    const validate = schemaValidator(file, file === DATA ? "rpcStatus" : "ErrorResponse");
    expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
  }
}

async function until<T>(get: () => Promise<T>, done: (t: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const t = await get();
    if (done(t)) return t;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} never happened`);
}

async function serverlessIndex(name: string, dimension = 3): Promise<{ index: Index; host: string }> {
  await pc.createIndex({ name, dimension, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } }, waitUntilReady: false });
  const model = await until(() => pc.describeIndex(name), (m) => m.status?.ready === true, `${name} ready`);
  return { index: pc.index({ name, host: `http://${model.host}` }), host: `http://${model.host}` };
}

beforeAll(async () => {
  importRoot = mkdtempSync(join(tmpdir(), "vecdb-imports-"));
  svc = await startServiceProcess({ allowDirs: [importRoot] });
  pc = new Pinecone({ apiKey: svc.apiKey, controllerHostUrl: svc.controlUrl });
  api = controlClient(svc.controlUrl, svc.apiKey);
});
afterAll(async () => {
  await svc?.stop();
  if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
  rmSync(importRoot, { recursive: true, force: true });
});

describe("configure_index", () => {
  it("deletion protection, tags (\"\" removes one), pod replicas; unknown fields and serverless specs refused", async () => {
    await pc.createIndex({ name: "conf", dimension: 3, spec: serverless, tags: { team: "a", env: "dev" }, waitUntilReady: true });
    const after = await pc.configureIndex({ name: "conf", deletionProtection: "enabled", tags: { env: "", owner: "me" } });
    expect(after).toMatchObject({ deletionProtection: "enabled", tags: { team: "a", owner: "me" } });
    expect(after.tags).not.toHaveProperty("env");
    await expect(pc.deleteIndex("conf")).rejects.toThrow(/Deletion protection is enabled/);
    valid(CONTROL, "/indexes/{index_name}", "patch", await api("PATCH", "/indexes/conf", { deletion_protection: "disabled" }), 202);
    const bad = await api("PATCH", "/indexes/conf", { replicas: 2 });
    valid(CONTROL, "/indexes/{index_name}", "patch", bad, 400);
    expect(bad.body).toEqual({ status: 400, error: { code: "INVALID_ARGUMENT", message: "replicas cannot be configured; the fields are deletion_protection, tags, spec, embed." } });
    const embed = await api("PATCH", "/indexes/conf", { embed: { field_map: { text: "body" } } });
    expect((embed.body as { error: { message: string } }).error.message).toBe(
      "embed cannot be configured: index conf was not created for an embedding model, and the local service cannot convert an existing index to integrated embedding.",
    );
  });
});

describe("namespaces", () => {
  it("create (201-shaped 200), list with the empty one, describe, 409 when it exists, delete", async () => {
    const { index, host } = await serverlessIndex("nsx");
    const created = await index.createNamespace({ name: "tenant-a", schema: { fields: { genre: { filterable: true } } } });
    expect(created).toEqual({ name: "tenant-a", recordCount: 0, schema: { fields: { genre: { filterable: true } } } });
    valid(DATA, "/namespaces", "post", await call(`${host}/namespaces`, { method: "POST", apiKey: svc.apiKey, body: { name: "tenant-b" } }), 200);
    const again = await call(`${host}/namespaces`, { method: "POST", apiKey: svc.apiKey, body: { name: "tenant-a" } });
    valid(DATA, "/namespaces", "post", again, 409);
    expect(again.body).toEqual({ code: 6, message: "Namespace 'tenant-a' already exists", details: [] });
    await expect(index.createNamespace({ name: "tenant-a" })).rejects.toThrow(/already exists/);
    await index.namespace("tenant-c").upsert({ records: [{ id: "x", values: [1, 2, 3] }] });
    const list = await index.listNamespaces();
    expect(list.namespaces?.map((n) => [n.name, n.recordCount])).toEqual([["tenant-a", 0], ["tenant-b", 0], ["tenant-c", 1]]);
    valid(DATA, "/namespaces", "get", await call(`${host}/namespaces`, { apiKey: svc.apiKey }), 200);
    expect(await index.describeNamespace("tenant-b")).toMatchObject({ name: "tenant-b", recordCount: 0 });
    valid(DATA, "/namespaces/{namespace}", "get", await call(`${host}/namespaces/tenant-b`, { apiKey: svc.apiKey }), 200);
    await index.deleteNamespace("tenant-b");
    valid(DATA, "/namespaces/{namespace}", "get", await call(`${host}/namespaces/tenant-b`, { apiKey: svc.apiKey }), 404);
    await expect(index.describeNamespace("tenant-b")).rejects.toMatchObject({ name: "PineconeNotFoundError" });
    const pods = await pc.createIndex({ name: "nspod", dimension: 3, spec: { pod: { environment: "us-east1-gcp", podType: "p1.x1", pods: 1 } }, waitUntilReady: true });
    const onPod = await call(`http://${pods!.host}/namespaces`, { method: "POST", apiKey: svc.apiKey, body: { name: "t" } });
    expect(onPod.body).toEqual({ code: 3, message: "Creating a namespace is not supported for pod-based indexes; a namespace is created by the first upsert into it", details: [] });
  });
});

describe("backups and restore jobs", () => {
  it("backup a serverless index, restore it into a new index with a job that completes; the backup outlives its index", async () => {
    const { index } = await serverlessIndex("src", 2);
    await index.namespace("n1").upsert({ records: [{ id: "a", values: [1, 0], metadata: { k: "v" } }, { id: "b", values: [0, 1] }] });
    await index.createNamespace({ name: "empty" });
    const backup = await pc.createBackup({ indexName: "src", name: "nightly", description: "before the change" });
    expect(backup).toMatchObject({ sourceIndexName: "src", name: "nightly", description: "before the change", cloud: "aws", region: "us-east-1", dimension: 2, metric: "cosine" });
    const ready = await until(() => pc.describeBackup(backup.backupId), (b) => b.status === "Ready", "backup ready");
    expect(ready).toMatchObject({ recordCount: 2, namespaceCount: 2 });
    valid(CONTROL, "/backups/{backup_id}", "get", await api("GET", `/backups/${backup.backupId}`), 200);
    valid(CONTROL, "/indexes/{index_name}/backups", "get", await api("GET", "/indexes/src/backups"), 200);
    valid(CONTROL, "/backups", "get", await api("GET", "/backups"), 200);
    expect((await pc.listBackups({ indexName: "src" })).data?.map((b) => b.backupId)).toEqual([backup.backupId]);

    await pc.deleteIndex("src");
    const restore = await pc.createIndexFromBackup({ backupId: backup.backupId, name: "restored", tags: { from: "nightly" } });
    const job = await until(() => pc.describeRestoreJob(restore.restoreJobId), (j) => j.status === "Completed", "restore completed");
    expect(job).toMatchObject({ backupId: backup.backupId, targetIndexName: "restored", targetIndexId: restore.indexId, percentComplete: 100 });
    valid(CONTROL, "/restore-jobs/{job_id}", "get", await api("GET", `/restore-jobs/${restore.restoreJobId}`), 200);
    valid(CONTROL, "/restore-jobs", "get", await api("GET", "/restore-jobs"), 200);
    const model = await until(() => pc.describeIndex("restored"), (m) => m.status?.ready === true, "restored ready");
    expect(model).toMatchObject({ dimension: 2, tags: { from: "nightly" } });
    const restored = pc.index({ name: "restored", host: `http://${model.host}` });
    expect(await restored.namespace("n1").fetch({ ids: ["a"] })).toMatchObject({ records: { a: { id: "a", values: [1, 0], metadata: { k: "v" } } } });
    expect((await restored.listNamespaces()).namespaces?.map((n) => n.name)).toEqual(["empty", "n1"]);

    const taken = await api("POST", `/backups/${backup.backupId}/create-index`, { name: "restored" });
    valid(CONTROL, "/backups/{backup_id}/create-index", "post", taken, 409);
    expect(taken.body).toEqual({ status: 409, error: { code: "ALREADY_EXISTS", message: "Index restored already exists." } });
    await pc.deleteBackup(backup.backupId);
    await expect(pc.describeBackup(backup.backupId)).rejects.toMatchObject({ name: "PineconeNotFoundError" });
  });

  it("create backup (201) and create index from backup (202) answers match the spec", async () => {
    await serverlessIndex("specb", 2);
    const made = await api("POST", "/indexes/specb/backups", { name: "b", description: "d" });
    valid(CONTROL, "/indexes/{index_name}/backups", "post", made, 201);
    const backupId = (made.body as { backup_id: string }).backup_id;
    await until(() => pc.describeBackup(backupId), (b) => b.status === "Ready", "backup ready");
    valid(CONTROL, "/backups/{backup_id}/create-index", "post", await api("POST", `/backups/${backupId}/create-index`, { name: "specb-copy" }), 202);
    const missing = await api("GET", "/backups/nope");
    valid(CONTROL, "/backups/{backup_id}", "get", missing, 404);
    expect(missing.body).toEqual({ status: 404, error: { code: "NOT_FOUND", message: "Backup nope not found." } });
  });

  it("a pod-based index cannot be backed up", async () => {
    await pc.createIndex({ name: "podb", dimension: 2, spec: { pod: { environment: "us-east1-gcp", podType: "p1.x1", pods: 1 } }, waitUntilReady: true });
    const answer = await api("POST", "/indexes/podb/backups", {});
    valid(CONTROL, "/indexes/{index_name}/backups", "post", answer, 400);
    expect(answer.body).toEqual({
      status: 400,
      error: { code: "INVALID_ARGUMENT", message: "Backups are only supported for serverless indexes: index podb is pod-based. Use a collection to snapshot a pod-based index." },
    });
  });
});

describe("bulk imports", () => {
  it("imports the Parquet layout of a file:// directory, with progress and the documented states", async () => {
    const dir = join(importRoot, "run1");
    mkdirSync(join(dir, "__default__"), { recursive: true });
    mkdirSync(join(dir, "docs"), { recursive: true });
    const rows = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `r${from + i}`, values: [from + i, 1, 0], metadata: JSON.stringify({ n: from + i }) }));
    writeParquet(join(dir, "__default__", "0.parquet"), rows(0, 1500));
    writeParquet(join(dir, "docs", "0.parquet"), rows(1500, 700));
    writeParquet(join(dir, "docs", "1.parquet"), [...rows(2200, 3), { id: "bad", values: [1, 2] as number[], metadata: null as never }]);
    const { index, host } = await serverlessIndex("imp");
    const started = await index.startImport({ uri: pathToFileURL(dir).href, errorMode: "continue" });
    const done = await until(() => index.describeImport(started.id!), (j) => j.status !== "Pending" && j.status !== "InProgress", "import done");
    expect(done).toMatchObject({ id: started.id, status: "Completed", percentComplete: 100, recordsImported: 2203 });
    expect(done.error).toBe(
      "1 record was skipped (errorMode onError: continue); the first: docs/1.parquet row 4 (id 'bad'): dimension 2 does not match the dimension of the index 3",
    );
    const stats = await index.describeIndexStats();
    expect(stats.namespaces).toEqual({ "": { recordCount: 1500 }, docs: { recordCount: 703 } });
    valid(DATA, "/bulk/imports/{id}", "get", await call(`${host}/bulk/imports/${started.id}`, { apiKey: svc.apiKey }), 200);
    valid(DATA, "/bulk/imports", "get", await call(`${host}/bulk/imports`, { apiKey: svc.apiKey }), 200);
    expect((await index.listImports()).data?.map((j) => j.id)).toEqual([started.id]);
    const cancelDone = await call(`${host}/bulk/imports/${started.id}`, { method: "DELETE", apiKey: svc.apiKey });
    valid(DATA, "/bulk/imports/{id}", "delete", cancelDone, 400);
    expect((cancelDone.body as { message: string }).message).toBe(`Import ${started.id} has already finished (status Completed); only a Pending or InProgress import can be cancelled`);
  });

  it("refuses other schemes, directories outside --allow-dir, integrations; abort mode fails naming the row", async () => {
    const { index, host } = await serverlessIndex("imp2");
    const s3 = await call(`${host}/bulk/imports`, { method: "POST", apiKey: svc.apiKey, body: { uri: "s3://bucket/dir" } });
    valid(DATA, "/bulk/imports", "post", s3, 400);
    expect((s3.body as { message: string }).message).toBe(
      "The local service imports only from file:// directories (a local extension of the API), not s3://; give file:///absolute/path/to/import-dir, under a directory the service was started with --allow-dir",
    );
    const outside = await call(`${host}/bulk/imports`, { method: "POST", apiKey: svc.apiKey, body: { uri: pathToFileURL(tmpdir()).href } });
    expect((outside.body as { message: string }).message).toMatch(/is not under a directory the local service may read/);
    await expect(index.startImport({ uri: pathToFileURL(importRoot).href, integration: "x" })).rejects.toThrow(/has no integrations/);

    const dir = join(importRoot, "run2");
    mkdirSync(join(dir, "ns"), { recursive: true });
    writeParquet(join(dir, "ns", "0.parquet"), [{ id: "ok", values: [1, 1, 1] }, { id: "", values: [1, 1, 1] }]);
    const started = await index.startImport({ uri: pathToFileURL(dir).href, errorMode: "abort" });
    const failed = await until(() => index.describeImport(started.id!), (j) => j.status === "Failed", "import failed");
    expect(failed.error).toBe("ns/0.parquet row 2: id must not be empty. 0 records were imported before (errorMode onError: abort)");
    expect((await index.describeIndexStats()).totalRecordCount).toBe(0);
  });
});
