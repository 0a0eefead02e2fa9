// The text tools under the safe modes (--read-only hides the writes; --indexes limits every tool that names an index,
// search_indexes' list too), and the embedded local service with VECDB_EMBED_URL offering the server's models.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { startEmbeddingsServer, TEST_MODEL, type EmbeddingsServer } from "../helpers/embeddings-server.js";
import { api } from "./support.js";
import { refusalOf } from "../helpers/refusal.js";
import type { Untouched } from "../../src/tool-kit/refusal.js";

let svc: RunningService;
const open: McpSession[] = [];
const TEXT_WRITES = ["create_index_for_model", "upsert_records"];
const TEXT_READS = ["search_records", "search_indexes", "embed_texts", "rerank_documents", "list_models"];

async function server(args: string[], env: Record<string, string> = {}): Promise<McpSession> {
  const mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, ...env }, args });
  open.push(mcp);
  return mcp;
}

beforeAll(async () => {
  svc = await startServiceProcess();
  for (const name of ["seen", "unseen"]) {
    const r = await api(svc, "POST", "/indexes/create-for-model", { name, cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "text" } } });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  for (const m of open) await m.close();
  await svc?.stop();
});

describe("safe modes", () => {
  test("--read-only: the text writes are hidden and refused by name; searching and the models remain", async () => {
    const mcp = await server(["--read-only"]);
    const names = mcp.tools.map((t) => t.name);
    for (const t of TEXT_WRITES) expect(names).not.toContain(t);
    for (const t of TEXT_READS) expect(names).toContain(t);
    const r = await mcp.call("upsert_records", { index: "seen", records: [{ _id: "a", text: "x" }] });
    expect(r.text).toMatch(/^upsert_records is not available: this server runs read-only/);
  });

  test("--indexes: other indexes are refused by every text tool, inside search_indexes' list too", async () => {
    const mcp = await server(["--indexes", "seen"]);
    const refusal = (untouched: Untouched) => ({
      problem: 'Index "unseen" is not available: this server is limited to the indexes "seen" (--indexes / VECDB_INDEXES)',
      untouched,
      next: "call again with one of those indexes.",
    });
    expect(refusalOf((await mcp.call("upsert_records", { index: "unseen", records: [{ _id: "a", text: "x" }] })).text)).toEqual(refusal("written"));
    expect(refusalOf((await mcp.call("search_records", { index: "unseen", query: { text: "x", topK: 1 } })).text)).toEqual(refusal("read"));
    expect(refusalOf((await mcp.call("create_index_for_model", { name: "unseen", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } })).text)).toEqual(refusal("written"));
    const multi = await mcp.call("search_indexes", {
      indexes: [{ index: "seen" }, { index: "unseen" }],
      query: { text: "x", topK: 1 },
      rerank: { model: "local-bm25-rerank", rankFields: ["text"] },
    });
    expect(refusalOf(multi.text)).toEqual(refusal("read"));
    const ok = await mcp.call("upsert_records", { index: "seen", records: [{ _id: "a", text: "x" }] });
    expect(ok.isError).toBe(false);
  });
});

describe("the embedded local service with VECDB_EMBED_URL", () => {
  let embedder: EmbeddingsServer;
  let dataDir: string;
  beforeAll(async () => {
    embedder = await startEmbeddingsServer();
    dataDir = mkdtempSync(join(tmpdir(), "vecdb-text-embedded-"));
  });
  afterAll(async () => {
    await embedder?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("no key: the embedded service offers the server's models; the key goes to it as a bearer token", async () => {
    // The shared service this server starts stops a second after the server leaves (no process left behind).
    const mcp = await startMcp({ env: { VECDB_DATA_DIR: dataDir, VECDB_EMBED_URL: embedder.url, VECDB_EMBED_KEY: "sk-local-test", VECDB_LOCAL_IDLE_S: "1" } });
    open.push(mcp);
    const m = await mcp.call("list_models");
    expect((m.structured as { models: { model: string }[] }).models.map((x) => x.model)).toEqual(["local-bm25", "local-bm25-rerank", TEST_MODEL, "chat-model-not-embeddings"]);
    expect(embedder.requests.every((q) => q.auth === "Bearer sk-local-test")).toBe(true);
    expect(mcp.transcript()).not.toContain("sk-local-test");
    expect(mcp.stderr()).not.toContain("sk-local-test");
  });
});
