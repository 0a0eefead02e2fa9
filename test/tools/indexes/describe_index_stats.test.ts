// describe_index_stats end to end: the built server over stdio against the local service, with the reading tools' fixture
// (test/tools/fixtures/reading.ts). Texts are checked exactly.
import { describe, expect, test } from "vitest";
import { svc, mcp, host, table, upsert, useReadingFixture } from "../fixtures/reading.js";
import { api, createIndex, pod, serverless } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";

useReadingFixture();

describe("describe_index_stats", () => {
  test("per-namespace counts, dimension, fullness and the total", async () => {
    const r = await mcp.call("describe_index_stats", { index: "docs" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      table(
        'Index "docs" (dimension 4, cosine, fullness 0%): 4 records in 2 namespaces.',
        "",
        "| namespace | records |",
        "| --- | --- |",
        "| __default__ | 1 |",
        "| books | 3 |",
        "| (all namespaces) | 4 |",
      ),
    );
    expect(r.structured).toEqual({
      index: "docs",
      dimension: 4,
      metric: "cosine",
      vectorType: "dense",
      indexFullness: 0,
      totalVectorCount: 4,
      filtered: false,
      namespaces: [
        { namespace: "", vectorCount: 1 },
        { namespace: "books", vectorCount: 3 },
      ],
    });
  });

  test("with a filter on a pod-based index: the matching records per namespace", async () => {
    const podf = await createIndex(svc, { name: "podf", dimension: 4, spec: pod });
    await upsert("podf", "books", [
      { id: "a", values: [1, 0, 0, 0], metadata: { genre: "sf" } },
      { id: "b", values: [0, 1, 0, 0], metadata: { genre: "drama" } },
      { id: "c", values: [1, 1, 0, 0] },
    ]);
    await upsert("podf", undefined, [{ id: "d1", values: [0, 0, 1, 0], metadata: { genre: "sf" } }]);
    expect(podf.name).toBe("podf");
    const r = await mcp.call("describe_index_stats", { index: "podf", filter: { genre: { $eq: "sf" } } });
    expect(r.text).toBe(
      table(
        'Index "podf" (dimension 4, cosine, fullness 0%): 2 records match the filter, in 2 namespaces (of 4 records in the index).',
        "",
        "| namespace | matching records |",
        "| --- | --- |",
        "| __default__ | 1 |",
        "| books | 1 |",
        "| (all namespaces) | 2 |",
      ),
    );
    expect(r.structured).toMatchObject({ filtered: true, matchingVectorCount: 2, totalVectorCount: 4 });
  });

  test("with a filter on a serverless index: refused as the service refuses it, with what to use instead", async () => {
    const r = await mcp.call("describe_index_stats", { index: "docs", filter: { genre: { $eq: "sf" } } });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `Index "docs" is serverless, and the service counts records by metadata filter only on pod-based indexes. ${nothingWas("read")}\n` +
        "Next step: call describe_index_stats without filter for the counts per namespace, or query_vectors with the filter (and a topK as large as you need) to see the matching records.",
    );
    const onService = await api(svc, "POST", `http://${host.docs}/describe_index_stats`, { filter: { genre: { $eq: "sf" } } });
    expect(onService).toEqual({
      status: 400,
      body: { code: 3, message: "Serverless and starter indexes do not support describing index stats with metadata filtering.", details: [] },
    });
  });

  test("a sparse index and an empty one", async () => {
    const sparse = await mcp.call("describe_index_stats", { index: "sparse" });
    expect(sparse.text).toBe(
      table('Index "sparse" (sparse, dotproduct, fullness 0%): 2 records in 1 namespace.', "", "| namespace | records |", "| --- | --- |", "| kw | 2 |", "| (all namespaces) | 2 |"),
    );
    expect((sparse.structured as any).dimension).toBeUndefined();
    const empty = await mcp.call("describe_index_stats", { index: "empty" });
    expect(empty.text).toBe('Index "empty" (dimension 3, dotproduct, fullness 0%): 0 records in 0 namespaces. The index is empty; upsert_records writes text (an index that embeds), upsert_vectors writes your own vectors.');
    expect(empty.structured).toMatchObject({ totalVectorCount: 0, namespaces: [] });
  });

  test("a filter with an unknown operator is refused before any call, naming the operators there are", async () => {
    const r = await mcp.call("describe_index_stats", { index: "docs", filter: { $not: { genre: "sf" } } });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `Invalid filter: unknown operator "$not" at filter; only $and and $or combine filters. ${nothingWas("read")}\n` +
        'Next step: write the filter with the operators $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists (and $and / $or to combine), e.g. {"genre": {"$eq": "drama"}, "year": {"$gte": 2020}}, and call again.',
    );
  });

  test("a filter the service refuses: its message reaches the model with the next step", async () => {
    const r = await mcp.call("describe_index_stats", { index: "podf", filter: { year: { $gt: "1990" } } });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "describe_index_stats failed — the service answered HTTP 400: \"Invalid filter: operator $gt on field 'year' needs a number, got the string '1990'\"\n" +
        "Next step: Correct the request as the message says and call again.",
    );
  });

  test("an unknown index", async () => {
    const r = await mcp.call("describe_index_stats", { index: "nope" });
    expect(r.text).toBe(
      "describe_index_stats failed — the service answered HTTP 404 NOT_FOUND: \"Index nope not found.\"\n" +
        `Next step: ${listingStep("index")}`,
    );
  });
});
