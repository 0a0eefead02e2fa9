// Contract tests: the official TypeScript client 9 (@pinecone-database/pinecone 9.0.0, which speaks API version
// 2026-07; installed beside 8.2 under the npm alias "pinecone9") drives the local service. The client declares
// Node ≥ 22 but loads and runs on Node 20: these tests run on the Node that runs the suite.
// The client adds https:// to a host without a scheme, so data-plane handles get an explicit "http://" host.
import { Pinecone } from "pinecone9";
import { describe, expect, it } from "vitest";
import { useServiceProcess } from "../helpers/local-service.js";
import { until } from "../helpers/until.js";
import { call } from "./http.js";

let pc: Pinecone;

const service = useServiceProcess((started) => {
  pc = new Pinecone({ apiKey: started.apiKey, controllerHostUrl: started.controlUrl });
});

describe("official client 9 against the local service: indexes", () => {
  it("creates a document index from a schema and describes it", async () => {
    const created = await pc.indexes.create({
      name: "articles",
      schema: {
        fields: {
          embedding: { type: "dense_vector", dimension: 4, metric: "cosine" },
          body: { type: "string", fullTextSearch: { language: "en", stemming: true } },
        },
      },
      tags: { team: "search" },
    });
    expect(created).toMatchObject({
      name: "articles",
      status: { ready: true, state: "Ready" },
      deployment: { deploymentType: "managed", cloud: "aws", region: "us-east-1" },
      deletionProtection: "disabled",
      tags: { team: "search" },
    });
    expect(created.schema.fields.embedding).toMatchObject({ type: "dense_vector", dimension: 4, metric: "cosine" });
    expect(created.schema.fields.body).toMatchObject({ type: "string", fullTextSearch: { language: "en", stemming: true, stopWords: false } });
    const described = await pc.indexes.describe("articles");
    expect(described.schema).toEqual(created.schema);
    expect(described.host).toMatch(/^127\.0\.0\.1:\d+$/);
    const listed = await pc.indexes.list();
    expect(listed.indexes?.map((i) => i.name)).toContain("articles");
  });

  it("creates a classic index with the legacy options (dimension, metric, spec) and reads them back", async () => {
    const created = await pc.indexes.create({ name: "classic", dimension: 3, metric: "dotproduct", spec: { serverless: { cloud: "aws", region: "us-east-1" } } } as never);
    expect(created.schema.fields).toMatchObject({ _values: { type: "dense_vector", dimension: 3, metric: "dotproduct" } });
  });

  it("configures tags and deletion protection (200) and deletes", async () => {
    const configured = await pc.indexes.configure("articles", { deletionProtection: "enabled", tags: { team: "" } });
    expect(configured.deletionProtection).toBe("enabled");
    await expect(pc.indexes.delete("articles")).rejects.toThrow(/Deletion protection is enabled/);
    await pc.indexes.configure("articles", { deletionProtection: "disabled" });
    await pc.indexes.delete("articles");
    await expect(pc.indexes.describe("articles")).rejects.toThrow(/returned HTTP status 404/);
  });
});

async function waitForBackup(id: string): Promise<void> {
  // The client's describe returns at once; the snapshot is taken in the background.
  await until(async () => (await pc.backups.describe(id)).status === "Ready", `backup ${id} to become Ready`);
}

