// update_vectors and fetch_by_metadata end to end: the built server over stdio (with --allow-destructive) against the
// local service (test/tools/fixtures/administration.ts) — happy path with its table, and the bad inputs with the exact
// text a model receives.
import { describe, expect, test } from "vitest";
import { svc, mcp, docsHost, upsert, useAdministrationFixture } from "../fixtures/administration.js";
import { fetchVectors } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { refusalOf } from "../../helpers/refusal.js";

useAdministrationFixture();

describe("update_vectors and fetch_by_metadata", () => {
  test("by id: values and metadata merged; the upsert checks apply; an unknown id is named", async () => {
    const r = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "b1", values: [0.5, 0.25], setMetadata: { rating: 5 } });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "docs", namespace: "books", by: "id", id: "b1", updated: true });
    const stored = await fetchVectors(svc, docsHost, ["b1"], "books");
    expect(stored.b1).toMatchObject({ values: [0.5, 0.25], metadata: { genre: "drama", year: 2001, rating: 5 } });
    const wrongDim = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "b1", values: [1, 2, 3] });
    expect(wrongDim.text).toBe(`values has 3 values but index 'docs' has dimension 2. ${nothingWas("changed")}\nNext step: fix it and call again.`);
    const badMeta = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "b1", setMetadata: { nested: { a: 1 } } });
    expect(badMeta.isError).toBe(true);
    expect(badMeta.text).toMatch(/^metadata\.nested /);
    expect(refusalOf(badMeta.text).untouched).toBe("changed");
    const missing = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "zz", setMetadata: { a: "b" } });
    expect(refusalOf(missing.text)).toEqual({
      problem: 'Record "zz" not found in namespace "books" of index "docs"',
      untouched: "changed",
      next: "fetch_vectors or list_vector_ids shows which ids exist.",
    });
  });

  test("by filter: dryRun counts, then every match is updated", async () => {
    const dry = await mcp.call("update_vectors", { index: "docs", namespace: "books", filter: { genre: "drama" }, setMetadata: { shelf: "A" }, dryRun: true });
    expect(dry.structured).toEqual({ index: "docs", namespace: "books", by: "filter", matchedRecords: 2, updated: false });
    expect(dry.text).toBe('Dry run: 2 records in namespace "books" of index "docs" match the filter; nothing was changed.');
    const r = await mcp.call("update_vectors", { index: "docs", namespace: "books", filter: { genre: "drama" }, setMetadata: { shelf: "A" } });
    expect(r.structured).toEqual({ index: "docs", namespace: "books", by: "filter", matchedRecords: 2, updated: true });
    const page = await mcp.call("fetch_by_metadata", { index: "docs", namespace: "books", filter: { shelf: "A" } });
    expect(page.structured).toEqual({
      index: "docs",
      namespace: "books",
      vectors: [
        { id: "b1", metadata: { genre: "drama", year: 2001, rating: 5, shelf: "A" } },
        { id: "b2", metadata: { genre: "drama", year: 2010, shelf: "A" } },
      ],
    });
    expect(page.text).toBe(
      '2 records in namespace "books" of index "docs" match the filter:\n\n| id | metadata |\n| --- | --- |\n| b1 | {"genre":"drama","year":2001,"rating":5,"shelf":"A"} |\n| b2 | {"genre":"drama","year":2010,"shelf":"A"} |',
    );
    const paged = await mcp.call("fetch_by_metadata", { index: "docs", namespace: "books", filter: { year: { $gte: 2000 } }, limit: 2, includeValues: true });
    expect((paged.structured?.vectors as { id: string; values?: number[] }[]).map((v) => [v.id, v.values])).toEqual([["b1", [0.5, 0.25]], ["b2", [0, 1]]]);
    const next = await mcp.call("fetch_by_metadata", { index: "docs", namespace: "books", filter: { year: { $gte: 2000 } }, limit: 2, paginationToken: paged.structured?.paginationToken });
    expect((next.structured?.vectors as { id: string }[]).map((v) => v.id)).toEqual(["b3"]);
    const bad = await mcp.call("fetch_by_metadata", { index: "docs", filter: { year: { $near: 1 } } });
    expect(refusalOf(bad.text)).toMatchObject({ problem: 'Invalid filter: unknown operator "$near" on field "year"', untouched: "read" });
  });
});
