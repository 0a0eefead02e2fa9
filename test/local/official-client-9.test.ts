// Contract tests: the official TypeScript client 9 (@pinecone-database/pinecone 9.0.0, which speaks API version
// 2026-07; installed beside 8.2 under the npm alias "pinecone9") drives the local service. The client declares
// Node ≥ 22 but loads and runs on Node 20: these tests run on the Node that runs the suite.
// The client adds https:// to a host without a scheme, so data-plane handles get an explicit "http://" host.
import { rmSync } from "node:fs";
import { Pinecone } from "pinecone9";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";

let svc: RunningService;
let pc: Pinecone;

beforeAll(async () => {
  svc = await startServiceProcess();
  pc = new Pinecone({ apiKey: svc.apiKey, controllerHostUrl: svc.controlUrl });
});

afterAll(async () => {
  await svc?.stop();
  if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
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
