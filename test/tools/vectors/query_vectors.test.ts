// query_vectors end to end: the built server over stdio against the local service, with the reading tools' fixture
// (test/tools/fixtures/reading.ts). Texts are checked exactly.
import { describe, expect, test } from "vitest";
import { mcp, BLURB, table, upsert, useReadingFixture } from "../fixtures/reading.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";

useReadingFixture();

describe("query_vectors", () => {
  const books = table(
    '3 matches in namespace "books" of index "docs", best first:',
    "",
    "| rank | id | score | metadata |",
    "| --- | --- | --- | --- |",
    `| 1 | a | 1 | {"genre":"sf","year":1965,"tags":["x","y"],"blurb":"${BLURB}"} |`,
    "| 2 | c | 0.7071 |  |",
    '| 3 | b | 0 | {"genre":"drama","year":2001} |',
  );

  test("by a dense vector: rank, id, score and the whole metadata, in the text and in structuredContent", async () => {
    const r = await mcp.call("query_vectors", { index: "docs", namespace: "books", vector: [1, 0, 0, 0], topK: 3 });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(books);
    const s = r.structured as any;
    expect(s.index).toBe("docs");
    expect(s.namespace).toBe("books");
    expect(s.matches.map((m: any) => m.id)).toEqual(["a", "c", "b"]);
    expect(s.matches[0]).toEqual({ id: "a", score: 1, metadata: { genre: "sf", year: 1965, tags: ["x", "y"], blurb: BLURB } });
    expect(s.matches[1].score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(s.matches[1].metadata).toBeUndefined();
    expect(s.matches[1].values).toBeUndefined();
  });

  test("by a stored record's id gives the same matches", async () => {
    const r = await mcp.call("query_vectors", { index: "docs", namespace: "books", id: "a", topK: 3 });
    expect(r.text).toBe(books);
  });

  test("topK, a filter, includeValues and includeMetadata false", async () => {
    const r = await mcp.call("query_vectors", {
      index: "docs",
      namespace: "books",
      vector: [0, 1, 0, 0],
      topK: 1,
      filter: { year: { $gte: 1900 } },
      includeValues: true,
      includeMetadata: false,
    });
    expect(r.text).toBe(
      table('1 match in namespace "books" of index "docs", best first:', "", "| rank | id | score | values | sparse values |", "| --- | --- | --- | --- | --- |", "| 1 | b | 1 | [0,1,0,0] |  |"),
    );
    expect(r.structured).toEqual({ index: "docs", namespace: "books", matches: [{ id: "b", score: 1, values: [0, 1, 0, 0] }] });
  });

  test("by a sparse vector on a sparse index", async () => {
    const r = await mcp.call("query_vectors", { index: "sparse", namespace: "kw", sparseVector: { indices: [5], values: [2] }, topK: 5, includeValues: true });
    expect(r.text).toBe(
      table(
        '2 matches in namespace "kw" of index "sparse", best first:',
        "",
        "| rank | id | score | metadata | values | sparse values |",
        "| --- | --- | --- | --- | --- | --- |",
        '| 1 | s1 | 4 | {"kind":"k"} |  | {"indices":[1,5],"values":[1,2]} |',
        '| 2 | s2 | 2 |  |  | {"indices":[5],"values":[1]} |',
      ),
    );
    expect((r.structured as any).matches[0]).toEqual({ id: "s1", score: 4, sparseValues: { indices: [1, 5], values: [1, 2] }, metadata: { kind: "k" } });
  });

  test("the default namespace, and an empty one said in words", async () => {
    const r = await mcp.call("query_vectors", { index: "docs", vector: [0, 0, 1, 0], topK: 10 });
    expect(r.text).toBe(table('1 match in namespace "__default__" of index "docs", best first:', "", "| rank | id | score | metadata |", "| --- | --- | --- | --- |", '| 1 | d1 | 1 | {"genre":"sf"} |'));
    const none = await mcp.call("query_vectors", { index: "docs", namespace: "nothing-here", vector: [0, 0, 1, 0], topK: 10 });
    expect(none.isError).toBe(false);
    expect(none.structured).toEqual({ index: "docs", namespace: "nothing-here", matches: [], note: "describe_index_stats shows which namespaces hold records." });
    expect(none.text).toBe('No matches in namespace "nothing-here" of index "docs". The namespace is empty.\n\ndescribe_index_stats shows which namespaces hold records.');
  });

  test("by an id that is not stored, or with a filter nothing matches: said in words", async () => {
    const r = await mcp.call("query_vectors", { index: "docs", namespace: "books", id: "zz", topK: 3 });
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({ index: "docs", namespace: "books", matches: [], note: "list_vector_ids shows the ids there are." });
    expect(r.text).toBe('No record with id "zz" in namespace "books" of index "docs", so there is nothing to query by.\n\nlist_vector_ids shows the ids there are.');
    const f = await mcp.call("query_vectors", { index: "docs", namespace: "books", id: "a", topK: 3, filter: { genre: "poetry" } });
    expect(f.text).toBe('No matches in namespace "books" of index "docs". No record there matches the filter.\n\ndescribe_index_stats shows which namespaces hold records.');
  });

  test("hybrid: a dense and a sparse vector together on a dotproduct index", async () => {
    await upsert("empty", "hybrid", [
      { id: "h1", values: [1, 0, 0], sparseValues: { indices: [7], values: [3] } },
      { id: "h2", values: [2, 0, 0] },
    ]);
    const r = await mcp.call("query_vectors", { index: "empty", namespace: "hybrid", vector: [1, 0, 0], sparseVector: { indices: [7], values: [1] }, topK: 2 });
    expect(r.text).toBe(table('2 matches in namespace "hybrid" of index "empty", best first:', "", "| rank | id | score | metadata |", "| --- | --- | --- | --- |", "| 1 | h1 | 4 |  |", "| 2 | h2 | 2 |  |"));
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    [
      "a query vector of the wrong dimension",
      { index: "docs", vector: [1, 0, 0], topK: 3 },
      `The query vector has 3 values, but index "docs" has dimension 4. ${nothingWas("read")}\n` +
        "Next step: query with a vector of exactly 4 numbers, made by the same embedding model as the stored records.",
    ],
    [
      "a dense vector for a sparse index",
      { index: "sparse", vector: [1, 2], topK: 3 },
      `Index "sparse" is sparse: it has no dense dimension. ${nothingWas("read")}\nNext step: query it with sparseVector (indices and values) instead of vector.`,
    ],
    [
      "vector and id both given",
      { index: "docs", vector: [1, 0, 0, 0], id: "a", topK: 3 },
      `Give either a query vector or the id of a stored record, not both: this call has vector and id. ${nothingWas("read")}\n` +
        'Next step: call again without id to search with the vector, or without vector to search with record "a"\'s own values.',
    ],
    [
      "sparseVector and id both given",
      { index: "sparse", sparseVector: { indices: [1], values: [1] }, id: "s1", topK: 3 },
      `Give either a query vector or the id of a stored record, not both: this call has sparseVector and id. ${nothingWas("read")}\n` +
        'Next step: call again without id to search with the sparseVector, or without sparseVector to search with record "s1"\'s own values.',
    ],
    [
      "neither vector nor id",
      { index: "docs", topK: 3 },
      `Nothing to search with: give vector (a dense vector of the index's dimension), sparseVector, or id (a stored record's id). ${nothingWas("read")}\n` +
        "Next step: call again with one of them.",
    ],
    [
      "sparse indices and values of different lengths",
      { index: "sparse", sparseVector: { indices: [1, 2], values: [1] }, topK: 3 },
      `sparseVector has 2 indices but 1 values; they must be the same length. ${nothingWas("read")}`,
    ],
    [
      "a filter with an unknown operator",
      { index: "docs", vector: [1, 0, 0, 0], topK: 3, filter: { genre: { $regex: "^s" } } },
      `Invalid filter: unknown operator "$regex" on field "genre". ${nothingWas("read")}\n` +
        'Next step: write the filter with the operators $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists (and $and / $or to combine), e.g. {"genre": {"$eq": "drama"}, "year": {"$gte": 2020}}, and call again.',
    ],
    [
      "a filter the service refuses",
      { index: "docs", vector: [1, 0, 0, 0], topK: 3, filter: { genre: { $in: "sf" } } },
      "query_vectors failed — the service answered HTTP 400: \"Invalid filter: operator $in on field 'genre' needs a list of strings, numbers or booleans, got the string 'sf'\"\n" +
        "Next step: Correct the request as the message says and call again.",
    ],
    [
      "a topK of 0",
      { index: "docs", vector: [1, 0, 0, 0], topK: 0 },
      `MCP error -32602: Input validation error: Invalid arguments for tool query_vectors: topK is 0: must be a whole number from 1 to 10000. ${nothingWas("read")} at topK`,
    ],
    [
      "a topK of 10001",
      { index: "docs", vector: [1, 0, 0, 0], topK: 10001 },
      `MCP error -32602: Input validation error: Invalid arguments for tool query_vectors: topK is 10001: must be a whole number from 1 to 10000. ${nothingWas("read")} at topK`,
    ],
    [
      "an unknown index",
      { index: "nope", vector: [1, 0, 0, 0], topK: 3 },
      "query_vectors failed — the service answered HTTP 404 NOT_FOUND: \"Index nope not found.\"\n" +
        `Next step: ${listingStep("index")}`,
    ],
  ];
  test.each(refusals)("%s: the exact text", async (_name, args, text) => {
    const r = await mcp.call("query_vectors", args);
    expect(r.isError).toBe(true);
    expect(r.text).toBe(text);
  });

  test("150 matches: every one in the text and in structuredContent, none cut", async () => {
    await upsert("empty", "many", Array.from({ length: 150 }, (_, i) => ({ id: `m${String(i).padStart(3, "0")}`, values: [150 - i, 0, 0] })));
    const r = await mcp.call("query_vectors", { index: "empty", namespace: "many", vector: [1, 0, 0], topK: 150 });
    const lines = r.text.split("\n");
    expect(lines[0]).toBe('150 matches in namespace "many" of index "empty", best first:');
    expect(lines.filter((l) => /^\| \d+ \|/.test(l))).toHaveLength(150);
    expect(lines.at(-1)).toBe("| 150 | m149 | 1 |  |");
    expect((r.structured as any).matches).toHaveLength(150);
    expect((r.structured as any).matches[149]).toEqual({ id: "m149", score: 1 });
    expect((r.structured as any).note).toBeUndefined();
  });

  test("many metadata keys: all of them, whole", async () => {
    const metadata = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, `v${i}`]));
    await upsert("empty", "wide", [{ id: "w", values: [1, 0, 0], metadata }]);
    const r = await mcp.call("query_vectors", { index: "empty", namespace: "wide", vector: [1, 0, 0], topK: 1 });
    expect(r.text).toBe(
      table('1 match in namespace "wide" of index "empty", best first:', "", "| rank | id | score | metadata |", "| --- | --- | --- | --- |", `| 1 | w | 1 | ${JSON.stringify(metadata)} |`),
    );
    expect((r.structured as any).matches[0].metadata).toEqual(metadata);
  });

  test("5 matches with 3 KB metadata values: every value whole in the text and in structuredContent", async () => {
    const text = (i: number) => `${i}:` + "lorem ipsum ".repeat(256);
    await upsert("empty", "rag", Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, values: [5 - i, 1, 0], metadata: { text: text(i) } })));
    const r = await mcp.call("query_vectors", { index: "empty", namespace: "rag", vector: [1, 0, 0], topK: 5 });
    expect(r.isError).toBe(false);
    for (let i = 0; i < 5; i++) expect(r.text).toContain(`{"text":"${text(i)}"}`);
    expect((r.structured as any).matches.map((m: any) => m.metadata.text)).toEqual(Array.from({ length: 5 }, (_, i) => text(i)));
  });

  test("past the result budget: the first matches whole, the rest left out, and a note in both channels with the call that reads them", async () => {
    const big = "lorem ipsum ".repeat(600);
    await upsert("empty", "budget", Array.from({ length: 8 }, (_, i) => ({ id: `big${i}`, values: [8 - i, 1, 0], metadata: { text: big } })));
    const r = await mcp.call("query_vectors", { index: "empty", namespace: "budget", vector: [1, 0, 0], topK: 8 });
    const s = r.structured as any;
    expect(s.matches.map((m: any) => m.id)).toEqual(["big0", "big1", "big2"]);
    expect(s.matches.every((m: any) => m.metadata.text === big)).toBe(true);
    const note =
      "Matches 4–8 were left out: with their metadata they would pass this result's budget of 10,000 tokens (--max-result-tokens). " +
      'Next step: fetch_vectors {"index": "empty", "namespace": "budget", "ids": ["big3","big4","big5","big6","big7"]} reads the rest, ' +
      'or the same query with "includeMetadata": false gives all 8 by id and score.';
    expect(s.note).toBe(note);
    expect(r.text.split("\n")[0]).toBe('3 of 8 matches in namespace "budget" of index "empty", best first:');
    expect(r.text.endsWith(`\n\n${note}`)).toBe(true);
    expect(r.text).toMatch(new RegExp(`\\| 3 \\| big2 \\| [0-9.]+ \\| \\{"text":"${big}"\\} \\|\\n\\n`));
  });

  test("euclidean: the text says lower scores are closer", async () => {
    const r = await mcp.call("query_vectors", { index: "pods", vector: [0, 0], topK: 1 });
    expect(r.text.split("\n")[0]).toBe('1 match in namespace "__default__" of index "pods", best first (euclidean: lower scores are closer):');
  });

  test("topK 10000 is allowed", async () => {
    const r = await mcp.call("query_vectors", { index: "pods", vector: [0, 0], topK: 10000 });
    expect(r.text).toBe(
      table('2 matches in namespace "__default__" of index "pods", best first (euclidean: lower scores are closer):', "", "| rank | id | score | metadata |", "| --- | --- | --- | --- |", "| 1 | p1 | 0 |  |", "| 2 | p2 | 25 |  |"),
    );
  });
});
