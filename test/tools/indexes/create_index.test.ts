// create_index end to end: the built server over stdio (with --allow-destructive) against the local service
// (test/tools/fixtures/admin.ts), every outcome checked on the service itself.
import { describe, expect, test } from "vitest";
import { svc, mcp, indexNames, upsert, waitFor, useAdminFixture } from "../fixtures/admin.js";
import { api, createIndex, indexStats, pod, serverless, startProxy } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { refusalOf } from "../../helpers/refusal.js";
import { startMcp } from "../../helpers/mcp-client.js";

useAdminFixture();

describe("create_index", () => {
  test("a serverless index: created, waited for with progress, the same as the service holds", async () => {
    const r = await mcp.call("create_index", { name: "alpha", dimension: 4, serverless: { cloud: "aws", region: "us-east-1" } }, { progress: true });
    expect(r.isError, r.text).toBe(false);
    const host = (await api(svc, "GET", "/indexes/alpha")).body.host;
    expect(r.structured).toEqual({
      index: {
        name: "alpha", kind: "serverless", holds: "vectors", dimension: 4, metric: "cosine", vectorType: "dense", state: "Ready", ready: true,
        host, cloud: "aws", region: "us-east-1", deletionProtection: "disabled", readCapacity: { mode: "OnDemand", state: "Ready" },
      },
      created: true,
      ready: true,
      waitedSeconds: expect.any(Number),
    });
    expect((r.structured as { waitedSeconds: number }).waitedSeconds).toBeLessThan(2); // ready at once on the local service (0–0.1 s under load)
    expect(r.text).toBe(
      [
        'Index "alpha" created and ready.',
        "",
        "| name | kind | dimension | metric | state | host | where | deletion protection |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
        `| alpha | serverless | 4 | cosine | Ready | ${host} | aws us-east-1 | disabled |`,
      ].join("\n"),
    );
    expect(r.progress.length).toBeGreaterThanOrEqual(1);
    expect(r.progress.at(-1)).toMatchObject({ progress: 180, total: 180, message: "index alpha is ready" });
    const onService = (await api(svc, "GET", "/indexes/alpha")).body;
    expect(onService).toMatchObject({ dimension: 4, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } }, status: { ready: true } });
  });

  test("a pod-based index with deletion protection and tags", async () => {
    const r = await mcp.call("create_index", {
      name: "pods-a", dimension: 3, metric: "euclidean", pod: { environment: "us-east1-gcp", podType: "p1.x2", replicas: 2 },
      deletionProtection: "enabled", tags: { team: "search" },
    }, { progress: true });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({
      index: { name: "pods-a", kind: "pod", dimension: 3, metric: "euclidean", environment: "us-east1-gcp", podType: "p1.x2", replicas: 2, shards: 1, pods: 2, deletionProtection: "enabled" },
      created: true,
      ready: true,
    });
    expect(r.progress.length).toBeGreaterThanOrEqual(1);
    const onService = (await api(svc, "GET", "/indexes/pods-a")).body;
    expect(onService).toMatchObject({ dimension: 3, metric: "euclidean", deletion_protection: "enabled", tags: { team: "search" }, spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x2", replicas: 2 } } });
  });

  test("from a collection: waits while the index is Initializing, then it holds the collection's records", async () => {
    const src = await createIndex(svc, { name: "src-pod", dimension: 2, spec: pod });
    await upsert(src.host, "", Array.from({ length: 300 }, (_, i) => ({ id: `r${i}`, values: [i, 1] })));
    expect((await api(svc, "POST", "/collections", { name: "src-snap", source: "src-pod" })).status).toBe(201);
    await waitFor(async () => (await api(svc, "GET", "/collections/src-snap")).body.status === "Ready", "collection ready");

    const r = await mcp.call("create_index", {
      name: "restored", dimension: 2, pod: { environment: "us-east1-gcp", podType: "p1.x1", sourceCollection: "src-snap" },
    }, { progress: true });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ created: true, ready: true, index: { name: "restored", state: "Ready" } });
    expect(r.progress[0]).toMatchObject({ progress: 0, total: 180 });
    expect(r.progress.at(-1)).toMatchObject({ progress: 180, total: 180, message: "index restored is ready" });
    const host = (await api(svc, "GET", "/indexes/restored")).body.host;
    expect((await indexStats(svc, host)).totalVectorCount).toBe(300);
  });

  test("the same settings again: the existing index is returned as is", async () => {
    const r = await mcp.call("create_index", { name: "alpha", dimension: 4, metric: "cosine", serverless: { cloud: "aws", region: "us-east-1" } }, { progress: true });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ created: false, ready: true, waitedSeconds: 0, index: { name: "alpha", dimension: 4 } });
    expect(r.text.split("\n")[0]).toBe('Index "alpha" already exists with these settings; it is returned as is (nothing was created).');
    expect(r.progress).toEqual([]);
  });

  test("other settings: an error naming every difference, and the index unchanged", async () => {
    const r = await mcp.call("create_index", { name: "alpha", dimension: 8, metric: "dotproduct", serverless: { cloud: "gcp", region: "us-east-1" }, tags: { team: "x" } });
    expect(r.isError).toBe(true);
    expect(refusalOf(r.text)).toEqual({
      problem: [
        'Index "alpha" already exists with different settings:',
        "- dimension: the index has 4, this call asks for 8",
        '- metric: the index has "cosine", this call asks for "dotproduct"',
        '- serverless.cloud: the index has "aws", this call asks for "gcp"',
        '- tags.team: the index has none, this call asks for "x"',
      ].join("\n"),
      untouched: "changed",
      next: "use the existing index as it is (list_indexes shows it), or call create_index with another name.",
    });
    const kind = await mcp.call("create_index", { name: "alpha", dimension: 4, pod: { environment: "us-east1-gcp", podType: "p1.x1" } });
    expect(kind.text.split("\n")[1]).toBe("- kind: the index is serverless, this call asks for pod");
    expect((await api(svc, "GET", "/indexes/alpha")).body).toMatchObject({ dimension: 4, metric: "cosine", spec: { serverless: { cloud: "aws" } } });
  });

  test("no placement: serverless on aws us-east-1, said in the result", async () => {
    const r = await mcp.call("create_index", { name: "placed", dimension: 4 });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ created: true, index: { kind: "serverless", cloud: "aws", region: "us-east-1" }, note: "No placement was given: it is serverless on aws us-east-1 (the default)." });
    expect(r.text.endsWith("\n\nNo placement was given: it is serverless on aws us-east-1 (the default).")).toBe(true);
    expect((await api(svc, "GET", "/indexes/placed")).body.spec).toMatchObject({ serverless: { cloud: "aws", region: "us-east-1" } });
    const again = await mcp.call("create_index", { name: "placed", dimension: 4 });
    expect(again.structured).toMatchObject({ created: false });
  });

  test("the wait is bounded by waitSeconds; a failed state is an error", async () => {
    // A controller that reports the index as still initializing (or failed), whatever its real state.
    let state = "Initializing";
    const proxy = await startProxy({
      target: svc.controlUrl,
      rewrite: (body) => body.replace('"status":{"ready":true,"state":"Ready"}', `"status":{"ready":false,"state":"${state}"}`),
    });
    const slow = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: proxy.url } });
    try {
      const started = Date.now();
      const r = await slow.call("create_index", { name: "slow-one", dimension: 2, serverless: { cloud: "aws", region: "us-east-1" }, waitSeconds: 1 }, { progress: true });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(r.isError, r.text).toBe(false);
      expect(r.structured).toMatchObject({ created: true, ready: false, index: { state: "Initializing" } });
      expect(r.text.split("\n")[0]).toMatch(/^Index "slow-one" created, but it is still Initializing after 1(\.\d)? s\.$/);
      expect(r.text).toContain("It keeps initializing on the service; list_indexes shows when it is Ready.");
      expect(r.progress.length).toBeGreaterThan(1);
      expect(r.progress[1].message).toMatch(/^index slow-one: Initializing after [\d.]+ s$/);

      const now = await slow.call("create_index", { name: "slow-two", dimension: 2, serverless: { cloud: "aws", region: "us-east-1" }, waitSeconds: 0 });
      expect(now.text.split("\n")[0]).toBe('Index "slow-two" created; it is Initializing (not waited for: waitSeconds is 0).');

      state = "InitializationFailed";
      const failed = await slow.call("create_index", { name: "slow-three", dimension: 2, serverless: { cloud: "aws", region: "us-east-1" } });
      expect(failed.isError).toBe(true);
      expect(failed.text).toBe(
        'Index "slow-three" was created but did not become ready: its state is InitializationFailed.\n' +
          "Next step: look at it with list_indexes; delete it and create it again if it stays in that state.",
      );
    } finally {
      await slow.close();
      await proxy.close();
    }
  });

  const bad: [string, Record<string, unknown>, string][] = [
    [
      "both serverless and pod",
      { name: "both", dimension: 4, serverless: { cloud: "aws", region: "us-east-1" }, pod: { environment: "us-east1-gcp", podType: "p1.x1" } },
      `Give exactly one of serverless or pod, not both: serverless {cloud, region} makes an index that scales on demand, pod {environment, podType} one on fixed pods. ${nothingWas("created")}`,
    ],
    [
      "a bad name",
      { name: "My_Index", dimension: 4, serverless: { cloud: "aws", region: "us-east-1" } },
      'MCP error -32602: Input validation error: Invalid arguments for tool create_index: Index name "My_Index" contains "M", "_" and "I". Rule: only lower-case letters a–z, digits 0–9 and "-". A valid name would be "my-index". at name',
    ],
    [
      "dimension 0",
      { name: "zero", dimension: 0, serverless: { cloud: "aws", region: "us-east-1" } },
      `MCP error -32602: Input validation error: Invalid arguments for tool create_index: dimension is 0: the dimension is a whole number from 1 to 20000. ${nothingWas("created")} at dimension`,
    ],
  ];
  test.each(bad)("%s: the exact text, and nothing created", async (_what, args, text) => {
    const before = await indexNames();
    const r = await mcp.call("create_index", args);
    expect(r.isError).toBe(true);
    expect(r.text).toBe(text);
    expect(await indexNames()).toEqual(before);
  });
});
