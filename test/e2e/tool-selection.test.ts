// Which tools the built server offers: the lean default, --toolsets / --tools / --exclude-tools and their environment
// variables, over HTTP a session's own headers or URL within what the server allows; --read-only and
// --allow-destructive still decide over all of them; a tool that is off, called by name, is refused with how to turn
// it on; unknown names stop the server at start.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { CLI, serverEnv, startMcp, type McpSession } from "../helpers/mcp-client.js";
import { connect, INIT, raw, startHttp, type HttpServerProcess } from "../helpers/http-server.js";

const DEFAULT_TOOLS = [
  "list_indexes",
  "list_collections",
  "create_collection",
  "upsert_vectors",
  "describe_index",
  "create_index_for_model",
  "upsert_records",
  "search_records",
  "index_documents",
];
const BACKUP_TOOLS = [
  "create_backup", "list_backups", "describe_backup", "create_index_from_backup", "list_restore_jobs", "describe_restore_job",
  "create_backup_schedule", "list_backup_schedules", "describe_backup_schedule", "update_backup_schedule", "list_scheduled_backups",
];
const INFERENCE_TOOLS = ["embed_texts", "rerank_documents", "list_models"];

let svc: RunningService;
const sessions: McpSession[] = [];
const servers: HttpServerProcess[] = [];
const env = () => ({ PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl });

async function stdio(args: string[], extraEnv: Record<string, string> = {}): Promise<McpSession> {
  const s = await startMcp({ env: { ...env(), ...extraEnv }, args, asGiven: true });
  sessions.push(s);
  return s;
}
const names = (s: { tools: { name: string }[] }) => s.tools.map((t) => t.name);

beforeAll(async () => {
  svc = await startServiceProcess();
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(servers.map((p) => p.stop()));
  await svc?.stop();
});

