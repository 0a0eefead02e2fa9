// The reading tools end to end: the built server over stdio against the local service. Every structuredContent is
// checked against the tool's outputSchema by the session (test/helpers/mcp-client.ts); texts are checked exactly.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { createServer } from "node:net";
import { api, createIndex, pod, serverless, startProxy } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";
import { listingStep } from "../../src/tool-kit/missing-resource.js";
import { refusalOf } from "../helpers/refusal.js";
import { undescribed } from "../helpers/listed-schema.js";

let svc: RunningService;
let mcp: McpSession;
const host: Record<string, string> = {};
const BLURB = "z".repeat(60);

const table = (...lines: string[]) => lines.join("\n");

async function upsert(index: string, namespace: string | undefined, vectors: Record<string, unknown>[]) {
  const r = await mcp.call("upsert_vectors", { index, ...(namespace !== undefined && { namespace }), vectors });
  if (r.isError) throw new Error(`seeding ${index}: ${r.text}`);
}

async function untilReady(index: string) {
  for (let i = 0; i < 200; i++) {
    if ((await api(svc, "GET", `/indexes/${index}`)).body?.status?.ready) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${index} never became ready`);
}

beforeAll(async () => {
  svc = await startServiceProcess();
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
  host.docs = (await createIndex(svc, { name: "docs", dimension: 4, metric: "cosine", spec: serverless })).host;
  host.pods = (await createIndex(svc, { name: "pods", dimension: 2, metric: "euclidean", spec: pod })).host;
  host.sparse = (await createIndex(svc, { name: "sparse", metric: "dotproduct", vector_type: "sparse", spec: serverless })).host;
  host.empty = (await createIndex(svc, { name: "empty", dimension: 3, metric: "dotproduct", spec: serverless })).host;
  await upsert("docs", "books", [
    { id: "a", values: [1, 0, 0, 0], metadata: { genre: "sf", year: 1965, tags: ["x", "y"], blurb: BLURB } },
    { id: "b", values: [0, 1, 0, 0], metadata: { genre: "drama", year: 2001 } },
    { id: "c", values: [1, 1, 0, 0] },
  ]);
  await upsert("docs", undefined, [{ id: "d1", values: [0, 0, 1, 0], metadata: { genre: "sf" } }]);
  await upsert("pods", undefined, [
    { id: "p1", values: [0, 0] },
    { id: "p2", values: [3, 4] },
  ]);
  await upsert("sparse", "kw", [
    { id: "s1", sparseValues: { indices: [1, 5], values: [1, 2] }, metadata: { kind: "k" } },
    { id: "s2", sparseValues: { indices: [5], values: [1] } },
  ]);
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
});

test("the six reading tools are listed, titled and annotated read-only", () => {
  const reading = ["describe_index", "describe_index_stats", "query_vectors", "fetch_vectors", "list_vector_ids", "describe_collection"];
  const listed = mcp.tools.filter((t) => reading.includes(t.name));
  expect(listed.map((t) => t.name)).toEqual(reading);
  for (const t of listed) {
    expect(t.title, t.name).toBeTruthy();
    expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(t.outputSchema, t.name).toBeDefined();
    expect(JSON.stringify(t.inputSchema), t.name).not.toMatch(/anyOf|oneOf|allOf/);
  }
  // Every field, nested ones too, is described for the model unless its name and schema say what it takes.
  for (const t of listed) expect(undescribed(t.inputSchema), t.name).toEqual([]);
  const limits = (tool: string, field: string) => (mcp.tools.find((t) => t.name === tool)!.inputSchema.properties as any)[field];
  expect(limits("query_vectors", "topK")).toMatchObject({ minimum: 1, maximum: 10000 });
  expect(limits("fetch_vectors", "ids")).toMatchObject({ maxItems: 1000 }); // minItems 1 is left out, as minLength 1
  expect(limits("list_vector_ids", "limit")).toMatchObject({ minimum: 1, maximum: 100 });
});

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
        dimension: 4,
        metric: "cosine",
        vectorType: "dense",
        host: host.docs,
        state: "Ready",
        ready: true,
        deletionProtection: "disabled",
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

describe("list_vector_ids", () => {
  test("pages through every id with the paginationToken it returns", async () => {
    const first = await mcp.call("list_vector_ids", { index: "docs", namespace: "books", limit: 2 });
    const token = (first.structured as any).paginationToken as string;
    expect(typeof token).toBe("string");
    const more = `More ids follow: call list_vector_ids again with paginationToken ${JSON.stringify(token)} (and the same index, namespace and prefix) for the next page.`;
    expect(first.structured).toEqual({ index: "docs", namespace: "books", ids: ["a", "b"], paginationToken: token, note: more });
    expect(first.text).toBe(
      table(
        '2 ids in namespace "books" of index "docs":',
        "",
        "| id |",
        "| --- |",
        "| a |",
        "| b |",
        "",
        `More ids follow: call list_vector_ids again with paginationToken ${JSON.stringify(token)} (and the same index, namespace and prefix) for the next page.`,
      ),
    );
    const second = await mcp.call("list_vector_ids", { index: "docs", namespace: "books", limit: 2, paginationToken: token });
    expect(second.structured).toEqual({ index: "docs", namespace: "books", ids: ["c"], note: "That was the last page." });
    expect(second.text).toBe(table('1 id in namespace "books" of index "docs":', "", "| id |", "| --- |", "| c |", "", "That was the last page."));
  });

  test("a prefix, the default namespace, and an empty result", async () => {
    await upsert("empty", "chunks", [
      { id: "doc1#1", values: [1, 0, 0] },
      { id: "doc1#2", values: [1, 0, 0] },
      { id: "doc2#1", values: [1, 0, 0] },
    ]);
    const r = await mcp.call("list_vector_ids", { index: "empty", namespace: "chunks", prefix: "doc1#" });
    expect(r.text).toBe(table('2 ids in namespace "chunks" of index "empty" starting with "doc1#":', "", "| id |", "| --- |", "| doc1#1 |", "| doc1#2 |", "", "That is all of them."));
    const d = await mcp.call("list_vector_ids", { index: "docs" });
    expect(d.structured).toEqual({ index: "docs", namespace: "", ids: ["d1"], note: "That is all of them." });
    const none = await mcp.call("list_vector_ids", { index: "docs", namespace: "books", prefix: "q" });
    expect(none.text).toBe('No ids in namespace "books" of index "docs" starting with "q".\n\ndescribe_index_stats shows which namespaces hold records.');
  });

  test("a pod-based index: refused as the service refuses it, with what to use instead", async () => {
    const r = await mcp.call("list_vector_ids", { index: "pods" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `Index "pods" is pod-based, and the service lists record ids only in serverless indexes. ${nothingWas("read")}\n` +
        "Next step: fetch_vectors reads records whose ids you know; query_vectors finds records by vector or metadata filter; describe_index_stats counts them per namespace.",
    );
    const onService = await api(svc, "GET", `http://${host.pods}/vectors/list`);
    expect(onService).toEqual({
      status: 400,
      body: { code: 3, message: "List operation is not supported for pod-based indexes. Use a serverless index to list record ids.", details: [] },
    });
  });

  test.each([
    ["a limit of 0", { index: "docs", limit: 0 }, "MCP error -32602: Input validation error: Invalid arguments for tool list_vector_ids: limit is 0: must be a whole number from 1 to 100. at limit"],
    ["a limit of 101", { index: "docs", limit: 101 }, "MCP error -32602: Input validation error: Invalid arguments for tool list_vector_ids: limit is 101: must be a whole number from 1 to 100. at limit"],
    [
      "a token the service did not issue",
      { index: "docs", paginationToken: "not a token!" },
      "list_vector_ids failed — the service answered HTTP 400: \"paginationToken is not a token this service issued\"\nNext step: Correct the request as the message says and call again.",
    ],
  ])("%s: the exact text", async (_name, args, text) => {
    const r = await mcp.call("list_vector_ids", args);
    expect(r.isError).toBe(true);
    expect(r.text).toBe(text);
  });
});

