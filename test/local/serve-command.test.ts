// `vecdb-mcp serve`: arguments, the one stderr line, clean close on signals, and the API key kept per data dir.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalService } from "../../src/local/index.js";
import { cliPath, newDataDir, startServiceProcess } from "../helpers/local-service.js";
import { call, controlClient, waitReady } from "./http.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const dir = () => {
  const d = newDataDir();
  dirs.push(d);
  return d;
};

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, "serve", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe("vecdb-mcp serve", () => {
  const OPTIONS = "vecdb-mcp serve --help lists the options";
  it.each([
    [[], "vecdb-mcp serve: --data-dir / VECDB_DATA_DIR is required"],
    [["--data-dir"], `vecdb-mcp serve: Option '--data-dir <value>' argument missing; ${OPTIONS}`],
    [["--data-dir", "/tmp/x", "--verbose"], `vecdb-mcp serve: Unknown option '--verbose'; ${OPTIONS}`],
    [["--data-dir", "/tmp/x", "--port", "http"], 'vecdb-mcp serve: --port must be an integer from 0 to 65535 (got "http")'],
    [["--data-dir", "/tmp/x", "--port=70000"], 'vecdb-mcp serve: --port must be an integer from 0 to 65535 (got "70000")'],
    [["--data-dir", "/tmp/x", "--approximate-above", "1e6"], 'vecdb-mcp serve: --approximate-above must be an integer from 0 to 9999999999 (got "1e6")'],
    [["--data-dir", "/tmp/x", "--local-idle-s", "0"], 'vecdb-mcp serve: --local-idle-s / VECDB_LOCAL_IDLE_S must be an integer from 1 to 86400 (got "0")'],
    [["--data-dir", "/tmp/x", "--idle-stop-s", "9"], `vecdb-mcp serve: Unknown option '--idle-stop-s'; ${OPTIONS}`],
  ])("refuses %j with exit code 2 and the usage", async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `${message}\nusage: vecdb-mcp serve --data-dir DIR [--local-idle-s N] [--embed-url URL] [--allow-dir DIR]… [--port N] [--host H] [--api-key KEY] [--api-key-file FILE] [--memory-limit-mb N] [--approximate-above N]\n`,
    );
  });

  it("prints exactly one listening line, and closes cleanly with exit code 0 on SIGINT and SIGTERM", async () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const dataDir = dir();
      const svc = await startServiceProcess({ dataDir });
      const lines = svc.stderr().split("\n").filter(Boolean);
      expect(lines).toEqual([`vecdb-mcp local service listening on ${svc.controlUrl} (data dir ${dataDir})`]);
      expect(svc.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(existsSync(join(dataDir, "service.lock"))).toBe(true);
      const exited = new Promise<number | null>((r) => svc.child.once("exit", (code) => r(code)));
      svc.child.kill(signal);
      expect(await exited).toBe(0);
      expect(existsSync(join(dataDir, "service.lock"))).toBe(false);
      expect(svc.stderr()).toContain(`${signal} received, closing`);
    }
  });

  it("listens on the port given", async () => {
    const port = await freePort();
    const dataDir = dir();
    const child = spawn(process.execPath, [cliPath, "serve", "--port", String(port), "--data-dir", dataDir, "--api-key", "k-0123456789abcdef"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    await new Promise<void>((r) =>
      child.stderr.setEncoding("utf8").on("data", (c: string) => {
        stderr += c;
        if (stderr.includes("listening on")) r();
      }),
    );
    expect(stderr).toContain(`listening on http://127.0.0.1:${port} `);
    expect((await call(`http://127.0.0.1:${port}/indexes`, { apiKey: "k-0123456789abcdef" })).body).toEqual({ indexes: [] });
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  });

  it("says in one line when the port is taken, exits 1 and leaves the data dir unlocked", async () => {
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(0, "127.0.0.1", () => r()));
    const port = (squatter.address() as { port: number }).port;
    const dataDir = dir();
    try {
      const { code, stderr } = await run(["--port", String(port), "--data-dir", dataDir, "--api-key", "k-0123456789abcdef"]);
      expect(code).toBe(1);
      expect(stderr).toBe(`vecdb-mcp serve: port ${port} on 127.0.0.1 is already in use; choose another --port (or --port 0 for a free one).\n`);
      expect(existsSync(join(dataDir, "service.lock"))).toBe(false);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });

  it("--approximate-above: the built service loads the native library from its bundle and builds the index in the background", async () => {
    const svc = await startServiceProcess({ dataDir: dir(), apiKey: "k-0123456789abcdef", args: ["--approximate-above", "600"] });
    try {
      const api = controlClient(svc.controlUrl, "k-0123456789abcdef");
      const created = await api("POST", "/indexes", { name: "big", dimension: 8, metric: "cosine", spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
      expect(created.status).toBe(201);
      await waitReady(api, "/indexes/big");
      const host = `http://${(created.body as { host: string }).host}`;
      const vectors = Array.from({ length: 800 }, (_, i) => ({ id: `v${i}`, values: Array.from({ length: 8 }, (_, d) => Math.sin((i + 1) * (d + 1))) }));
      expect((await call(`${host}/vectors/upsert`, { method: "POST", apiKey: "k-0123456789abcdef", body: { vectors } })).status).toBe(200);
      const query = () => call(`${host}/query`, { method: "POST", apiKey: "k-0123456789abcdef", body: { vector: vectors[5].values, topK: 3 } });
      expect(((await query()).body as { matches: { id: string }[] }).matches[0].id).toBe("v5");
      for (let i = 0; i < 500 && !svc.stderr().includes("built (800 records"); i++) await new Promise((r) => setTimeout(r, 20));
      expect(svc.stderr()).toContain('vecdb-mcp local service: building an approximate index (usearch 2.25.3) for namespace "", 800 records, in the background');
      expect(svc.stderr()).toContain('vecdb-mcp local service: approximate index for namespace "" built (800 records');
      expect(((await query()).body as { matches: { id: string; score: number }[] }).matches[0]).toMatchObject({ id: "v5" });
    } finally {
      const exited = new Promise((r) => svc.child.once("exit", r));
      svc.child.kill("SIGTERM");
      await exited;
    }
  });

  it("says in one line when the data dir cannot be made", async () => {
    const { code, stderr } = await run(["--data-dir", "/dev/null/data"]);
    expect(code).toBe(1);
    expect(stderr).toBe("vecdb-mcp serve: ENOTDIR: not a directory, mkdir '/dev/null/data'\n");
  });
});

describe("API key", () => {
  it("generates a random key per data dir, keeps it in <dataDir>/api-key with mode 0600, and reuses it", async () => {
    const dataDir = dir();
    const first = await startLocalService({ dataDir, log: () => undefined });
    const file = join(dataDir, "api-key");
    expect(readFileSync(file, "utf8").trim()).toBe(first.apiKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.apiKey.length).toBeGreaterThanOrEqual(32);
    expect((await call(`${first.controlUrl}/indexes`, { apiKey: first.apiKey })).status).toBe(200);
    await first.close();

    const second = await startLocalService({ dataDir, log: () => undefined });
    expect(second.apiKey).toBe(first.apiKey);
    await second.close();

    const other = await startLocalService({ dataDir: dir(), log: () => undefined });
    expect(other.apiKey).not.toBe(first.apiKey);
    await other.close();
  });

  it("refuses a second in-process service on the same data dir until the first is closed", async () => {
    const dataDir = dir();
    const first = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
    await expect(startLocalService({ dataDir, apiKey: "k", log: () => undefined })).rejects.toThrow(
      `The data dir ${dataDir} is in use by another local service in this same process (pid ${process.pid}).`,
    );
    await first.close();
    const again = await startLocalService({ dataDir, apiKey: "k", log: () => undefined });
    await again.close();
  });

  it("accepts only the configured key when one is given", async () => {
    const svc = await startLocalService({ dataDir: dir(), apiKey: "given-key", log: () => undefined });
    expect(svc.apiKey).toBe("given-key");
    expect((await call(`${svc.controlUrl}/indexes`, { apiKey: "given-key" })).status).toBe(200);
    expect((await call(`${svc.controlUrl}/indexes`, { apiKey: "other" })).status).toBe(401);
    await svc.close();
  });
});

describe("serve's key and address (issue 16 item 16)", () => {
  it("refuses a given key shorter than 16 characters, however it is given", async () => {
    const dataDir = dir();
    const short = await run(["--data-dir", dataDir, "--api-key", "k"]);
    expect(short.code).toBe(2);
    expect(short.stderr.split("\n")[0]).toBe("vecdb-mcp serve: --api-key / VECDB_LOCAL_API_KEY must be at least 16 characters (a short key is guessed quickly); leave it out and one is generated");
    const file = join(dataDir, "..", `${dataDir.split("/").pop()}-key`);
    writeFileSync(file, "abc\n");
    dirs.push(file);
    const fromFile = await run(["--data-dir", dataDir, "--api-key-file", file]);
    expect(fromFile.stderr.split("\n")[0]).toBe(`vecdb-mcp serve: the key in ${file} must be at least 16 characters (a short key is guessed quickly); leave it out and one is generated`);
  });

  it("reads the key from a file or from VECDB_LOCAL_API_KEY, so that it does not show in ps", async () => {
    const dataDir = dir();
    const file = `${dataDir}-key`;
    dirs.push(file);
    writeFileSync(file, "from-a-file-0123456789\n");
    for (const [args, env, key] of [
      [["--api-key-file", file], {}, "from-a-file-0123456789"],
      [[], { VECDB_LOCAL_API_KEY: "from-the-env-0123456789" }, "from-the-env-0123456789"],
    ] as const) {
      const child = spawn(process.execPath, [cliPath, "serve", "--data-dir", dataDir, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
      let stderr = "";
      const url = await new Promise<string>((r) =>
        child.stderr.setEncoding("utf8").on("data", (c: string) => {
          stderr += c;
          const m = /listening on (http:\/\/\S+)/.exec(stderr);
          if (m) r(m[1]);
        }),
      );
      expect((await call(`${url}/indexes`, { apiKey: key })).status).toBe(200);
      expect(readFileSync(`/proc/${child.pid}/cmdline`, "utf8")).not.toContain(key);
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("--host 0.0.0.0 prints the address it really listens on, and warns that it is plain HTTP", async () => {
    const child = spawn(process.execPath, [cliPath, "serve", "--data-dir", dir(), "--host", "0.0.0.0"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    await new Promise<void>((r) =>
      child.stderr.setEncoding("utf8").on("data", (c: string) => {
        stderr += c;
        if (stderr.includes("TLS proxy\n")) r();
      }),
    );
    const lines = stderr.split("\n");
    expect(lines[0]).toMatch(/^vecdb-mcp local service listening on http:\/\/0\.0\.0\.0:\d+ \(data dir .*\); from this machine: http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toBe(
      "vecdb-mcp local service: warning: plain HTTP on a non-loopback address — the API key and every record cross the network unencrypted; keep it on a trusted network or behind a TLS proxy",
    );
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  });
});
