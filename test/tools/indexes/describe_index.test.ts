// describe_index end to end: the built server over stdio against the local service, with the reading tools' fixture
// (test/tools/fixtures/reading.ts). Texts are checked exactly.
import { describe, expect, test } from "vitest";
import { svc, mcp, host, table, untilReady, useReadingFixture } from "../fixtures/reading.js";
import { api } from "../../e2e/support.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";

useReadingFixture();

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
        "| state | Ready |",
        `| host | ${host.docs} |`,
        "| serverless.cloud | aws |",
        "| serverless.region | us-east-1 |",
        '| serverless.readCapacity | {"mode":"OnDemand","status":{"state":"Ready"}} |',
        "| deletion protection | disabled |",
        "| tags | none |",
      ),
    );
    expect(r.structured).toEqual({
      index: {
        name: "docs",
        kind: "serverless",
        holds: "vectors",
        dimension: 4,
        metric: "cosine",
        vectorType: "dense",
        host: host.docs,
        state: "Ready",
        ready: true,
        deletionProtection: "disabled",
        readCapacity: { mode: "OnDemand", state: "Ready" },
        tags: {},
        spec: { serverless: { cloud: "aws", region: "us-east-1", readCapacity: { mode: "OnDemand", status: { state: "Ready" } } } },
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
        "| state | Ready |",
        `| host | ${host.pods} |`,
        "| pod.environment | us-east1-gcp |",
        "| pod.podType | p1.x1 |",
        "| pod.pods | 1 |",
        "| pod.replicas | 1 |",
        "| pod.shards | 1 |",
        "| deletion protection | enabled |",
        "| tags | team=search, env=dev |",
      ),
    );
    expect(r.structured).toMatchObject({
      index: { kind: "pod", deletionProtection: "enabled", tags: { team: "search", env: "dev" }, spec: { pod: { environment: "us-east1-gcp", podType: "p1.x1", pods: 1, replicas: 1, shards: 1 } } },
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
      "describe_index failed — the service answered HTTP 404 NOT_FOUND: \"Index nope not found.\"\n" +
        `Next step: ${listingStep("index")}`,
    );
  });

  test("an unknown index whose name has \"collection\" in it: still list_indexes", async () => {
    const r = await mcp.call("describe_index", { index: "old-collection" });
    expect(r.text).toBe(
      "describe_index failed — the service answered HTTP 404 NOT_FOUND: \"Index old-collection not found.\"\n" +
        `Next step: ${listingStep("index")}`,
    );
  });
});
