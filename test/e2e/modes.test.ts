// The safe modes as a client meets them: what tools/list offers, what a call by name gets anyway (refused at call
// time, not only hidden), and that nothing outside --indexes is shown or touched — checked on the service. Also the
// initialize result's instructions and an empty PINECONE_API_KEY.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { api, createIndex, indexStats, pod, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";
import { refusalOf } from "../helpers/refusal.js";
import type { Untouched } from "../../src/tool-kit/refusal.js";

let svc: RunningService;
const hosts: Record<string, string> = {};
const open: McpSession[] = [];

const WRITE_TOOLS = ["create_index", "create_collection", "upsert_vectors", "import_vectors"];
const DELETE_TOOLS = ["delete_vectors", "delete_index", "delete_collection"];
const indexNames = async () => ((await api(svc, "GET", "/indexes")).body.indexes ?? []).map((i: { name: string }) => i.name).sort();

async function server(args: string[], env: Record<string, string> = {}): Promise<McpSession> {
  const mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, ...env }, args });
  open.push(mcp);
  return mcp;
}
const names = (mcp: McpSession) => mcp.tools.map((t) => t.name);

beforeAll(async () => {
  svc = await startServiceProcess();
  hosts.visible = (await createIndex(svc, { name: "visible-one", dimension: 2, spec: serverless })).host;
  hosts.hidden = (await createIndex(svc, { name: "hidden-two", dimension: 2, spec: pod })).host;
  const r = await api(svc, "POST", `http://${hosts.hidden}/vectors/upsert`, { vectors: [{ id: "secret", values: [1, 2], metadata: { note: "hidden" } }] });
  expect(r.status).toBe(200);
});
afterAll(async () => {
  for (const m of open) await m.close();
  await svc?.stop();
});

describe("without --allow-destructive", () => {
  test("no delete tool exists, and a call to one by name is refused with why; nothing deleted", async () => {
    const mcp = await server([]);
    for (const name of DELETE_TOOLS) expect(names(mcp)).not.toContain(name);
    for (const name of WRITE_TOOLS) expect(names(mcp)).toContain(name);
    const r = await mcp.call("delete_index", { index: "hidden-two" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "delete_index is not available: the delete tools exist only when the server is started with --allow-destructive " +
        `(VECDB_ALLOW_DESTRUCTIVE=1). ${nothingWas("deleted")}\nNext step: tell the user; deleting needs the server restarted with --allow-destructive.`,
    );
    const v = await mcp.call("delete_vectors", { index: "hidden-two", deleteAll: true });
    expect(v.isError).toBe(true);
    expect(await indexNames()).toEqual(["hidden-two", "visible-one"]);
    expect((await indexStats(svc, hosts.hidden)).totalVectorCount).toBe(1);
  });

  test("instructions in the initialize result: discover with list_indexes, the text path before vectors; no mode named", async () => {
    const mcp = await server([]);
    const text = mcp.client.getInstructions() ?? "";
    expect(text).toContain("Start with list_indexes");
    expect(text).toContain("\nTo remember and find text: create_index_for_model makes an index that embeds text");
    expect(text.indexOf("To remember and find text")).toBeLessThan(text.indexOf("To store your own embeddings (not for text): upsert_vectors"));
    expect(text).not.toMatch(/READ-ONLY|LIMITED|Deleting is enabled/);
  });

  test("VECDB_ALLOW_DESTRUCTIVE=1 is the same as the flag, and the instructions say deleting is enabled", async () => {
    const mcp = await server([], { VECDB_ALLOW_DESTRUCTIVE: "1" });
    for (const name of DELETE_TOOLS) expect(names(mcp)).toContain(name);
    const text = mcp.client.getInstructions() ?? "";
    expect(text).toContain("Deleting is enabled and cannot be undone: confirm with the user before any delete_ call.");
    for (const name of DELETE_TOOLS) expect(text).toContain(name);
  });
});

describe("--read-only", () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await server(["--read-only", "--allow-destructive"]);
  });

  test("lists only read-only tools (even with --allow-destructive)", () => {
    expect(mcp.tools.length).toBeGreaterThanOrEqual(2);
    for (const t of mcp.tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    for (const name of [...WRITE_TOOLS, ...DELETE_TOOLS]) expect(names(mcp)).not.toContain(name);
    expect(names(mcp)).toEqual(expect.arrayContaining(["list_indexes", "list_collections"]));
  });

  test("a write tool called by name is refused with why, and nothing is written", async () => {
    const r = await mcp.call("upsert_vectors", { index: "visible-one", vectors: [{ id: "w", values: [1, 1] }] });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "upsert_vectors is not available: this server runs read-only (--read-only / VECDB_READ_ONLY), so only tools that read can be called. " +
        `${nothingWas("written")}\nNext step: tell the user; writing needs the server restarted without --read-only.`,
    );
    const c = await mcp.call("create_index", { name: "new-one", dimension: 2, serverless: { cloud: "aws", region: "us-east-1" } });
    expect(c.isError).toBe(true);
    expect(c.text).toMatch(/^create_index is not available: this server runs read-only/);
    const d = await mcp.call("delete_index", { index: "visible-one" });
    expect(d.text).toMatch(/^delete_index is not available: this server runs read-only/);
    expect((await indexStats(svc, hosts.visible)).totalVectorCount).toBe(0);
    expect(await indexNames()).toEqual(["hidden-two", "visible-one"]);
  });

  test("reading still works, and the instructions say read-only", async () => {
    const r = await mcp.call("list_indexes");
    expect(r.isError).toBe(false);
    expect(mcp.client.getInstructions()).toContain("This server is READ-ONLY: it can list and read, but not write, create or delete anything.");
  });

  test("VECDB_READ_ONLY=1 is the same as the flag", async () => {
    const env = await server([], { VECDB_READ_ONLY: "1" });
    for (const t of env.tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
  });
});

