// Every client snippet of the README (its fenced blocks marked `json client` / `sh client`) and mcp.json, run the way a
// user would after the README's first screen: `npm link` in the clone (into a temporary npm prefix, never the machine's
// own), the placeholders replaced with the clone's path and a notes folder, no key, and a data folder of their own.
// Each must start a server that completes initialize and answers tools/list through the real MCP client.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, connectStdio, root, run, serverProblems } from "./helpers.js";

interface Snippet {
  where: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

const CLONE = "/absolute/path/to/vecdb-mcp";
const NOTES = "/path/to/your/notes";

const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/^```([^\n]*)\n([\s\S]*?)^```/gm)].map((m) => ({ info: m[1].trim(), body: m[2] }));
const clientBlocks = blocks.filter((b) => /^(json|sh) client$/.test(b.info));

/** Splits a shell line into words (single and double quotes; no expansions are used in the snippets). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The server a `sh client` line starts: `claude mcp add …`, the Inspector, or `VAR=value … command args`. */
function fromShellLine(line: string, where: string): Snippet {
  const w = words(line.replace(/\s+#.*$/, ""));
  const env: Record<string, string> = {};
  if (w[0] === "claude") {
    expect(w.slice(0, 3), `${where}: ${line}`).toEqual(["claude", "mcp", "add"]);
    const dashes = w.indexOf("--");
    for (let i = 3; i < dashes; i++) if (w[i] === "-e") Object.assign(env, keyValue(w[++i]));
    return { where, command: w[dashes + 1], args: w.slice(dashes + 2), env };
  }
  if (w[0] === "npx" && w[1]?.startsWith("@modelcontextprotocol/inspector@")) {
    // `--cli --config FILE --server NAME`: that entry of the file (relative to the clone, where the README runs it)
    const file = w[w.indexOf("--config") + 1];
    const name = w[w.indexOf("--server") + 1];
    expect(w.includes("--config") && w.includes("--server"), `${where}: ${line}`).toBe(true);
    const entry = fromJson(readFileSync(join(root, file), "utf8"), `${where} → ${file}`).find((s) => s.where.endsWith(`(${name})`));
    expect(entry, `${where}: ${file} has no server ${name}`).toBeDefined();
    return { ...entry!, where: `${where} → ${file} (${name})` };
  }
  let i = 0;
  for (; /^[A-Z_]+=/.test(w[i]); i++) Object.assign(env, keyValue(w[i]));
  return { where, command: w[i], args: w.slice(i + 1), env };
}

function keyValue(assignment: string): Record<string, string> {
  const eq = assignment.indexOf("=");
  return { [assignment.slice(0, eq)]: assignment.slice(eq + 1) };
}

/** The servers of a client's JSON configuration: the `mcpServers` shape, or VS Code's `servers`. */
function fromJson(text: string, where: string): Snippet[] {
  const config = JSON.parse(text) as Record<string, Record<string, { command: string; args?: string[]; env?: Record<string, string> }>>;
  const servers = config.mcpServers ?? config.servers;
  expect(servers, `${where} has no mcpServers or servers`).toBeDefined();
  return Object.entries(servers).map(([name, s]) => ({ where: `${where} (${name})`, command: s.command, args: s.args ?? [], env: s.env ?? {} }));
}

function snippets(): Snippet[] {
  const all: Snippet[] = [];
  clientBlocks.forEach((b, n) => {
    const where = `README client snippet ${n + 1}`;
    if (b.info.startsWith("json")) all.push(...fromJson(b.body, where));
    else for (const line of b.body.split("\n").filter((l) => l.trim() !== "")) all.push(fromShellLine(line, where));
  });
  all.push(...fromJson(readFileSync(join(root, "mcp.json"), "utf8"), "mcp.json"));
  return all;
}

describe("the README's snippets are all marked, and say what works today", () => {
  it("gives the two first-screen commands, the second being what CI runs", () => {
    expect(readme).toContain("npm ci && npm run demo");
    expect(readme).toContain("npm ci && npm test");
    expect(readFileSync(join(root, ".ci", "run"), "utf8")).toMatch(/npm ci --no-fund --no-audit && npm test\s*$/);
  });

  it("marks every block that configures a client, so that this test runs it", () => {
    const unmarked = blocks.filter((b) => !clientBlocks.includes(b) && /mcpServers|"servers"|claude mcp add|inspector.*--cli/.test(b.body));
    expect(unmarked.map((b) => b.body)).toEqual([]);
    expect(clientBlocks.length).toBeGreaterThanOrEqual(6);
  });

  it("runs nothing that needs the package published, and says so where npx is named", () => {
    for (const s of snippets()) expect(`${s.command} ${s.args.join(" ")}`, s.where).not.toMatch(/npx -y vecdb-mcp|^npx vecdb-mcp/);
    expect(readme).toMatch(/not published on\s+npm yet; once it is, `npx -y vecdb-mcp` will work/);
  });

  it("shows a folder the server may read in every snippet, and no key in mcp.json", () => {
    for (const s of snippets()) expect(`${s.args.join(" ")} ${s.env.VECDB_ALLOW_DIRS ?? ""}`, s.where).toContain(NOTES);
    expect(readFileSync(join(root, "mcp.json"), "utf8")).not.toMatch(/API_KEY/);
  });
});

const problems = serverProblems();
describe.skipIf(problems.length > 0)(`each snippet starts a server that answers tools/list${problems.length ? ` (skipped: ${problems.join("; ")})` : ""}`, () => {
  let work: string;
  let bin: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "vecdb-snippets-"));
    const prefix = join(work, "npm-prefix");
    // The first screen's `npm link`, into a prefix of the test's own.
    await run("npm", ["link", "--no-fund", "--no-audit"], root, { ...process.env, npm_config_prefix: prefix });
    bin = process.platform === "win32" ? prefix : join(prefix, "bin");
    mkdirSync(join(work, "notes"));
  }, 60_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const snippet of snippets()) {
    const shown = [...Object.keys(snippet.env).map((k) => `${k}=…`), snippet.command, ...snippet.args].join(" ");
    it(`${snippet.where}: ${shown}`, async () => {
      const place = (s: string) => s.split(CLONE).join(root).split(NOTES).join(join(work, "notes"));
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(snippet.env)) env[k] = place(v).replace(/^\$\{input:[^}]+\}$/, ""); // an input left empty
      const dataDir = mkdtempSync(join(work, "data-"));
      const server = await connectStdio({
        command: snippet.command,
        args: snippet.args.map(place),
        env: cleanEnv({
          ...env,
          PINECONE_API_KEY: "", // no key: the local service, whatever the snippet's key says
          VECDB_DATA_DIR: dataDir,
          VECDB_LOCAL_IDLE_S: "1",
          PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`,
        }),
      });
      try {
        const { tools } = await server.client.listTools();
        expect(tools.length, server.stderr()).toBeGreaterThan(0);
        expect(server.stderr()).not.toMatch(/vecdb-mcp error:/);
      } finally {
        await server.close();
      }
    }, 30_000);
  }
});
