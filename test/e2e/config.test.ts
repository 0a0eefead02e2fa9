// Configuration as a user meets it: a bad setting stops the server with one line on stderr; no key runs the
// embedded local service (durable in its data dir); --help.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CLI, serverEnv, startMcp } from "../helpers/mcp-client.js";
import { api, createIndex, fetchVectors, serverless } from "./support.js";

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { env: serverEnv(env), encoding: "utf8", input: "", timeout: 20_000 });

const OPTIONS = "vecdb-mcp --help lists the options";

describe("a bad setting: one line on stderr naming it and what is allowed, exit code 2", () => {
  const cases: [string, string[], Record<string, string>, string][] = [
    ["a timeout that is not a number", ["--timeout-ms", "abc"], {}, '--timeout-ms / VECDB_TIMEOUT_MS must be an integer from 100 to 600000 (got "abc")'],
    ["a timeout below the bound", [], { VECDB_TIMEOUT_MS: "5" }, '--timeout-ms / VECDB_TIMEOUT_MS must be an integer from 100 to 600000 (got "5")'],
    ["zero concurrency", [], { VECDB_CONCURRENCY: "0" }, '--concurrency / VECDB_CONCURRENCY must be an integer from 1 to 64 (got "0")'],
    ["too many retries", ["--retries", "11"], {}, '--retries / VECDB_RETRIES must be an integer from 0 to 10 (got "11")'],
    ["a controller URL that is not http(s)", [], { PINECONE_CONTROLLER_HOST: "ftp://example.com" }, 'PINECONE_CONTROLLER_HOST must be an http:// or https:// URL with no path, e.g. https://api.pinecone.io (got "ftp://example.com")'],
    ["a controller URL with user:pass@ (never sent, never printed)", [], { PINECONE_CONTROLLER_HOST: "https://admin:hunter2@api.example.com" }, "PINECONE_CONTROLLER_HOST must not hold a user name or password (user:pass@); the API key authenticates — remove them"],
    ["an API version of the wrong form", [], { PINECONE_API_VERSION: "latest" }, 'PINECONE_API_VERSION must look like 2026-04 (YYYY-MM) or be "unstable" (got "latest")'],
    ["an unknown log level", ["--log-level", "loud"], {}, '--log-level / VECDB_LOG_LEVEL must be one of debug, info, warning, error (got "loud")'],
    ["an API key with a line break inside", [], { PINECONE_API_KEY: "secret-key\nthat-must-not-show" }, "PINECONE_API_KEY must not contain line breaks or other control characters"],
    ["an unknown option", ["--read-write"], {}, `Unknown option '--read-write'; ${OPTIONS}`],
    ["an option without its value", ["--concurrency"], {}, `Option '--concurrency <value>' argument missing; ${OPTIONS}`],
  ];
  test.each(cases)("%s", (_name, args, env, message) => {
    const key = "secret-key-that-must-not-show-0123";
    const r = run(args, { PINECONE_API_KEY: key, ...env });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`vecdb-mcp: ${message}\n`);
  });
});

test("--help prints the usage and exits 0", () => {
  const r = run(["--help"]);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^Usage: vecdb-mcp \[options\]/);
  for (const setting of ["PINECONE_API_KEY", "PINECONE_CONTROLLER_HOST", "PINECONE_API_VERSION", "VECDB_DATA_DIR", "VECDB_TIMEOUT_MS", "VECDB_CONCURRENCY", "VECDB_RETRIES", "VECDB_LOG_LEVEL", "--local"]) {
    expect(r.stdout).toContain(setting);
  }
  expect(r.stderr).toBe("");
});

describe("no API key: the embedded local service", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "vecdb-mcp-embedded-"));
  // A short quiet period: the service these tests start in the background should not outlive them by long.
  const env = { VECDB_DATA_DIR: dataDir, VECDB_LOCAL_IDLE_S: "2" };
  const embedded = (stderr: string) => {
    const m = /using the embedded local service at (http:\/\/127\.0\.0\.1:\d+) \(data dir ([^;)]+)[;)]/.exec(stderr);
    if (!m) throw new Error(`no embedded-service line in stderr:\n${stderr}`);
    return { controlUrl: m[1], dataDir: m[2], apiKey: readFileSync(join(m[2], "api-key"), "utf8").trim() };
  };

  test("says so in one stderr line, serves the tools, and keeps the data in the data dir", async () => {
    const mcp = await startMcp({ env });
    let host = "";
    try {
      expect((await mcp.call("list_indexes")).structured).toEqual({ indexes: [] });
      expect(mcp.stderr()).toMatch(
        /^vecdb-mcp info: PINECONE_API_KEY is not set: using the embedded local service at http:\/\/127\.0\.0\.1:\d+ \(data dir .+; started it as pid \d+, shared by every server on this data dir, stops 2 s after the last one\)\n$/,
      );
      const local = embedded(mcp.stderr());
      expect(local.dataDir).toBe(dataDir);
      host = (await createIndex({ ...local } as never, { name: "notes", dimension: 3, spec: serverless })).host;
      const r = await mcp.call("upsert_vectors", { index: "notes", vectors: [{ id: "n1", values: [1, 2, 3], metadata: { topic: "a" } }] });
      expect(r.structured).toMatchObject({ upserted: 1, failed: 0 });
      expect(mcp.transcript()).not.toContain(local.apiKey);
      expect(mcp.stderr()).not.toContain(local.apiKey);
    } finally {
      await mcp.close();
    }

    // The next server finds the same service (or a new one, past the quiet period), and the record is still there.
    const again = await startMcp({ env });
    try {
      const listed = (await again.call("list_indexes")).structured as { indexes: { name: string; host: string }[] };
      const local = embedded(again.stderr());
      expect(listed.indexes.map((i) => i.name)).toEqual(["notes"]);
      const got = await fetchVectors(local as never, listed.indexes[0].host, ["n1"]);
      expect(got.n1).toMatchObject({ id: "n1", values: [1, 2, 3], metadata: { topic: "a" } });
      expect(host).not.toBe("");
    } finally {
      await again.close();
    }
  });

  test("--local uses it even when a key is set, and the key is not sent anywhere", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vecdb-mcp-local-"));
    const mcp = await startMcp({ env: { PINECONE_API_KEY: "remote-key-not-for-local-0123", VECDB_DATA_DIR: dir, VECDB_LOCAL_IDLE_S: "1" }, args: ["--local"] });
    try {
      const r = await mcp.call("list_collections");
      expect(r.isError).toBe(false);
      expect(mcp.stderr()).toMatch(/^vecdb-mcp info: --local given: using the embedded local service at http:\/\/127\.0\.0\.1:\d+ \(data dir .+\)\n$/);
      const local = embedded(mcp.stderr());
      expect((await api(local, "GET", "/indexes")).status).toBe(200);
    } finally {
      await mcp.close();
    }
  });
});

