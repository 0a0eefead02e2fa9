// Issue 16's attacks on import_vectors' file reading, performed against the built server: a remote HTTP client
// declaring the root file:///, a symbolic link swapped in a loop during imports, a FIFO swapped in a loop, a sparse
// file, a file that is not JSONL at all (its lines must not come back in the results), many imports at once.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { CLI, ROOT, serverEnv, startMcp, type McpSession } from "../helpers/mcp-client.js";
import { createIndex, fetchVectors, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";

const DIM = 4;
let svc: RunningService;
let host = "";
let base: string;
let allowed: string;
let outside: string;
let mcp: McpSession;
const children: ChildProcess[] = [];

const records = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${prefix}${i}`, values: [1, 2, 3, i + 1] })).join("\n") + "\n";

beforeAll(async () => {
  svc = await startServiceProcess();
  host = (await createIndex(svc, { name: "att", dimension: DIM, spec: serverless })).host;
  base = mkdtempSync(join(tmpdir(), "vecdb-attacks-"));
  allowed = join(base, "allowed");
  outside = join(base, "outside");
  mkdirSync(allowed);
  mkdirSync(outside);
  // The file another user may not read: valid JSONL, so that an import of it would land and could be read back.
  writeFileSync(join(outside, "secret.jsonl"), records("SECRET-", 3));
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", allowed] });
});

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await mcp?.close();
  await svc?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

/** A child process that swaps files in a tight loop (the attacker), until killed. */
function swapper(code: string): ChildProcess {
  const child = spawn(process.execPath, ["-e", `const fs = require("node:fs"); for (;;) { try { ${code} } catch {} }`], { stdio: "ignore" });
  children.push(child);
  return child;
}

describe("a remote client over --http", () => {
  it("cannot widen --allow-dir with its roots: file:/// lets it read nothing outside", async () => {
    const token = "t".repeat(32);
    const child = spawn(process.execPath, [CLI, "--http", "--port", "0", "--toolsets", "all", "--allow-dir", allowed], {
      env: serverEnv({ PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, VECDB_HTTP_TOKEN: token }),
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    let err = "";
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line; stderr:\n${err}`)), 20_000);
      child.stderr!.on("data", (c: Buffer) => {
        err += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const client = new Client({ name: "remote", version: "1" }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///", name: "everything" }, { uri: `file://${outside}` }] }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const secret = join(outside, "secret.jsonl");
      const r = await client.callTool({ name: "import_vectors", arguments: { index: "att", namespace: "remote", path: secret } });
      const text = (r.content as { text: string }[])[0].text;
      expect(r.isError).toBe(true);
      expect(text).toBe(`Refused: ${secret} is outside the allowed directories. Allowed directories: ${allowed}. ${nothingWas("read")}`);
      // a file under --allow-dir still imports
      writeFileSync(join(allowed, "remote-ok.jsonl"), records("remote-", 2));
      const ok = await client.callTool({ name: "import_vectors", arguments: { index: "att", namespace: "remote", path: "remote-ok.jsonl" } });
      expect(ok.isError).toBeFalsy();
      expect(Object.keys(await fetchVectors(svc, host, ["SECRET-0", "remote-0"], "remote"))).toEqual(["remote-0"]);
    } finally {
      await client.close();
      child.kill("SIGTERM");
    }
  });
});

