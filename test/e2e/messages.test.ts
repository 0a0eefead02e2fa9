// The messages of issue 18's point 6, pinned exactly: each names the real cause. The built server over stdio.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { createIndex, indexStats, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";

let svc: RunningService;
let mcp: McpSession;
let host = "";

beforeAll(async () => {
  svc = await startServiceProcess();
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-destructive"] });
  host = (await createIndex(svc, { name: "docs", dimension: 4, spec: serverless })).host;
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
});

test("numbers sent as strings: the item named, not the list's length rule", async () => {
  const r = await mcp.call("upsert_vectors", { index: "docs", vectors: [{ id: "a", values: [0.1, 0.2, 0.3, 0.4] }, { id: "b", values: [0.1, 0.2, 0.3, "0.1"] }] });
  expect(r.isError).toBe(true);
  expect(r.text).toContain(`record at position 1, values[3] is a string "0.1", not a number. ${nothingWas("written")}`);
  const q = await mcp.call("query_vectors", { index: "docs", vector: "0.1,0.2", topK: 1 });
  expect(q.text).toContain(`vector is a string "0.1,0.2", not a list of numbers. ${nothingWas("read")}`);
  expect((await indexStats(svc, host)).totalVectorCount).toBe(0);
});

test("`records` instead of `vectors`: the unknown key named, with the names there are", async () => {
  const r = await mcp.call("upsert_vectors", { index: "docs", records: [{ id: "a", values: [1, 2, 3, 4] }] });
  expect(r.text).toBe(`Unknown argument "records" — upsert_vectors takes "index", "namespace", "vectors". ${nothingWas("written")}`);
});

test("a service error without the stray gRPC code", async () => {
  const r = await mcp.call("query_vectors", { index: "docs", vector: [1, 0, 0, 0], topK: 3, filter: { genre: { $in: "sf" } } });
  expect(r.text.split("\n")[0]).toBe(
    "query_vectors failed — the service answered HTTP 400: \"Invalid filter: operator $in on field 'genre' needs a list of strings, numbers or booleans, got the string 'sf'\"",
  );
});

test("a delete in a namespace that holds nothing says so and names the namespaces that do", async () => {
  expect((await mcp.call("upsert_vectors", { index: "docs", namespace: "books", vectors: [{ id: "a", values: [1, 2, 3, 4] }] })).isError).toBe(false);
  const r = await mcp.call("delete_vectors", { index: "docs", namespace: "book", deleteAll: true });
  expect(r.isError).toBe(false);
  expect(r.text).toBe(
    'Namespace "book" of index "docs" holds no records: nothing was deleted.\n\nThe namespaces that hold records: "books" (1).\n' +
      "Next step: call delete_vectors again with the right namespace.",
  );
  expect(r.structured).toMatchObject({ by: "deleteAll", before: 0, after: 0, removed: 0 });
  expect((await indexStats(svc, host)).totalVectorCount).toBe(1);
});

test("an upsert to a missing index suggests create_index", async () => {
  const r = await mcp.call("upsert_vectors", { index: "nope", vectors: [{ id: "a", values: [1, 2, 3, 4] }] });
  expect(r.text).toBe(
    "upsert_vectors failed — the service answered HTTP 404 NOT_FOUND: \"Index nope not found.\"\n" +
      "Next step: Call list_indexes to see the indexes there are, then call again with one of them, or create the index first (create_index; create_index_for_model for records of text).",
  );
});

test("under --indexes, an empty list says the allow-list hides the rest; the instructions name the reading tools", async () => {
  const limited = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--indexes", "later,other"] });
  try {
    const r = await limited.call("list_indexes");
    expect(r.structured).toEqual({ indexes: [] });
    expect(r.text).toBe('None of the indexes this server is limited to ("later", "other") exists yet; any other index is hidden by --indexes.');
    expect(limited.client.getInstructions()).toContain(
      "To store your own embeddings (not for text): upsert_vectors, import_vectors, query_vectors, fetch_vectors, list_vector_ids, fetch_by_metadata, update_vectors.",
    );
  } finally {
    await limited.close();
  }
});

test("under --read-only, no answer points at a tool that is not there", async () => {
  await createIndex(svc, { name: "void", dimension: 2, spec: serverless });
  const ro = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--read-only"] });
  try {
    const stats = await ro.call("describe_index_stats", { index: "void" });
    expect(stats.text).toBe('Index "void" (dimension 2, cosine, fullness 0%): 0 records in 0 namespaces. The index is empty.');
    const collections = await ro.call("list_collections");
    expect(collections.text).toBe("There are no collections in this project yet.");
    const names = ro.tools.map((t) => t.name);
    for (const text of [stats.text, collections.text]) {
      for (const tool of text.match(/\b[a-z]+_[a-z_]+\b/g) ?? []) expect(names, text).toContain(tool);
    }
  } finally {
    await ro.close();
  }
});