describe("defaults", () => {
  test("the user data directory per platform", async () => {
    const { defaultDataDir } = await import("../../src/config.js");
    expect(defaultDataDir({}, "linux", "/home/ann")).toBe("/home/ann/.local/share/vecdb-mcp");
    expect(defaultDataDir({ XDG_DATA_HOME: "/xdg" }, "linux", "/home/ann")).toBe("/xdg/vecdb-mcp");
    expect(defaultDataDir({}, "darwin", "/Users/ann")).toBe("/Users/ann/Library/Application Support/vecdb-mcp");
    expect(defaultDataDir({ LOCALAPPDATA: "C:\\Users\\ann\\AppData\\Local" }, "win32", "C:\\Users\\ann")).toMatch(/AppData.Local.vecdb-mcp$/);
  });

  test("every default, from one schema", async () => {
    const { loadConfig } = await import("../../src/config.js");
    const loaded = loadConfig([], { PINECONE_API_KEY: "k", HOME: "/home/ann" });
    expect(loaded).toEqual({
      help: false,
      config: {
        mode: "remote",
        apiKey: "k",
        controllerUrl: "https://api.pinecone.io",
        otherControllerUrl: "https://api.pinecone.io",
        apiVersion: "2026-04",
        timeoutMs: 30000,
        concurrency: 8,
        retries: 4,
        logLevel: "info",
        dataDir: expect.stringMatching(/vecdb-mcp$/),
        embedTimeoutMs: 30000,
        readOnly: false,
        allowDestructive: false,
        allowDirs: [],
        http: false,
        httpPort: 3333,
        httpHost: "127.0.0.1",
        httpAllowedHosts: [],
        httpTrustedProxies: [],
        httpIdleTimeoutS: 1800,
        httpNoToken: false,
        httpMaxSessions: 256,
        httpMaxSessionsPerAddress: 128,
        httpMaxConnectionsPerAddress: 128,
        httpBodyMbInFlight: 256,
        httpRequestTimeoutS: 10,
        httpShutdownGraceS: 10,
        httpSendTimeoutS: 60,
        localService: "shared",
        localIdleS: 600,
        tools: [],
        excludeTools: [],
        maxResultTokens: 10000,
        answerMbInFlight: 256,
      },
    });
    const flags = loadConfig(["--local", "--data-dir", "/d", "--timeout-ms", "500", "--concurrency", "2", "--retries", "0"], { PINECONE_API_KEY: "k", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:5/" });
    // A line break pasted along with the key is not part of it.
    expect(loadConfig([], { PINECONE_API_KEY: " k\r\n" })).toMatchObject({ config: { mode: "remote", apiKey: "k" } });
    expect(flags).toMatchObject({ config: { mode: "local", localService: "embedded", apiKey: undefined, dataDir: "/d", timeoutMs: 500, concurrency: 2, retries: 0, controllerUrl: "http://127.0.0.1:5" } });
    expect(loadConfig(["--embed-url", "http://127.0.0.1:11434/v1"], { VECDB_EMBED_KEY: "sk" })).toMatchObject({ config: { embedUrl: "http://127.0.0.1:11434/v1", embedKey: "sk" } });
    expect(() => loadConfig([], { VECDB_EMBED_URL: "localhost:11434" })).toThrow(
      '--embed-url / VECDB_EMBED_URL must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1 (got "localhost:11434")',
    );
  });
});

test("--local with --data-dir runs the service inside the server, as before; a data dir held by another process: one line, exit code 1", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vecdb-mcp-busy-"));
  const first = await startMcp({ env: {}, args: ["--local", "--data-dir", dir] });
  try {
    expect(first.stderr()).toMatch(/^vecdb-mcp info: --local given: using the embedded local service at http:\/\/127\.0\.0\.1:\d+ \(data dir [^;]+\)\n$/);
    // In this process: the descriptor other servers would find names the server itself.
    const serverPid = (first.client.transport as unknown as { pid: number | null }).pid;
    expect(JSON.parse(readFileSync(join(dir, "service.json"), "utf8")).pid).toBe(serverPid);
    const r = run(["--local", "--data-dir", dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^vecdb-mcp: the embedded local service could not start in ${dir}: .*in use.*\\n$`));
  } finally {
    await first.close();
  }
});
