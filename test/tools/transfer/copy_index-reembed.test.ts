// copy_index re-embedding on the way: text records of a local-bm25 index copied into a new index of a dense model
// (the project's OpenAI-compatible embeddings test server, offered by both local services through --embed-url); the
// target answers a text search, ids and fields kept; a record with no text is skipped, and the result says why.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startEmbeddingsServer, TEST_DIM, TEST_MODEL, type EmbeddingsServer } from "../../helpers/embeddings-server.js";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/until.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, dataUrl, fetchVectors } from "../../e2e/support.js";

let embedder: EmbeddingsServer;
let main: RunningService;
let other: RunningService;
let mcp: McpSession;

const NOTES = [
  { _id: "n1", body: "the harbour ferry leaves at dawn", topic: "travel" },
  { _id: "n2", body: "sourdough needs a warm kitchen and patience", topic: "baking" },
  { _id: "n3", body: "tomatoes ripen late in a cold summer", topic: "garden" },
  { _id: "n4", body: "the violin lesson moved to thursday", topic: "music" },
];

beforeAll(async () => {
  embedder = await startEmbeddingsServer();
  [main, other] = await Promise.all([startServiceProcess({ args: ["--embed-url", embedder.url] }), startServiceProcess({ args: ["--embed-url", embedder.url] })]);
  const created = await api(main, "POST", "/indexes/create-for-model", { name: "notes", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "body" } } });
  expect(created.status).toBe(201);
  const host = created.body.host as string;
  await until(async () => (await api(main, "GET", "/indexes/notes")).body.status.ready === true, "index notes to be ready");
  const ndjson = NOTES.map((n) => JSON.stringify(n)).join("\n");
  const res = await fetch(`${dataUrl(host)}/records/namespaces/journal/upsert`, {
    method: "POST",
    headers: { "Api-Key": main.apiKey, "X-Pinecone-API-Version": "2026-04", "Content-Type": "application/x-ndjson" },
    body: ndjson,
  });
  expect(res.status).toBe(201);
  mcp = await startMcp({
    env: {
      PINECONE_API_KEY: main.apiKey,
      PINECONE_CONTROLLER_HOST: main.controlUrl,
      VECDB_OTHER_API_KEY: other.apiKey,
      VECDB_OTHER_HOST: other.controlUrl,
      VECDB_DATA_DIR: mkdtempSync(join(tmpdir(), "vecdb-copy-reembed-")),
    },
  });
});

afterAll(async () => {
  await mcp?.close();
  await main?.stop();
  await other?.stop();
  await embedder?.close();
});

test("copy_index re-embeds local-bm25 text records by a dense model into a new index, which answers a text search; ids and fields kept", async () => {
  const copy = await mcp.call("copy_index", { to: "other", index: "notes", targetIndex: "notes-dense", createTarget: true, targetModel: TEST_MODEL });
  expect(copy.isError, copy.text).toBe(false);
  expect(copy.structured).toMatchObject({
    how: `re-embedded by "${TEST_MODEL}" from the text of the field "body"; ids and other fields kept`,
    targetCreated: true,
    complete: true,
  });
  expect(copy.structured!.namespaces).toEqual([{ namespace: "journal", sourceRecords: 4, copied: 4, copiedBefore: 0, alreadyThere: 0, skipped: 0, failed: 0, complete: true }]);
  expect(copy.text).toContain(`The target index was created (model "${TEST_MODEL}").`);

  const target = (await api(other, "GET", "/indexes/notes-dense")).body;
  expect(target).toMatchObject({ dimension: TEST_DIM, embed: { model: TEST_MODEL, field_map: { text: "body" } } });
  const stored = await fetchVectors(other, target.host, NOTES.map((n) => n._id), "journal");
  for (const n of NOTES) {
    expect(stored[n._id].metadata).toEqual({ body: n.body, topic: n.topic });
    expect(stored[n._id].values).toHaveLength(TEST_DIM);
  }
  const search = await api(other, "POST", `${dataUrl(target.host)}/records/namespaces/journal/search`, { query: { inputs: { text: "harbour ferry dawn" }, top_k: 2 } });
  expect(search.status).toBe(200);
  expect(search.body.result.hits[0]).toMatchObject({ _id: "n1", fields: { body: NOTES[0].body, topic: "travel" } });

  // Called again: the fields on the target are the source's, so nothing is embedded or written again.
  const embedded = embedder.requests.filter((r) => r.path === "/v1/embeddings").length;
  const again = await mcp.call("copy_index", { to: "other", index: "notes", targetIndex: "notes-dense" });
  expect(again.structured!.namespaces).toEqual([{ namespace: "journal", sourceRecords: 4, copied: 0, copiedBefore: 0, alreadyThere: 4, skipped: 0, failed: 0, complete: true }]);
  expect(embedder.requests.filter((r) => r.path === "/v1/embeddings").length).toBe(embedded);
});

test("copy_index into an index that embeds text, from one that embeds none: the text comes from the target's field; a record without it is skipped, saying why", async () => {
  const plain = await api(main, "POST", "/indexes", { name: "plain", dimension: 3, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
  expect(plain.status).toBe(201);
  await until(async () => (await api(main, "GET", "/indexes/plain")).body.status.ready === true, "index plain to be ready");
  const up = await api(main, "POST", `${dataUrl(plain.body.host)}/vectors/upsert`, {
    vectors: [
      { id: "p1", values: [1, 0, 0], metadata: { body: "ferry timetable for the harbour" } },
      { id: "p2", values: [0, 1, 0], metadata: { title: "no text here" } },
    ],
  });
  expect(up.status).toBe(200);
  const copy = await mcp.call("copy_index", { to: "other", index: "plain", targetIndex: "notes-dense" });
  expect(copy.structured!.namespaces).toEqual([{ namespace: "", sourceRecords: 2, copied: 1, copiedBefore: 0, alreadyThere: 0, skipped: 1, failed: 0, complete: true }]);
  expect(copy.text).toContain(`Skipped:\n- "p2" has no text in its field "body" for the target's model to embed`);
});
