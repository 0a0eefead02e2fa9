// Text upserts through a misbehaving data plane: 429 with Retry-After, 503 and a dropped connection are retried until
// every record landed once; a service that fails part-way gives an error listing exactly the ids not written.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { api, type Fault, fetchVectors, indexStats, mcpThroughFaults } from "../../e2e/support.js";

let svc: RunningService;
let realHost = "";
const notes = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ _id: `${prefix}${i}`, text: `note ${i} about tide number ${i % 7}`, n: i }));

beforeAll(async () => {
  svc = await startServiceProcess();
  const created = await api(svc, "POST", "/indexes/create-for-model", { name: "flaky-text", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "text" } } });
  realHost = created.body.host;
});
afterAll(async () => {
  await svc?.stop();
});

/** An MCP server whose view of index "flaky-text" goes through a data-plane proxy with the given faults. */
const throughFaults = (fault: (n: number) => Fault, env: Record<string, string> = {}) =>
  mcpThroughFaults(svc, realHost, (path) => path.startsWith("/records/namespaces/") && path.endsWith("/upsert"), fault, env);

test("429 + Retry-After, 503 and a dropped connection are retried until every text record landed once", async () => {
  const plan: Fault[] = [
    { status: 429, headers: { "Retry-After": "1" }, body: JSON.stringify({ code: 8, message: "Too many requests", details: [] }) },
    { status: 503, body: JSON.stringify({ code: 14, message: "Service unavailable", details: [] }) },
    "drop",
  ];
  const run = await throughFaults((n) => plan[n] ?? "pass");
  try {
    const records = notes(300, "r");
    const r = await run.mcp.call("upsert_records", { index: "flaky-text", namespace: "retry", records });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ records: 300, batches: 4, upserted: 300, failed: 0, failedIds: [] });
    expect(r.structured!.seconds as number).toBeGreaterThanOrEqual(0.9); // Retry-After: 1 was honoured
    expect(run.data.requests.map((q) => q.status).slice(0, 3).sort()).toEqual([429, 503, "dropped"].sort());
    expect(run.data.requests.filter((q) => q.status === 201).length).toBe(4);
    expect((await indexStats(svc, realHost)).namespaces.retry.vectorCount).toBe(300);
    const got = await fetchVectors(svc, realHost, ["r0", "r299"], "retry");
    expect(got.r299.metadata).toEqual({ text: "note 299 about tide number 5", n: 299 });
  } finally {
    await run.close();
  }
});

test("a service that fails part-way: exactly the ids not written are listed, the others landed", async () => {
  const down = { status: 503, body: JSON.stringify({ code: 14, message: "Service unavailable", details: [] }) };
  const run = await throughFaults((n) => (n < 2 ? "pass" : down), { VECDB_RETRIES: "0", VECDB_CONCURRENCY: "1" });
  try {
    const records = notes(300, "p");
    const r = await run.mcp.call("upsert_records", { index: "flaky-text", namespace: "part", records });
    expect(r.isError).toBe(true);
    const notWritten = records.slice(192).map((x) => x._id);
    expect(r.structured).toMatchObject({ records: 300, batches: 3, upserted: 192, failed: 108, failedIds: notWritten });
    expect(r.structured).toMatchObject({
      failures: [
        { records: 96, message: expect.stringMatching(/^HTTP 503: Service unavailable \(POST http:\/\/.*\/records\/namespaces\/part\/upsert\)$/) },
        { records: 12, message: "not sent: stopped after a failed batch" },
      ],
    });
    expect(r.text).toMatch(/^108 of 300 records were NOT written \(192 were\)\./);
    expect(r.text).toContain(`Ids not written: ${notWritten.join(", ")}`);
    expect(r.text).toContain("Next step: call upsert_records again with just those records (upserts are idempotent).");
    expect((await indexStats(svc, realHost)).namespaces.part.vectorCount).toBe(192);
    expect(Object.keys(await fetchVectors(svc, realHost, ["p191", "p192"], "part"))).toEqual(["p191"]);
  } finally {
    await run.close();
  }
});

test("cancelling upsert_records aborts the text upserts in flight; nothing lands", async () => {
  const run = await throughFaults(() => "stall");
  try {
    const controller = new AbortController();
    const call = run.mcp.client.callTool({ name: "upsert_records", arguments: { index: "flaky-text", namespace: "cancel", records: notes(250, "c-") } }, undefined, {
      signal: controller.signal,
    });
    const rejected = expect(call).rejects.toThrow();
    for (let i = 0; i < 100 && run.data.requests.filter((q) => q.status === "stalled").length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(run.data.requests.filter((q) => q.status === "stalled").length).toBe(3); // 250 records: 96 + 96 + 58
    controller.abort("the user changed their mind");
    await rejected;
    for (let i = 0; i < 100 && run.data.requests.some((q) => q.status === "stalled"); i++) await new Promise((r) => setTimeout(r, 20));
    expect(run.data.requests.map((q) => q.status)).toEqual(["closed by client", "closed by client", "closed by client"]);
    expect((await indexStats(svc, realHost)).namespaces.cancel).toBeUndefined();
    expect((await run.mcp.call("list_models")).isError).toBe(false);
  } finally {
    await run.close();
  }
});