describe("official client 9 against the local service: data, backups, schedules, aliases", () => {
  it("upserts, queries, fetches and describes namespaces of a classic index (record_count as a decimal string)", async () => {
    const model = await pc.indexes.create({ name: "vecs", schema: { fields: { _values: { type: "dense_vector", dimension: 2, metric: "dotproduct" } } } });
    const index = pc.index({ name: "vecs", host: `http://${model.host}` });
    await index.namespace("v1").upsert({ records: [{ id: "a", values: [1, 0], metadata: { kind: "x" } }, { id: "b", values: [0, 1] }] } as never);
    const found = await index.namespace("v1").query({ topK: 1, vector: [1, 0], includeMetadata: true });
    expect(found.matches.map((m) => [m.id, m.metadata])).toEqual([["a", { kind: "x" }]]);
    expect(found.namespace).toBe("v1");
    const fetched = await index.namespace("v1").fetch({ ids: ["b"] } as never);
    expect(Object.keys(fetched.records)).toEqual(["b"]);
    const described = await index.describeNamespace("v1");
    expect(described).toMatchObject({ name: "v1", recordCount: "2" });
    expect(described.sizeBytes).toMatch(/^[1-9]\d*$/);
  });

  it("reads through a namespace alias are served by its target; writes to it are refused", async () => {
    const host = (await pc.indexes.describe("vecs")).host;
    const made = await call(`http://${host}/namespace-aliases`, {
      method: "POST",
      body: { name: "current", target_namespace: "v1" },
      apiKey: service().apiKey,
      headers: { "X-Pinecone-Api-Version": "2026-07" },
    });
    expect(made.status).toBe(200);
    const index = pc.index({ name: "vecs", host: `http://${host}` }).namespace("current");
    // (the client reports the namespace it asked for; the service's answer names the target: namespace-aliases.test.ts)
    const found = await index.query({ topK: 2, vector: [1, 0] });
    expect(found.matches.map((m) => m.id)).toEqual(["a", "b"]);
    await expect(index.upsert({ records: [{ id: "c", values: [1, 1] }] } as never)).rejects.toThrow(/409|namespace alias/);
  });

  it("creates a backup (200), restores it, and runs a backup schedule's life cycle", async () => {
    const backup = await pc.backups.create("vecs", { name: "snap" } as never);
    expect(backup).toMatchObject({ name: "snap", sourceIndexName: "vecs" });
    await waitForBackup(backup.backupId);
    expect((await pc.backups.listByIndex("vecs")).data?.map((b) => b.backupId)).toEqual([backup.backupId]);
    const restore = await pc.backups.createIndex(backup.backupId, { name: "vecs-restored" } as never);
    expect(restore.restoreJobId).toEqual(expect.any(String));
    await until(async () => (await pc.restoreJobs.describe(restore.restoreJobId)).status === "Completed", "the restore job to complete");
    expect((await pc.indexes.describe("vecs-restored")).schema.fields._values).toMatchObject({ type: "dense_vector", dimension: 2, metric: "dotproduct" });
    const schedule = await pc.backupSchedules.create("vecs", { name: "nightly", frequency: "daily", retentionDays: 7 });
    expect(schedule).toMatchObject({ name: "nightly", frequency: "daily", retentionExpireAfterDays: 7, enabled: true, scheduleType: "time-based" });
    expect((await pc.backupSchedules.list("vecs")).data?.map((s) => s.scheduleId)).toEqual([schedule.scheduleId]);
    expect(await pc.backupSchedules.describe(schedule.scheduleId)).toEqual(schedule);
    await expect(pc.backupSchedules.create("vecs", { name: "again", frequency: "weekly", retentionDays: 7 })).rejects.toThrow(/already has an enabled backup schedule/);
    const paused = await pc.backupSchedules.update(schedule.scheduleId, { enabled: false, frequency: "weekly" });
    expect(paused).toMatchObject({ enabled: false, frequency: "weekly" });
    expect(paused.nextScheduledRun ?? null).toBeNull();
    expect((await pc.backupSchedules.history(schedule.scheduleId)).data).toEqual([]);
    await pc.backupSchedules.delete(schedule.scheduleId);
    await expect(pc.backupSchedules.describe(schedule.scheduleId)).rejects.toThrow(/404/);
  });

  it("creates an index for the local-bm25 model, described with a semantic_text field", async () => {
    const created = await pc.indexes.createForModel({ name: "notes", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "body" } } } as never);
    expect(created.schema.fields.body).toMatchObject({ type: "semantic_text", model: "local-bm25", metric: "dotproduct" });
  });
});