describe("over stdio", () => {
  test("no setting: the lean default, and the instructions name the toolsets that are off and how to turn them on", async () => {
    const s = await stdio([]);
    expect(names(s)).toEqual(DEFAULT_TOOLS);
    expect(s.client.getInstructions()).toContain(
      "Off: documents (full-text search: exact words and phrases), namespaces (the namespaces of an index and their aliases), inference (embed and rerank with the service's models), backups (backups of " +
        "serverless indexes, their schedules, and restoring them), imports (bulk imports from object storage), transfer (copy an index between services, or export it to files). A person turns toolsets on with " +
        "--toolsets default,documents or all (VECDB_TOOLSETS).",
    );
  });

  test("--toolsets backups gives the backups toolset (its delete tool only with --allow-destructive)", async () => {
    expect(names(await stdio(["--toolsets", "backups"]))).toEqual(BACKUP_TOOLS);
    expect(names(await stdio(["--toolsets", "backups", "--allow-destructive"]))).toEqual([...BACKUP_TOOLS, "delete_backup", "delete_backup_schedule"]);
  });

  test("VECDB_TOOLSETS, VECDB_TOOLS and VECDB_EXCLUDE_TOOLS do what the flags do", async () => {
    const s = await stdio([], { VECDB_TOOLSETS: "inference", VECDB_TOOLS: "list_indexes", VECDB_EXCLUDE_TOOLS: "rerank_documents" });
    expect(names(s)).toEqual(["list_indexes", "embed_texts", "list_models"]);
    const flags = await stdio(["--toolsets", "default,inference", "--exclude-tools", "upsert_vectors,create_collection"]);
    expect(names(flags)).toEqual([...DEFAULT_TOOLS.filter((t) => t !== "upsert_vectors" && t !== "create_collection"), ...INFERENCE_TOOLS]);
  });

  test("--read-only and --allow-destructive override the selection: --tools cannot add a tool they take away", async () => {
    const ro = await stdio(["--toolsets", "all", "--read-only", "--tools", "upsert_vectors"]);
    for (const t of ro.tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    expect(names(ro)).not.toContain("upsert_vectors");
    const refused = await ro.call("upsert_vectors", { index: "x", vectors: [{ id: "1", values: [1] }] });
    expect(refused.text).toMatch(/^upsert_vectors is not available: this server runs read-only/);

    const noDelete = await stdio(["--tools", "delete_index"]);
    expect(names(noDelete)).toEqual(DEFAULT_TOOLS);
    expect((await noDelete.call("delete_index", { index: "x" })).text).toMatch(/^delete_index is not available: the delete tools exist only when the server is started with --allow-destructive/);
  });

  test("a tool that is off, called by name, is refused with the setting that turns it on", async () => {
    const s = await stdio([]);
    const r = await s.call("list_backups", {});
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'list_backups is not available: it is in the toolset "backups", which is not on for this session. Nothing was done.\n' +
        "Next step: tell the user; to turn it on, restart the server with --toolsets default,backups (VECDB_TOOLSETS) or --tools list_backups (VECDB_TOOLS).",
    );
    const excluded = await stdio(["--exclude-tools", "search_records"]);
    expect((await excluded.call("search_records", { index: "x", query: { text: "a", topK: 1 } })).text).toBe(
      "search_records is not available: this server leaves it out (--exclude-tools / VECDB_EXCLUDE_TOOLS). Nothing was done.\n" +
        "Next step: tell the user; to turn it on, restart the server without search_records in --exclude-tools / VECDB_EXCLUDE_TOOLS.",
    );
  });

  test.each([
    [["--toolsets", "text,nope"], {}, '--toolsets / VECDB_TOOLSETS: unknown toolset "nope"; the toolsets are "default", "all", "text", "documents", "vectors", "indexes", "collections", "namespaces", "inference", "backups", "imports", "transfer"'],
    [[], { VECDB_TOOLS: "list_indexs" }, '--tools / VECDB_TOOLS: unknown tool "list_indexs"; the tools are "list_indexes", '],
    [["--exclude-tools", "drop_all"], {}, '--exclude-tools / VECDB_EXCLUDE_TOOLS: unknown tool "drop_all"; the tools are "list_indexes", '],
  ])("an unknown name stops the server at start: %j %j", (args, extraEnv, line) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { env: serverEnv({ ...env(), ...extraEnv }), encoding: "utf8", input: "", timeout: 20_000 });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.startsWith(`vecdb-mcp: ${line}`), r.stderr).toBe(true);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("over HTTP, a session chooses within what the server allows", () => {
  let lean: HttpServerProcess; // no --toolsets: a session may widen to every toolset
  let limited: HttpServerProcess; // --toolsets text: a session may only narrow
  beforeAll(async () => {
    [lean, limited] = await Promise.all([
      startHttp({ env: env(), args: ["--insecure-http-no-token"], asGiven: true }),
      startHttp({ env: env(), args: ["--insecure-http-no-token", "--toolsets", "text", "--read-only"], asGiven: true }),
    ]);
    servers.push(lean, limited);
  });
  const listed = async (url: string, headers: Record<string, string> = {}) => {
    const { client } = await connect(url, headers);
    try {
      return { tools: (await client.listTools()).tools.map((t) => t.name), instructions: client.getInstructions() ?? "", client };
    } finally {
      await client.close();
    }
  };

  test("no header: the server's set; a header or the URL widens it, and adds or takes away single tools", async () => {
    expect((await listed(lean.url)).tools).toEqual(DEFAULT_TOOLS);
    expect((await listed(lean.url, { "X-MCP-Toolsets": "backups" })).tools).toEqual(BACKUP_TOOLS);
    expect((await listed(`${lean.url}?toolsets=inference&tools=list_indexes`)).tools).toEqual(["list_indexes", ...INFERENCE_TOOLS]);
    expect((await listed(lean.url, { "X-MCP-Exclude-Tools": "upsert_vectors, create_collection" })).tools).toEqual(
      DEFAULT_TOOLS.filter((t) => t !== "upsert_vectors" && t !== "create_collection"),
    );
    expect((await listed(lean.url)).instructions).toContain("or for one session with the X-MCP-Toolsets header.");
  });

  test("a tool that is off says which header turns it on", async () => {
    const { client } = await connect(lean.url);
    try {
      const r = (await client.callTool({ name: "list_backups", arguments: {} })) as { content: { text: string }[]; isError?: boolean };
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toBe(
        'list_backups is not available: it is in the toolset "backups", which is not on for this session. Nothing was done.\n' +
          "Next step: tell the user; to turn it on, over HTTP, start a session with the header X-MCP-Toolsets: backups (or X-MCP-Tools: list_backups, " +
          "or ?toolsets=backups on the URL); or restart the server with --toolsets default,backups (VECDB_TOOLSETS) or --tools list_backups (VECDB_TOOLS).",
      );
    } finally {
      await client.close();
    }
  });

  test("a server started with --toolsets is the ceiling: all means its set, a tool past it is refused, --read-only holds", async () => {
    const own = await listed(limited.url);
    expect(own.tools).toEqual(["search_records", "search_indexes"]);
    expect(own.instructions).toContain("A person turns toolsets on with --toolsets text,documents or all (VECDB_TOOLSETS).");
    expect(own.instructions).not.toContain("X-MCP-Toolsets"); // a session cannot widen here
    expect((await listed(limited.url, { "X-MCP-Toolsets": "all" })).tools).toEqual(["search_records", "search_indexes"]);
    expect((await listed(limited.url, { "X-MCP-Toolsets": "backups" })).tools).toEqual([]);
    const past = await raw(limited.url, { headers: { "X-MCP-Tools": "query_vectors" }, body: INIT });
    expect(past.status).toBe(400);
    expect(JSON.parse(past.body).error.message).toBe(
      'Bad Request: X-MCP-Tools header (or ?tools=): "query_vectors" is not offered by this server (its --toolsets / VECDB_TOOLSETS leaves it out); ' +
        'a session may choose among "create_index_for_model", "upsert_records", "search_records", "search_indexes", "index_documents"',
    );
  });

  test("an unknown name in a header is refused with the valid names, and no session starts", async () => {
    const r = await raw(lean.url, { headers: { "X-MCP-Toolsets": "text,vectorz" }, body: INIT });
    expect(r.status).toBe(400);
    expect(r.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(r.body).error).toEqual({
      code: -32602,
      message:
        'Bad Request: X-MCP-Toolsets header (or ?toolsets=): unknown toolset "vectorz"; the toolsets are "default", "all", "text", "documents", "vectors", ' +
        '"indexes", "collections", "namespaces", "inference", "backups", "imports", "transfer"',
    });
  });
});
