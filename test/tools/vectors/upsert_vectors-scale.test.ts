// 1,000 records of dimension 1536 through the tool: several requests of ≤ 2 MB, every value on the service, and the
// index's host resolved once for many calls. Both planes go through counting proxies.
import { float32Double } from "../../../src/common/float32.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { createIndex, fetchVectors, indexStats, randomVector, serverless, startProxy, type Proxy } from "../../e2e/support.js";

const TWO_MB = 2 * 1024 * 1024;
let svc: RunningService;
let mcp: McpSession;
let control: Proxy;
let data: Proxy;
let realHost = "";
const bodySizes: number[] = [];

beforeAll(async () => {
  svc = await startServiceProcess();
  realHost = (await createIndex(svc, { name: "big", dimension: 1536, spec: serverless })).host;
  data = await startProxy({
    target: `http://${realHost}`,
    fault: (req) => {
      if (req.url === "/vectors/upsert") bodySizes.push(Number(req.headers["content-length"] ?? -1));
      return "pass";
    },
  });
  control = await startProxy({ target: svc.controlUrl, rewrite: (body) => body.split(realHost).join(data.host) });
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url, VECDB_LOG_LEVEL: "debug" } });
});
afterAll(async () => {
  await mcp?.close();
  await control?.close();
  await data?.close();
  await svc?.stop();
});

test("1,000 records of dimension 1536 land in several requests of at most 2 MB", async () => {
  const vectors = Array.from({ length: 1000 }, (_, i) => ({ id: `doc-${i}`, values: randomVector(1536, i + 1), metadata: { n: i } }));
  const r = await mcp.call("upsert_vectors", { index: "big", namespace: "scale", vectors }, { progress: true });
  expect(r.isError).toBe(false);
  const s = r.structured as Record<string, number>;
  expect(s).toMatchObject({ records: 1000, upserted: 1000, failed: 0 });
  expect(s).not.toHaveProperty("host"); // the batches went through the data proxy: bodySizes below counts them there
  expect(s.batches).toBeGreaterThanOrEqual(10);
  expect(bodySizes.length).toBe(s.batches);
  expect(Math.max(...bodySizes)).toBeLessThanOrEqual(TWO_MB);
  expect(bodySizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(TWO_MB); // the whole call would not fit in one request
  expect(r.progress.length).toBeGreaterThanOrEqual(s.batches - 1); // one per batch (see tools.test.ts on the last one)
  expect(r.progress.every((p) => p.total === 1000 && p.progress <= 1000)).toBe(true);

  const stats = await indexStats(svc, realHost);
  expect(stats.dimension).toBe(1536);
  expect(stats.namespaces.scale.vectorCount).toBe(1000);
  const sample = [0, 1, 99, 100, 101, 500, 998, 999];
  const got = await fetchVectors(svc, realHost, sample.map((i) => `doc-${i}`), "scale");
  for (const i of sample) {
    expect(got[`doc-${i}`].values).toEqual(randomVector(1536, i + 1).map(float32Double));
    expect(got[`doc-${i}`].metadata).toEqual({ n: i });
  }
});

test("ten more upserts to the same index cost no control-plane call: one in all", async () => {
  for (let i = 0; i < 10; i++) {
    const r = await mcp.call("upsert_vectors", { index: "big", namespace: "ten", vectors: [{ id: `t${i}`, values: randomVector(1536, 5000 + i) }] });
    expect(r.structured).toMatchObject({ upserted: 1, failed: 0 });
  }
  expect(control.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /indexes/big"]);
  expect((await indexStats(svc, realHost)).namespaces.ten.vectorCount).toBe(10);
});