describe("describe_collection", () => {
  test("a collection's record, once Ready", async () => {
    const res = await api(svc, "POST", "/collections", { name: "pods-snap", source: "pods" });
    expect(res.status).toBe(201);
    let r = await mcp.call("describe_collection", { collection: "pods-snap" });
    for (let i = 0; i < 400 && (r.structured as any).collection.status !== "Ready"; i++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await mcp.call("describe_collection", { collection: "pods-snap" });
    }
    const c = (r.structured as any).collection;
    expect(c).toMatchObject({ name: "pods-snap", status: "Ready", environment: "us-east1-gcp", dimension: 2, vectorCount: 2 });
    const size = c.size < 1000 ? `${c.size} B` : `${Math.round(c.size / 100) / 10} kB`;
    expect(r.text).toBe(
      table(
        'Collection "pods-snap":',
        "",
        "| field | value |",
        "| --- | --- |",
        "| name | pods-snap |",
        "| status | Ready |",
        "| environment | us-east1-gcp |",
        "| dimension | 2 |",
        "| records | 2 |",
        `| size | ${size} (${c.size} bytes) |`,
      ),
    );
  });

  test("an unknown collection: 404 and list_collections", async () => {
    const r = await mcp.call("describe_collection", { collection: "nope" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "describe_collection failed — the service answered HTTP 404 NOT_FOUND: \"Collection nope not found.\"\n" +
        `Next step: ${listingStep("collection")}`,
    );
  });
});

describe("an index host that moved: forgotten and resolved again once", () => {
  /** A loopback port nothing listens on. */
  const deadPort = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });

  test.each(["answers 404", "refuses connections"])("the first host %s; the call lands on the new one", async (how) => {
    const stale =
      how === "answers 404"
        ? await startProxy({ target: svc.controlUrl, fault: () => ({ status: 404, body: '{"code":5,"message":"Index docs not found.","details":[]}' }) })
        : undefined;
    const staleHost = stale?.host ?? `127.0.0.1:${await deadPort()}`;
    let describes = 0;
    // The control plane names the stale host the first time it describes "docs", the real one after that.
    const control = await startProxy({
      target: svc.controlUrl,
      rewrite: (body) => (body.includes(`"${host.docs}"`) && describes++ === 0 ? body.replaceAll(host.docs, staleHost) : body),
    });
    const session = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url, VECDB_RETRIES: "0" } });
    try {
      const r = await session.call("fetch_vectors", { index: "docs", namespace: "books", ids: ["b"], includeValues: true });
      expect(r.isError).toBe(false);
      expect((r.structured as any).vectors).toEqual([{ id: "b", dimension: 4, values: [0, 1, 0, 0], metadata: { genre: "drama", year: 2001 } }]);
      expect(control.requests.filter((q) => q.path === "/indexes/docs").length).toBe(2);
      if (stale) expect(stale.requests.map((q) => q.status)).toEqual([404]);
      // The fresh host is cached: the next call asks the control plane nothing.
      await session.call("list_vector_ids", { index: "docs", namespace: "books" });
      expect(control.requests.filter((q) => q.path === "/indexes/docs").length).toBe(2);
    } finally {
      await session.close();
      await control.close();
      await stale?.close();
    }
  });
});

