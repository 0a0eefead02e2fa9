// The reading tools end to end: the built server over stdio against the local service. Every structuredContent is
// checked against the tool's outputSchema by the session (test/helpers/mcp-client.ts); texts are checked exactly.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { api, createIndex, pod, serverless } from "./support.js";

let svc: RunningService;
let mcp: McpSession;
const host: Record<string, string> = {};
const BLURB = "z".repeat(60);

const table = (...lines: string[]) => lines.join("\n");

async function upsert(index: string, namespace: string | undefined, vectors: Record<string, unknown>[]) {
  const r = await mcp.call("upsert_vectors", { index, ...(namespace !== undefined && { namespace }), vectors });
  if (r.isError) throw new Error(`seeding ${index}: ${r.text}`);
}

async function untilReady(index: string) {
  for (let i = 0; i < 200; i++) {
    if ((await api(svc, "GET", `/indexes/${index}`)).body?.status?.ready) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${index} never became ready`);
}

beforeAll(async () => {
  svc = await startServiceProcess();
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
  host.docs = (await createIndex(svc, { name: "docs", dimension: 4, metric: "cosine", spec: serverless })).host;
  host.pods = (await createIndex(svc, { name: "pods", dimension: 2, metric: "euclidean", spec: pod })).host;
  host.sparse = (await createIndex(svc, { name: "sparse", metric: "dotproduct", vector_type: "sparse", spec: serverless })).host;
  host.empty = (await createIndex(svc, { name: "empty", dimension: 3, metric: "dotproduct", spec: serverless })).host;
  await upsert("docs", "books", [
    { id: "a", values: [1, 0, 0, 0], metadata: { genre: "sf", year: 1965, tags: ["x", "y"], blurb: BLURB } },
    { id: "b", values: [0, 1, 0, 0], metadata: { genre: "drama", year: 2001 } },
    { id: "c", values: [1, 1, 0, 0] },
  ]);
  await upsert("docs", undefined, [{ id: "d1", values: [0, 0, 1, 0], metadata: { genre: "sf" } }]);
  await upsert("pods", undefined, [
    { id: "p1", values: [0, 0] },
    { id: "p2", values: [3, 4] },
  ]);
  await upsert("sparse", "kw", [
    { id: "s1", sparseValues: { indices: [1, 5], values: [1, 2] }, metadata: { kind: "k" } },
    { id: "s2", sparseValues: { indices: [5], values: [1] } },
  ]);
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
});

test("the six reading tools are listed, titled and annotated read-only", () => {
  const reading = ["describe_index", "describe_index_stats", "query_vectors", "fetch_vectors", "list_vector_ids", "describe_collection"];
  const listed = mcp.tools.filter((t) => reading.includes(t.name));
  expect(listed.map((t) => t.name)).toEqual(reading);
  for (const t of listed) {
    expect(t.title, t.name).toBeTruthy();
    expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(t.outputSchema, t.name).toBeDefined();
    expect(JSON.stringify(t.inputSchema), t.name).not.toMatch(/anyOf|oneOf|allOf/);
  }
  const limits = (tool: string, field: string) => (mcp.tools.find((t) => t.name === tool)!.inputSchema.properties as any)[field];
  expect(limits("query_vectors", "topK")).toMatchObject({ minimum: 1, maximum: 10000 });
  expect(limits("fetch_vectors", "ids")).toMatchObject({ minItems: 1, maxItems: 1000 });
  expect(limits("list_vector_ids", "limit")).toMatchObject({ minimum: 1, maximum: 100 });
});

describe("describe_index", () => {
  test("a serverless index: every field of the record", async () => {
    const r = await mcp.call("describe_index", { index: "docs" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      table(
        'Index "docs":',
        "",
        "| field | value |",
        "| --- | --- |",
        "| name | docs |",
        "| kind | serverless |",
        "| dimension | 4 |",
        "| metric | cosine |",
        "| vector type | dense |",
        "| state | Ready (ready) |",
        `| host | ${host.docs} |`,
        "| serverless.cloud | aws |",
        "| serverless.region | us-east-1 |",
        '| serverless.read_capacity | {"mode":"OnDemand","status":{"state":"Ready"}} |',
        "| deletion protection | disabled |",
        "| tags | none |",
      ),
    );
    expect(r.structured).toEqual({
      index: {
        name: "docs",
        kind: "serverless",
        dimension: 4,
        metric: "cosine",
        vector_type: "dense",
        host: host.docs,
        state: "Ready",
        ready: true,
        deletion_protection: "disabled",
        tags: {},
        spec: { serverless: { cloud: "aws", region: "us-east-1", read_capacity: { mode: "OnDemand", status: { state: "Ready" } } } },
      },
    });
  });

  test("a pod-based index with tags and deletion protection", async () => {
    const res = await api(svc, "PATCH", "/indexes/pods", { deletion_protection: "enabled", tags: { team: "search", env: "dev" } });
    expect(res.status).toBe(202);
    await untilReady("pods");
    const r = await mcp.call("describe_index", { index: "pods" });
    expect(r.text).toBe(
      table(
        'Index "pods":',
        "",
        "| field | value |",
        "| --- | --- |",
        "| name | pods |",
        "| kind | pod |",
        "| dimension | 2 |",
        "| metric | euclidean |",
        "| vector type | dense |",
        "| state | Ready (ready) |",
        `| host | ${host.pods} |`,
        "| pod.environment | us-east1-gcp |",
        "| pod.pod_type | p1.x1 |",
        "| pod.pods | 1 |",
        "| pod.replicas | 1 |",
        "| pod.shards | 1 |",
        "| deletion protection | enabled |",
        "| tags | team=search, env=dev |",
      ),
    );
    expect(r.structured).toMatchObject({
      index: { kind: "pod", deletion_protection: "enabled", tags: { team: "search", env: "dev" }, spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x1", pods: 1, replicas: 1, shards: 1 } } },
    });
    await api(svc, "PATCH", "/indexes/pods", { deletion_protection: "disabled" });
    await untilReady("pods");
  });

  test("a sparse index has no dimension", async () => {
    const r = await mcp.call("describe_index", { index: "sparse" });
    expect(r.text).toContain("| dimension | none (sparse) |\n| metric | dotproduct |\n| vector type | sparse |");
    expect((r.structured as any).index.dimension).toBeUndefined();
  });

  test("an unknown index: 404 and the next step", async () => {
    const r = await mcp.call("describe_index", { index: "nope" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "describe_index failed — the service answered HTTP 404 NOT_FOUND: Index nope not found.\n" +
        "Next step: Call list_indexes to see the indexes there are, then call again with one of those names.",
    );
  });
});
