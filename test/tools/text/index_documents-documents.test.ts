// index_documents into a documents index (full-text search, API 2026-07): the built server over stdio, the local
// service with the test embeddings server. A folder's chunks become documents whose "text" field is searched by
// words and phrases, and by meaning through the index's meaning field; a second run sends only what changed and
// deletes the chunks of a removed file.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { startEmbeddingsServer, TEST_MODEL, type EmbeddingsServer } from "../../helpers/embeddings-server.js";

let svc: RunningService;
let mcp: McpSession;
let embedder: EmbeddingsServer;
let base: string;
let notes: string;

beforeAll(async () => {
  embedder = await startEmbeddingsServer();
  svc = await startServiceProcess({ args: ["--embed-url", embedder.url] });
  base = mkdtempSync(join(tmpdir(), "vecdb-docs-fulltext-"));
  notes = join(base, "allowed", "notes");
  mkdirSync(join(notes, "garden"), { recursive: true });
  writeFileSync(join(notes, "setup.md"), "# Setup\n\n## Linux\n\nOn Linux the zephyrine package holds everything; install it with apt.\n\n## Windows\n\nRun the installer and restart.");
  writeFileSync(join(notes, "garden", "roses.md"), "# Roses\n\nPrune the roses in late winter before the buds swell.");
  writeFileSync(join(notes, "tides.txt"), "The midnight tide turns at the old harbor wall.");
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", join(base, "allowed")] });
  const made = await mcp.call("create_documents_index", { name: "folder", textFields: ["text"], meaning: { model: TEST_MODEL } });
  if (made.isError) throw new Error(made.text);
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  await embedder?.close();
  rmSync(base, { recursive: true, force: true });
});

const run = () => mcp.call("index_documents", { index: "folder", paths: ["notes"], chunkSize: 200, chunkOverlap: 0 });
const search = (args: Record<string, unknown>) => mcp.call("search_documents", { index: "folder", topK: 3, ...args });
const ids = (r: { structured?: Record<string, unknown> }) => (r.structured as { hits: { id: string }[] }).hits.map((h) => h.id);

describe("index_documents into a documents index", () => {
  test("the folder's chunks are found by a phrase, by words and by meaning", async () => {
    const r = await run();
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ files: 3, chunks: 5, added: 5, changed: 0, unchanged: 0, pruned: 0, upserted: 5 });
    expect((r.structured as { note: string }).note).toBe(
      `The documents are in step with index "folder". Next step: search_documents finds them by words and phrases in field "text", and by meaning (${TEST_MODEL}).`,
    );
    const phrase = await search({ words: "old harbor wall", match: "phrase" });
    expect(ids(phrase)).toEqual(["/allowed/notes/tides.txt#1"]);
    expect(phrase.text).toContain("| /allowed/notes/tides.txt#1 |");
    expect(phrase.text).toContain("The midnight tide turns at the old harbor wall.");
    expect(ids(await search({ words: "zephyrine apt", match: "all" }))).toEqual(["allowed/notes/setup.md#2"]);
    expect(ids(await search({ meaning: "Prune the roses in late winter before the buds swell." }))[0]).toBe("/allowed/notes/garden/roses.md#1");
    expect(ids(await search({ words: "roses", filter: { source: "allowed/notes/setup.md" } }))).toEqual([]);
  });

  test("a second run sends only what changed and prunes a removed file's chunks", async () => {
    writeFileSync(join(notes, "tides.txt"), "The morning tide turns at the old harbor wall.");
    unlinkSync(join(notes, "garden", "roses.md"));
    const r = await run();
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ files: 2, chunks: 4, added: 0, changed: 1, unchanged: 3, pruned: 1, upserted: 1 });
    expect(ids(await search({ words: "morning tide", match: "phrase" }))).toEqual(["/allowed/notes/tides.txt#1"]);
    expect(ids(await search({ words: "midnight" }))).toEqual([]);
    expect(ids(await search({ words: "roses" }))).toEqual([]);
    const again = await run();
    expect(again.structured).toMatchObject({ added: 0, changed: 0, unchanged: 4, pruned: 0, upserted: 0 });
  });
});
