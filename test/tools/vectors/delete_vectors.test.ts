// delete_vectors end to end: the built server over stdio (with --allow-destructive) against the local service
// (test/tools/fixtures/admin.ts), every outcome checked on the service itself.
import { beforeAll, describe, expect, test } from "vitest";
import { svc, mcp, upsert, useAdminFixture } from "../fixtures/admin.js";
import { createIndex, fetchVectors, indexStats, serverless } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useAdminFixture();

describe("delete_vectors", () => {
  let host = "";
  beforeAll(async () => {
    host = (await createIndex(svc, { name: "del-vec", dimension: 2, spec: serverless })).host;
    await upsert(host, "n1", [
      { id: "a", values: [1, 0], metadata: { genre: "drama" } },
      { id: "b", values: [0, 1], metadata: { genre: "drama" } },
      { id: "c", values: [1, 1], metadata: { genre: "comedy" } },
      { id: "d", values: [2, 1], metadata: { genre: "comedy" } },
      { id: "e", values: [1, 2], metadata: { genre: "news" } },
    ]);
    await upsert(host, "", [{ id: "a", values: [1, 0] }]);
  });

  test("by ids: which were found, counts before and after; exactly those are gone", async () => {
    const r = await mcp.call("delete_vectors", { index: "del-vec", namespace: "n1", ids: ["a", "b", "zz", "constructor"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "del-vec", namespace: "n1", by: "ids", requested: 4, found: 2, missing: ["zz", "constructor"], before: 5, after: 3, removed: 2 });
    expect(r.text).toBe(
      [
        'Deleted 2 of the 4 ids given (2 did not exist) from index "del-vec", namespace "n1".',
        "",
        "| index | namespace | by | records before | records after | removed |",
        "| --- | --- | --- | --- | --- | --- |",
        "| del-vec | n1 | ids | 5 | 3 | 2 |",
        "",
        "Ids that did not exist: zz, constructor",
      ].join("\n"),
    );
    expect(Object.keys(await fetchVectors(svc, host, ["a", "b", "c", "d", "e"], "n1")).sort()).toEqual(["c", "d", "e"]);
    expect(Object.keys(await fetchVectors(svc, host, ["a"]))).toEqual(["a"]); // the default namespace untouched
  });

  test("by filter: the matching records", async () => {
    const r = await mcp.call("delete_vectors", { index: "del-vec", namespace: "n1", filter: { genre: { $eq: "comedy" } } });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "del-vec", namespace: "n1", by: "filter", before: 3, after: 1, removed: 2 });
    expect(r.text.split("\n")[0]).toBe('Deleted the records matching the filter from index "del-vec", namespace "n1".');
    expect(Object.keys(await fetchVectors(svc, host, ["c", "d", "e"], "n1"))).toEqual(["e"]);
  });

  test("deleteAll: the whole namespace, nothing else", async () => {
    const r = await mcp.call("delete_vectors", { index: "del-vec", namespace: "n1", deleteAll: true });
    expect(r.structured).toEqual({ index: "del-vec", namespace: "n1", by: "deleteAll", before: 1, after: 0, removed: 1 });
    expect(r.text.split("\n")[0]).toBe('Deleted every record from index "del-vec", namespace "n1".');
    expect((await indexStats(svc, host)).totalVectorCount).toBe(1);
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ["neither ids, filter nor deleteAll", {}, `Say what to delete: give exactly one of ids (1–1000 record ids), filter (a metadata filter) or deleteAll: true. ${nothingWas("deleted")}`],
    ["ids and deleteAll", { ids: ["a"], deleteAll: true }, `Give exactly one of ids, filter or deleteAll; this call gave ids and deleteAll. ${nothingWas("deleted")}`],
    [
      "an unknown filter operator",
      { filter: { genre: { $regex: "x" } } },
      `Invalid filter: unknown operator "$regex" on field "genre". ${nothingWas("deleted")}\nNext step: write the filter with the operators $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists (and $and / $or to combine), e.g. {"genre": {"$eq": "drama"}, "year": {"$gte": 2020}}, and call again.`,
    ],
    [
      "1001 ids",
      { ids: Array.from({ length: 1001 }, (_, i) => `x${i}`) },
      `MCP error -32602: Input validation error: Invalid arguments for tool delete_vectors: ids: give 1–1000 ids per call; split longer lists into several calls. ${nothingWas("deleted")} at ids`,
    ],
  ];
  test.each(bad)("%s: the exact text, and nothing deleted", async (_what, args, text) => {
    const r = await mcp.call("delete_vectors", { index: "del-vec", ...args });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(text);
    expect((await indexStats(svc, host)).totalVectorCount).toBe(1);
  });
});
