// list_indexes end to end: the built server over stdio against the local service (test/tools/fixtures/project.ts).
import { describe, expect, test } from "vitest";
import { docsHost, mcp, podsHost, sparseHost, useProjectFixture, useThreeIndexes } from "../fixtures/project.js";

useProjectFixture();

describe("an empty project", () => {
  test("list_indexes says so in words", async () => {
    const r = await mcp.call("list_indexes");
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({ indexes: [] });
    expect(r.text).toBe(
      "There are no indexes in this project yet. To remember and find text: create_index_for_model (e.g. model \"local-bm25\" on the local " +
        'service, or "llama-text-embed-v2", fieldMap {"text": "text"}), then upsert_records and search_records. ' +
        "To store your own embeddings: create_index, then upsert_vectors.",
    );
  });
});

describe("with indexes", () => {
  useThreeIndexes();

  test("list_indexes: the exact table and structured records", async () => {
    const r = await mcp.call("list_indexes");
    expect(r.text).toBe(
      [
        "3 indexes:",
        "",
        "| name | kind | dimension | metric | state | host | where |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        `| docs | serverless | 4 | cosine | Ready | ${docsHost} | aws us-east-1 |`,
        `| pods | pod | 4 | euclidean | Ready | ${podsHost} | us-east1-gcp · p1.x1 · pods 1 / replicas 1 / shards 1 |`,
        `| sparse | serverless | sparse | dotproduct | Ready | ${sparseHost} | aws us-east-1 |`,
      ].join("\n"),
    );
    const indexes = (r.structured as { indexes: Record<string, unknown>[] }).indexes;
    expect(indexes.map((i) => i.name)).toEqual(["docs", "pods", "sparse"]);
    expect(indexes[0]).toMatchObject({ kind: "serverless", dimension: 4, metric: "cosine", state: "Ready", ready: true, host: docsHost, cloud: "aws", region: "us-east-1" });
    expect(indexes[1]).toMatchObject({ kind: "pod", environment: "us-east1-gcp", podType: "p1.x1", pods: 1, replicas: 1, shards: 1 });
    expect(indexes[2]).toMatchObject({ vectorType: "sparse" });
    expect(indexes[2].dimension).toBeUndefined();
  });
});
