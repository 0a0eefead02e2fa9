// A service that misbehaves: 429 with Retry-After, 503 and a dropped connection on the first attempts (every record
// lands in the end), and a service that stays down (the result is an error listing exactly the ids not written).
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { createIndex, type Fault, fetchVectors, indexStats, mcpThroughFaults, serverless } from "./support.js";

let svc: RunningService;
let realHost = "";
const records = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, values: [i, 1, 2, 3, 4, 5, 6, 7] }));

beforeAll(async () => {
  svc = await startServiceProcess();
  realHost = (await createIndex(svc, { name: "flaky", dimension: 8, spec: serverless })).host;
});
afterAll(async () => {
  await svc?.stop();
});

/** An MCP server whose view of index "flaky" goes through a data-plane proxy with the given faults. */
const throughFaults = (fault: (n: number) => Fault, env: Record<string, string> = {}) =>
  mcpThroughFaults(svc, realHost, (path) => path === "/vectors/upsert", fault, env);

test("429 + Retry-After, 503 and a dropped connection are retried until every record is written", async () => {
  const plan: Fault[] = [
    { status: 429, headers: { "Retry-After": "1" }, body: JSON.stringify({ code: 8, message: "Too many requests", details: [] }) },
    { status: 503, body: JSON.stringify({ code: 14, message: "Service unavailable", details: [] }) },
    "drop",
  ];
  const run = await throughFaults((n) => plan[n] ?? "pass");
  try {
    const vectors = records(300, "r");
    const r = await run.mcp.call("upsert_vectors", { index: "flaky", namespace: "retry", vectors });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ records: 300, batches: 3, upserted: 300, failed: 0, failedIds: [] });
    expect(r.structured!.seconds as number).toBeGreaterThanOrEqual(0.9); // Retry-After: 1 was honoured
    expect(run.data.requests.map((q) => q.status).slice(0, 3).sort()).toEqual([429, 503, "dropped"].sort());
    expect(run.data.requests.filter((q) => q.status === 200).length).toBe(3);
    expect((await indexStats(svc, realHost)).namespaces.retry.vectorCount).toBe(300);
    const got = await fetchVectors(svc, realHost, vectors.map((v) => v.id), "retry");
    expect(Object.keys(got).sort()).toEqual(vectors.map((v) => v.id).sort());
    expect(got.r7.values).toEqual([7, 1, 2, 3, 4, 5, 6, 7]);
  } finally {
    await run.close();
  }
});

test("a service that stays down: an error listing exactly the ids not written", async () => {
  const run = await throughFaults(() => ({ status: 503, body: JSON.stringify({ code: 14, message: "Service unavailable", details: [] }) }), { VECDB_RETRIES: "1" });
  try {
    const vectors = records(250, "down-");
    const r = await run.mcp.call("upsert_vectors", { index: "flaky", namespace: "down", vectors });
    expect(r.isError).toBe(true);
    const s = r.structured as { failedIds: string[]; upserted: number; failed: number };
    expect(s.upserted).toBe(0);
    expect(s.failed).toBe(250);
    expect(s.failedIds).toEqual(vectors.map((v) => v.id));
    expect(r.text).toMatch(/^250 of 250 records were NOT written \(0 were\)\./);
    expect(r.text).toContain("Why:\n- 250 records: \"HTTP 503: Service unavailable (POST http://");
    expect(s).toMatchObject({ failures: [{ records: 250, message: expect.stringMatching(/^HTTP 503: Service unavailable/) }] });
    expect(r.text).toContain(`Ids not written: ${vectors.map((v) => v.id).join(", ")}`);
    expect(r.text).toContain("Next step: call upsert_vectors again with just those records");
    expect((await indexStats(svc, realHost)).namespaces.down).toBeUndefined();
  } finally {
    await run.close();
  }
});

test("some batches land and some do not: the accounting is exact", async () => {
  // The first request succeeds, every later one fails for good.
  const run = await throughFaults((n) => (n === 0 ? "pass" : { status: 500, body: "boom" }), { VECDB_RETRIES: "0", VECDB_CONCURRENCY: "1" });
  try {
    const vectors = records(250, "half-");
    const r = await run.mcp.call("upsert_vectors", { index: "flaky", namespace: "half", vectors });
    expect(r.isError).toBe(true);
    const s = r.structured as { failedIds: string[]; upserted: number; failed: number };
    expect(s.upserted).toBe(100);
    expect(s.failedIds).toEqual(vectors.slice(100).map((v) => v.id));
    expect(r.text).toMatch(/^150 of 250 records were NOT written \(100 were\)\./);
    expect((await indexStats(svc, realHost)).namespaces.half.vectorCount).toBe(100);
  } finally {
    await run.close();
  }
});

test("cancelling the call aborts the requests in flight", async () => {
  const run = await throughFaults(() => "stall");
  try {
    const controller = new AbortController();
    const call = run.mcp.client.callTool({ name: "upsert_vectors", arguments: { index: "flaky", namespace: "cancel", vectors: records(250, "c-") } }, undefined, {
      signal: controller.signal,
    });
    const rejected = expect(call).rejects.toThrow();
    for (let i = 0; i < 100 && run.data.requests.filter((q) => q.status === "stalled").length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(run.data.requests.filter((q) => q.status === "stalled").length).toBe(3);
    controller.abort("the user changed their mind");
    await rejected;
    for (let i = 0; i < 100 && run.data.requests.some((q) => q.status === "stalled"); i++) await new Promise((r) => setTimeout(r, 20));
    expect(run.data.requests.map((q) => q.status)).toEqual(["closed by client", "closed by client", "closed by client"]);
    expect((await indexStats(svc, realHost)).namespaces.cancel).toBeUndefined();
    // The server is still fine afterwards.
    expect((await run.mcp.call("list_indexes")).isError).toBe(false);
  } finally {
    await run.close();
  }
});
