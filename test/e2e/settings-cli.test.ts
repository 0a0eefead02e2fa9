// What the built bin says about its settings: --help and serve --help are the declarations, --version the package's,
// a bad embeddings timeout is refused by both commands, a placeholder key stays home, and an HTTP server bound to
// every address tells clients a URL they can use.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { helpText, serveSynopsis } from "../../src/settings-help.js";
import { settingsOf } from "../../src/settings.js";
import { CLI, ROOT, serverEnv, startMcp } from "../helpers/mcp-client.js";

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { env: serverEnv(env), encoding: "utf8", input: "", timeout: 20_000 });

describe("--help, --version", () => {
  test("vecdb-mcp --help prints every setting of the MCP server, as declared", () => {
    const r = run(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(helpText("mcp", version));
    for (const s of settingsOf("mcp")) {
      if (s.flag) expect(r.stdout).toContain(`--${s.flag}`);
      if (s.env) expect(r.stdout).toContain(s.env);
    }
    expect(r.stdout).toContain("--allow-dir DIR           a folder import_vectors, index_documents and the local service's bulk imports may read");
    expect(r.stdout).toContain("add the delete tools (delete_index, delete_collection, delete_vectors, delete_namespace,\n");
    expect(r.stdout).toContain("HTTP address to listen on; 0.0.0.0 or :: for every address (off loopback a token is always");
    expect(r.stdout).toMatch(/VECDB_EMBED_TIMEOUT_MS +per-call timeout of that embeddings server, in milliseconds: 100–600000 \(default: 30000\)/);
  });

  test("vecdb-mcp serve --help prints the local service's settings, with the same names", () => {
    const r = run(["serve", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(helpText("serve", version));
    expect(r.stdout).toMatch(/^Usage: vecdb-mcp serve --data-dir DIR \[options\]/);
    expect(r.stdout).toContain("--local-idle-s N");
    expect(r.stdout).toContain("[VECDB_LOCAL_IDLE_S]");
    expect(r.stdout).not.toContain("--max-result-tokens");
  });

  test.each([[["--version"]], [["serve", "--version"]]])("%j prints the package's version", (args) => {
    const r = run(args);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
    expect(r.stderr).toBe("");
  });
});

describe("VECDB_EMBED_TIMEOUT_MS: a bad value is refused, by both commands", () => {
  const message = 'VECDB_EMBED_TIMEOUT_MS must be an integer from 100 to 600000 (got "fast")';
  test("vecdb-mcp", () => {
    const r = run([], { VECDB_EMBED_TIMEOUT_MS: "fast" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`vecdb-mcp: ${message}\n`);
  });

  test("vecdb-mcp serve", () => {
    const r = run(["serve", "--data-dir", mkdtempSync(join(tmpdir(), "vecdb-serve-timeout-"))], { VECDB_EMBED_TIMEOUT_MS: "50" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`vecdb-mcp serve: ${message.replace('"fast"', '"50"')}\n${serveSynopsis()}\n`);
  });
});

describe("a placeholder PINECONE_API_KEY never goes to the hosted service", () => {
  test.each(["YOUR_PINECONE_API_KEY", "<your-api-key>"])("%s: one warning line, and the tools answer from the local service", async (key) => {
    const dataDir = mkdtempSync(join(tmpdir(), "vecdb-placeholder-"));
    // A closed port as the hosted service: a call sent there would fail.
    const mcp = await startMcp({ env: { PINECONE_API_KEY: key, PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9", VECDB_DATA_DIR: dataDir, VECDB_LOCAL_IDLE_S: "2" } });
    try {
      expect(mcp.tools.map((t) => t.name)).toContain("list_indexes");
      expect((await mcp.call("list_indexes")).structured).toEqual({ indexes: [] });
      const lines = mcp.stderr().split("\n").filter(Boolean);
      expect(lines[0]).toBe(
        "vecdb-mcp warning: PINECONE_API_KEY looks like a placeholder copied from an example, not a key: it is not sent anywhere, and this server uses the local service; set your real key to use the hosted service",
      );
      expect(lines[1]).toMatch(/^vecdb-mcp info: PINECONE_API_KEY holds a placeholder: using the embedded local service at http:\/\/127\.0\.0\.1:\d+ \(data dir /);
      expect(lines).toHaveLength(2);
      if (key.startsWith("<")) expect(mcp.stderr()).not.toContain(key);
    } finally {
      await mcp.close();
    }
  });
});

test("--http on every address (0.0.0.0): the client entry has the loopback URL, and says to use the machine's name", async () => {
  const child = spawn(process.execPath, [CLI, "--http", "--host", "0.0.0.0", "--port", "0"], {
    env: serverEnv({ PINECONE_API_KEY: "a-real-looking-key-0123456789", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9" }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const stderr = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stderr.setEncoding("utf8").on("data", (c: string) => {
        text += c;
        if (text.includes("set VECDB_HTTP_TOKEN to keep one token")) resolve(text);
      });
      child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${text}`)));
    });
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp \(bearer token required\)\n/.exec(stderr)?.[1];
    expect(port, stderr).toBeDefined();
    expect(stderr).toContain(`vecdb-mcp: it listens on every address of this machine (0.0.0.0); from another machine use http://<this machine's name>:${port}/mcp\n`);
    expect(stderr).toContain(`client entry: { "type": "http", "url": "http://127.0.0.1:${port}/mcp"`);
    expect(stderr).not.toContain("http://0.0.0.0");
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
});
