// fetch_vectors end to end: the built server over stdio against the local service, with the reading tools' fixture
// (test/tools/fixtures/reading.ts). Texts are checked exactly.
import { describe, expect, test } from "vitest";
import { mcp, BLURB, table, upsert, useReadingFixture } from "../fixtures/reading.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";

useReadingFixture();

describe("fetch_vectors", () => {
  test("the records found with their whole metadata and no values, and the ids missing", async () => {
    const r = await mcp.call("fetch_vectors", { index: "docs", namespace: "books", ids: ["a", "zz", "c", "a"] });
    expect(r.isError).toBe(false);
    const missing = 'Missing (no record with these ids in namespace "books" of index "docs"): "zz".';
    expect(r.text).toBe(
      table(
        '2 of 3 records found in namespace "books" of index "docs":',
        "",
        "| id | dimension | metadata |",
        "| --- | --- | --- |",
        `| a | 4 | {"genre":"sf","year":1965,"tags":["x","y"],"blurb":"${BLURB}"} |`,
        "| c | 4 |  |",
        "",
        missing,
      ),
    );
    expect(r.structured).toEqual({
      index: "docs",
      namespace: "books",
      vectors: [
        { id: "a", dimension: 4, metadata: { genre: "sf", year: 1965, tags: ["x", "y"], blurb: BLURB } },
        { id: "c", dimension: 4 },
      ],
      missing: ["zz"],
      note: missing,
    });
    expect(JSON.stringify(r.structured)).not.toMatch(/"values"/);
  });

  test("includeValues: values as the shortest decimal that reads back the same float32", async () => {
    await upsert("empty", "floats", [{ id: "f", values: [-0.559, 0.1, 1 / 3] }]);
    const r = await mcp.call("fetch_vectors", { index: "empty", namespace: "floats", ids: ["f"], includeValues: true });
    expect((r.structured as any).vectors[0].values).toEqual([-0.559, 0.1, 0.33333334]);
    expect(r.text).toContain("| f | 3 |  | [-0.559,0.1,0.33333334] |  |");
    const q = await mcp.call("query_vectors", { index: "empty", namespace: "floats", vector: [-0.559, 0.1, 0.3], topK: 1, includeValues: true });
    expect((q.structured as any).matches[0].values).toEqual([-0.559, 0.1, 0.33333334]);
  });

  test("sparse records: values only with includeValues", async () => {
    const r = await mcp.call("fetch_vectors", { index: "sparse", namespace: "kw", ids: ["s2", "s1"] });
    expect(r.text).toBe(
      table('2 of 2 records found in namespace "kw" of index "sparse":', "", "| id | dimension | metadata |", "| --- | --- | --- |", "| s2 |  |  |", '| s1 |  | {"kind":"k"} |'),
    );
    const v = await mcp.call("fetch_vectors", { index: "sparse", namespace: "kw", ids: ["s1"], includeValues: true });
    expect((v.structured as any).vectors[0]).toEqual({ id: "s1", sparseValues: { indices: [1, 5], values: [1, 2] }, metadata: { kind: "k" } });
  });

  test("1000 ids are allowed; none found is said in words, as many as the budget holds", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `none-${i}`);
    const r = await mcp.call("fetch_vectors", { index: "docs", ids });
    expect(r.isError).toBe(false);
    const missing = (r.structured as any).missing as string[];
    expect(missing).toEqual(ids.slice(0, missing.length));
    expect(r.text.split("\n")[0]).toBe(`None of the first ${missing.length} of the 1000 ids given has a record in namespace "__default__" of index "docs".`);
    expect(r.text).toContain(`The other ${1000 - missing.length} ids (from "none-${missing.length}", the ${missing.length + 1}`);
    expect(r.text.endsWith("\nlist_vector_ids lists the ids there are.")).toBe(true);
  });

  test("1000 long ids: found and missing ones, in the order given, as many as the budget holds", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, "0")}-${"k".repeat(60)}`);
    await upsert("empty", "long-ids", ids.filter((_, i) => i % 2 === 0).map((id) => ({ id, values: [1, 2, 3] })));
    const r = await mcp.call("fetch_vectors", { index: "empty", namespace: "long-ids", ids });
    expect(r.isError).toBe(false);
    const s = r.structured as any;
    const seen = s.vectors.length + s.missing.length;
    expect(seen).toBeLessThan(1000);
    expect(s.vectors.map((v: any) => v.id)).toEqual(ids.slice(0, seen).filter((_, i) => i % 2 === 0));
    expect(s.missing).toEqual(ids.slice(0, seen).filter((_, i) => i % 2 === 1));
    const lines = r.text.split("\n");
    expect(lines[0]).toBe(`The first ${seen} of the 1000 ids given: ${s.vectors.length} records found in namespace "long-ids" of index "empty":`);
    expect(lines.filter((l) => /^\| \d{4}-k/.test(l))).toHaveLength(s.vectors.length);
    expect(s.note.split("\n")[0]).toBe(`Missing (no record with these ids in namespace "long-ids" of index "empty"): ${s.missing.map((id: string) => JSON.stringify(id)).join(", ")}.`);
  });

  test.each([
    ["an id list over 1000", { index: "docs", ids: Array.from({ length: 1001 }, (_, i) => `i${i}`) }, `MCP error -32602: Input validation error: Invalid arguments for tool fetch_vectors: ids: give 1–1000 ids per call; split a longer list into several calls. ${nothingWas("read")} at ids`],
    ["no ids", { index: "docs", ids: [] }, `MCP error -32602: Input validation error: Invalid arguments for tool fetch_vectors: ids: give 1–1000 ids per call. ${nothingWas("read")} at ids`],
    ["an empty id", { index: "docs", ids: ["a", ""] }, `MCP error -32602: Input validation error: Invalid arguments for tool fetch_vectors: ids[1] is "": record ids are 1–512 characters. ${nothingWas("read")} at ids[1]`],
    [
      "an unknown index",
      { index: "nope", ids: ["a"] },
      `fetch_vectors failed — the service answered HTTP 404 NOT_FOUND: "Index nope not found."\nNext step: ${listingStep("index")}`,
    ],
  ])("%s: the exact text", async (_name, args, text) => {
    const r = await mcp.call("fetch_vectors", args);
    expect(r.isError).toBe(true);
    expect(r.text).toBe(text);
  });
});