describe("--indexes", () => {
  let mcp: McpSession;
  /** What a call naming `name` reads; what it did not do is the tool's own (read, written, deleted). */
  const refused = (name: string, untouched: Untouched) => ({
    problem: `Index ${JSON.stringify(name)} is not available: this server is limited to the indexes "visible-one" (--indexes / VECDB_INDEXES)`,
    untouched,
    next: "call again with one of those indexes.",
  });

  beforeAll(async () => {
    mcp = await server(["--indexes", "visible-one", "--allow-destructive"]);
  });

  test("list_indexes shows only the listed indexes", async () => {
    const r = await mcp.call("list_indexes");
    expect((r.structured as { indexes: { name: string }[] }).indexes.map((i) => i.name)).toEqual(["visible-one"]);
    expect(r.text).not.toContain("hidden-two");
  });

  test("every tool naming another index refuses it by name; nothing is written or deleted", async () => {
    const calls: [string, Record<string, unknown>, Untouched][] = [
      ["describe_index", { index: "hidden-two" }, "read"],
      ["describe_index_stats", { index: "hidden-two" }, "read"],
      ["query_vectors", { index: "hidden-two", vector: [1, 2], topK: 5, includeMetadata: true }, "read"],
      ["fetch_vectors", { index: "hidden-two", ids: ["secret"] }, "read"],
      ["list_vector_ids", { index: "hidden-two" }, "read"],
      ["upsert_vectors", { index: "hidden-two", vectors: [{ id: "w", values: [1, 1] }] }, "written"],
      ["delete_vectors", { index: "hidden-two", deleteAll: true }, "deleted"],
      ["delete_index", { index: "hidden-two" }, "deleted"],
      ["create_collection", { name: "leak", index: "hidden-two" }, "written"],
    ];
    for (const [tool, args, untouched] of calls) {
      expect(names(mcp)).toContain(tool);
      const r = await mcp.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(refusalOf(r.text), tool).toEqual(refused("hidden-two", untouched));
    }
    expect(mcp.transcript()).not.toContain("secret");
    expect((await indexStats(svc, hosts.hidden)).totalVectorCount).toBe(1);
    expect(await indexNames()).toEqual(["hidden-two", "visible-one"]);
    expect(((await api(svc, "GET", "/collections")).body.collections ?? []).map((c: { name: string }) => c.name)).not.toContain("leak");
  });

  test("create_index outside the list is refused, and nothing is created; inside it works", async () => {
    const r = await mcp.call("create_index", { name: "other-new", dimension: 2, serverless: { cloud: "aws", region: "us-east-1" } });
    expect(r.isError).toBe(true);
    expect(refusalOf(r.text)).toEqual(refused("other-new", "written"));
    expect(await indexNames()).toEqual(["hidden-two", "visible-one"]);
    const same = await mcp.call("create_index", { name: "visible-one", dimension: 2, serverless: { cloud: "aws", region: "us-east-1" } });
    expect(same.structured).toMatchObject({ created: false });
  });

  test("an index cannot be restored from a collection (it may hold another index's records)", async () => {
    const limited = await server(["--indexes", "visible-one,restored-here"]);
    const r = await limited.call("create_index", {
      name: "restored-here", dimension: 2, pod: { environment: "us-east1-gcp", podType: "p1.x1", sourceCollection: "any-snap" },
    });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'An index cannot be created from a collection on this server: it is limited to the indexes "visible-one", "restored-here" ' +
        `(--indexes / VECDB_INDEXES), and a collection may hold records of any index. ${nothingWas("created")}\n` +
        "Next step: create the index without pod.sourceCollection.",
    );
    expect(await indexNames()).toEqual(["hidden-two", "visible-one"]);
  });

  test("another index does not appear in create_collection's list of pod-based indexes", async () => {
    const r = await mcp.call("create_collection", { name: "snap", index: "visible-one" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Index "visible-one" is serverless, and collections are made only from pod-based indexes.\n' +
        `There are no pod-based indexes in this project.\n${nothingWas("created")}`,
    );
  });

  test("the listed index is read and written as usual", async () => {
    const w = await mcp.call("upsert_vectors", { index: "visible-one", namespace: "m", vectors: [{ id: "ok", values: [1, 1] }] });
    expect(w.isError, w.text).toBe(false);
    expect((await indexStats(svc, hosts.visible)).namespaces.m.vectorCount).toBe(1);
    const d = await mcp.call("delete_vectors", { index: "visible-one", namespace: "m", ids: ["ok"] });
    expect(d.structured).toMatchObject({ found: 1, before: 1, after: 0 });
  });

  test("delete_collection does not exist (a collection may hold any index's records); instructions say limited", async () => {
    expect(names(mcp)).not.toContain("delete_collection");
    expect(names(mcp)).toContain("delete_index");
    const r = await mcp.call("delete_collection", { collection: "anything" });
    expect(r.text).toBe(
      `delete_collection is not available: this server is limited to the indexes "visible-one" (--indexes / VECDB_INDEXES), and a collection may hold records of any index. ${nothingWas("deleted")}`,
    );
    expect(mcp.client.getInstructions()).toContain('This server is LIMITED to the indexes "visible-one": other indexes are not shown and calls naming them are refused.');
  });

  test("VECDB_INDEXES works the same", async () => {
    const env = await server([], { VECDB_INDEXES: "visible-one, never-made" });
    const r = await env.call("list_indexes");
    expect((r.structured as { indexes: { name: string }[] }).indexes.map((i) => i.name)).toEqual(["visible-one"]);
    const u = await env.call("upsert_vectors", { index: "hidden-two", vectors: [{ id: "w", values: [1, 1] }] });
    expect(u.text).toMatch(/^Index "hidden-two" is not available: this server is limited to the indexes "visible-one", "never-made"/);
  });
});

describe("server-level MCP", () => {
  test("logging/setLevel is honoured: messages at or above the level only", async () => {
    const mcp = await server([]);
    await mcp.call("list_indexes");
    expect(mcp.logMessages).toEqual([]);
    await mcp.client.setLoggingLevel("info");
    await mcp.call("upsert_vectors", { index: "nope-missing", vectors: [{ id: "x", values: [1, 1] }] });
    await mcp.call("list_indexes");
    for (let i = 0; i < 500 && mcp.logMessages.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(mcp.logMessages.length).toBeGreaterThan(0);
    for (const m of mcp.logMessages) expect(["info", "notice", "warning", "error"]).toContain(m.level);
  });

  test('PINECONE_API_KEY="" (a desktop bundle\'s blank key) means unset: the embedded local service', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vecdb-mcp-blank-key-"));
    const mcp = await startMcp({ env: { PINECONE_API_KEY: "", VECDB_DATA_DIR: dataDir, VECDB_LOCAL_IDLE_S: "1" } });
    open.push(mcp);
    const r = await mcp.call("list_indexes");
    expect(r.isError, r.text).toBe(false);
    expect(mcp.stderr()).toContain("PINECONE_API_KEY is not set: using the embedded local service");
  });
});