describe("files swapped while an import reads them", () => {
  it("a symbolic link to an outside file swapped in a loop never yields outside content or records", async () => {
    const target = join(allowed, "swap.jsonl");
    writeFileSync(join(allowed, "swap-real.jsonl"), records("inside-", 150));
    const secret = join(outside, "secret.jsonl");
    // target is, in turn, a regular file inside and a link to the secret, each swapped in atomically (rename)
    const real = JSON.stringify(join(allowed, "swap-real.jsonl"));
    const [t, a, b] = [target, join(allowed, "swap-a"), join(allowed, "swap-b")].map((p) => JSON.stringify(p));
    swapper(`fs.linkSync(${real}, ${a}); fs.renameSync(${a}, ${t}); fs.symlinkSync(${JSON.stringify(secret)}, ${b}); fs.renameSync(${b}, ${t});`);
    let imported = 0;
    for (let i = 0; i < 60; i++) {
      const r = await mcp.call("import_vectors", { index: "att", namespace: "swap", path: target }, { timeoutMs: 20_000 });
      expect(JSON.stringify(r.result)).not.toContain("SECRET");
      if (!r.isError) imported++;
    }
    expect(Object.keys(await fetchVectors(svc, host, ["SECRET-0", "SECRET-1", "SECRET-2"], "swap"))).toEqual([]);
    process.stderr.write(`symlink swap: ${imported} of 60 imports went through (the rest were refused or read a half-written file)\n`);
  }, 120_000);

  it("a FIFO swapped in a loop cannot hang the server: it answers the next call, and exits on stdin close within the deadline", async () => {
    const target = join(allowed, "fifo-swap.jsonl");
    const regular = join(allowed, "fifo-regular.jsonl");
    const fifo = join(allowed, "fifo-pipe");
    writeFileSync(regular, records("f-", 5));
    await new Promise((r) => spawn("mkfifo", [fifo]).on("exit", r));
    const server = spawn(process.execPath, [CLI, "--toolsets", "all", "--allow-dir", allowed], {
      env: serverEnv({ PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }),
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(server);
    const rpc = lineRpc(server);
    await rpc.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fifo", version: "1" } });
    rpc.notify("notifications/initialized");
    const swap = swapper(
      `fs.renameSync(${JSON.stringify(regular)}, ${JSON.stringify(target)}); fs.renameSync(${JSON.stringify(target)}, ${JSON.stringify(regular)}); ` +
        `fs.renameSync(${JSON.stringify(fifo)}, ${JSON.stringify(target)}); fs.renameSync(${JSON.stringify(target)}, ${JSON.stringify(fifo)});`,
    );
    try {
      for (let i = 0; i < 40; i++) {
        await rpc.request("tools/call", { name: "import_vectors", arguments: { index: "att", namespace: "fifo", path: target } }, 10_000);
      }
    } finally {
      swap.kill("SIGKILL");
    }
    const list = (await rpc.request("tools/list", {}, 5_000)) as { tools: unknown[] };
    expect(list.tools.length).toBeGreaterThan(0);
    const closedAt = Date.now();
    const exited = new Promise<number | null>((r) => server.once("exit", (code) => r(code)));
    server.stdin!.end();
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r("still running"), 8_000))]);
    expect(code).toBe(0);
    expect(Date.now() - closedAt).toBeLessThan(8_000);
  }, 120_000);
});

describe("files that cost more than they hold", () => {
  it("a sparse file is refused before it is read", async () => {
    const sparse = join(allowed, "sparse.jsonl");
    writeFileSync(sparse, records("s-", 1));
    truncateSync(sparse, 8 * 1024 ** 3);
    const started = Date.now();
    const r = await mcp.call("import_vectors", { index: "att", namespace: "sparse", path: sparse });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Refused: \S+sparse\.jsonl is a sparse file \(8589934592 bytes long, but only \d+ bytes are stored on disk\); its holes would be read as zeros\. Give a regular data file\. Allowed directories: /);
    expect(Date.now() - started).toBeLessThan(5_000);
    rmSync(sparse);
  });

  it("many imports at once are queued past a few, and all finish", async () => {
    writeFileSync(join(allowed, "many.jsonl"), records("many-", 200));
    const calls = await Promise.all(Array.from({ length: 6 }, (_, i) => mcp.call("import_vectors", { index: "att", namespace: `many${i}`, path: "many.jsonl" })));
    for (const c of calls) expect(c.isError, c.text).toBe(false);
    expect(mcp.stderr()).toMatch(/import_vectors of many\.jsonl waits for \d+ earlier import\(s\) to finish/);
  });
});

describe("a file that is not JSONL", () => {
  it("its lines never come back in the result: line, column and rule only", async () => {
    writeFileSync(join(allowed, "passwd.jsonl"), "root:x:0:0:root:/root:/bin/bash\nPINECONE_API_KEY=pcsk_abcdefgh\n{\"api_key\": \"hunter2\"}\n[\"hunter3\"]\n");
    const r = await mcp.call("import_vectors", { index: "att", namespace: "pw", path: "passwd.jsonl" });
    expect(r.isError).toBe(true);
    const all = JSON.stringify(r.result);
    for (const leak of ["root:x", "/bin/bash", "PINECONE_API_KEY", "pcsk", "api_key", "hunter"]) expect(all).not.toContain(leak);
    expect(r.text).toContain("\n- line 1: not valid JSON at column 1: a JSON value (object, list, string, number, true, false or null) was expected\n");
    expect(r.text).toContain("\n- line 3: missing \"id\"\n");
  });
});

/** A minimal JSON-RPC client over a child's stdio lines (the test must own stdin to close it). */
function lineRpc(child: ChildProcess) {
  let buf = "";
  let next = 1;
  const waiting = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  child.stdout!.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const msg = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
      if (msg.id !== undefined) waiting.get(msg.id)?.(msg);
    }
  });
  return {
    notify(method: string) {
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
    },
    request(method: string, params: unknown, timeoutMs = 20_000): Promise<unknown> {
      const id = next++;
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${method} (id ${id}) got no answer within ${timeoutMs} ms: the server hangs`)), timeoutMs);
        waiting.set(id, (m) => {
          clearTimeout(timer);
          if (m.error) reject(new Error(JSON.stringify(m.error)));
          else resolve(m.result);
        });
      });
    },
  };
}