test("an index created again elsewhere with another dimension: a query of the new dimension is not refused by the cached one", async () => {
  await createIndex(svc, { name: "again", dimension: 3, metric: "cosine", spec: serverless });
  expect((await mcp.call("describe_index_stats", { index: "again" })).isError).toBe(false); // caches dimension 3
  expect((await api(svc, "DELETE", "/indexes/again")).status).toBe(202);
  for (let i = 0; i < 400 && (await api(svc, "GET", "/indexes/again")).status !== 404; i++) await new Promise((r) => setTimeout(r, 50));
  await createIndex(svc, { name: "again", dimension: 2, metric: "cosine", spec: serverless });
  const r = await mcp.call("query_vectors", { index: "again", vector: [1, 0], topK: 1 });
  expect(r.isError, r.text).toBe(false);
  expect(r.text).toContain('No matches in namespace "__default__" of index "again".');
});

test("an index that is not ready: refused with the next step", async () => {
  const control = await startProxy({
    target: svc.controlUrl,
    rewrite: (body) => body.replace(/"ready":\s*true/g, '"ready":false').replace(/"state":\s*"Ready"/g, '"state":"Initializing"'),
  });
  const session = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url } });
  try {
    for (const [tool, args] of [
      ["query_vectors", { index: "docs", vector: [1, 0, 0, 0], topK: 1 }],
      ["fetch_vectors", { index: "docs", ids: ["d1"] }],
      ["list_vector_ids", { index: "docs" }],
      ["describe_index_stats", { index: "docs" }],
    ] as const) {
      const r = await session.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(refusalOf(r.text), tool).toEqual({
        problem: 'Index "docs" is not ready (state Initializing)',
        untouched: "read",
        next: "wait a little and call again; list_indexes shows when it is Ready.",
      });
    }
  } finally {
    await session.close();
    await control.close();
  }
});

test("the API key appears in no result and no stderr line", () => {
  expect(mcp.transcript()).not.toContain(svc.apiKey);
  expect(mcp.stderr()).not.toContain(svc.apiKey);
});
