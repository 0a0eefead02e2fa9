// Many clients, one local database: MCP servers with no key share one service per data dir — found, or
// started detached — and survive it going away. Real processes throughout: the built server, the `serve` it starts.
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { startServiceProcess } from "../helpers/local-service.js";
import { api, createIndex, fetchVectors, serverless } from "./support.js";

const IDLE_S = 2; // the quiet period the started services get here (the default is 600)
const dirs: string[] = [];
const sessions: McpSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  for (const dir of dirs) {
    const d = descriptorIn(dir);
    if (d && d.pid !== process.pid && alive(d.pid)) process.kill(d.pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "vecdb-shared-"));
  dirs.push(dir);
  return dir;
}

interface Descriptor { pid: number; url: string; apiKey: string; instance: string }
function descriptorIn(dir: string): Descriptor | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "service.json"), "utf8")) as Descriptor;
  } catch {
    return undefined;
  }
}
const svc = (d: Descriptor) => ({ controlUrl: d.url, apiKey: d.apiKey });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Live `serve` processes on this data dir, from /proc (Linux). */
function servicePids(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (argv.includes("serve") && argv.includes(dir) && state !== "Z") pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

async function server(dir: string, extraEnv: Record<string, string> = {}): Promise<McpSession> {
  const mcp = await startMcp({ env: { VECDB_DATA_DIR: dir, VECDB_LOCAL_IDLE_S: String(IDLE_S), ...extraEnv } });
  sessions.push(mcp);
  return mcp;
}

/** The pid the server says it uses, from its one stderr line (waits for it: the service is found in the background). */
async function usedPid(mcp: McpSession): Promise<number> {
  const line = await until("the local-service line", () => /using the embedded local service at .*pid (\d+)/.exec(mcp.stderr()));
  return Number(line[1]);
}

const vectors = (prefix: string, n: number, dim: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, values: Array.from({ length: dim }, (_, j) => ((i * 7 + j) % 13) / 13 + 0.01) }));

describe("three servers on one data dir, no key", () => {
  const dir = newDir();
  let a: McpSession, b: McpSession, c: McpSession;

  test("all answer through one service, write to the same index and read each other's records", async () => {
    [a, b, c] = await Promise.all([server(dir), server(dir), server(dir)]);
    for (const mcp of [a, b, c]) expect((await mcp.call("list_indexes")).isError).toBe(false);
    const pids = await Promise.all([a, b, c].map(usedPid));
    expect(new Set(pids).size).toBe(1);
    expect(servicePids(dir)).toEqual([pids[0]]);
    const started = [a, b, c].filter((m) => /started it as pid/.test(m.stderr()));
    expect(started).toHaveLength(1); // exactly one of them started it, and said so in one line

    const d = descriptorIn(dir)!;
    await createIndex(svc(d) as never, { name: "shared", dimension: 4, spec: serverless });
    await a.call("upsert_vectors", { index: "shared", vectors: [{ id: "from-a", values: [1, 0, 0, 0] }] });
    await b.call("upsert_vectors", { index: "shared", vectors: [{ id: "from-b", values: [0, 1, 0, 0] }] });
    const read = await c.call("fetch_vectors", { index: "shared", ids: ["from-a", "from-b"] });
    expect(read.isError, read.text).toBe(false);
    expect(JSON.stringify(read.structured)).toContain("from-a");
    expect(JSON.stringify(read.structured)).toContain("from-b");

    // The key and the descriptor go nowhere the user reads: not stdout (the transcript), not stderr, not the log.
    for (const mcp of [a, b, c]) {
      expect(mcp.stderr()).not.toContain(d.apiKey);
      expect(mcp.transcript()).not.toContain(d.apiKey);
    }
    expect(readFileSync(join(dir, "service.log"), "utf8")).not.toContain(d.apiKey);
  });

  test("the first one exiting does not disturb the other two", async () => {
    const pid = descriptorIn(dir)!.pid;
    await a.close();
    await new Promise((r) => setTimeout(r, (IDLE_S + 1) * 1000)); // past the quiet period: b and c keep it
    expect(alive(pid)).toBe(true);
    const r = await b.call("upsert_vectors", { index: "shared", vectors: [{ id: "after-a", values: [0, 0, 1, 0] }] });
    expect(r.isError, r.text).toBe(false);
    expect((await c.call("fetch_vectors", { index: "shared", ids: ["after-a"] })).isError).toBe(false);
  });

  test("kill -9 of the service mid-upsert: the call is retried on a fresh service, every acknowledged record is there", async () => {
    const old = descriptorIn(dir)!;
    const records = vectors("bulk-", 10_000, 128);
    const host = (await createIndex(svc(old) as never, { name: "bulk", dimension: 128, spec: serverless })).host;
    const upsert = b.call("upsert_vectors", { index: "bulk", vectors: records });
    // Kill as soon as the service holds some of them (it answers stats while the upsert runs).
    for (let i = 0; i < 2000; i++) {
      const stats = await api(svc(old), "POST", `http://${host}/describe_index_stats`, {});
      if ((stats.body?.totalVectorCount ?? 0) > 3) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    process.kill(old.pid, "SIGKILL");
    const result = await upsert;
    expect(result.isError, result.text).toBe(false);
    expect(result.structured).toMatchObject({ upserted: 10_000, failed: 0 });
    expect(b.stderr()).toMatch(/went away/);
    // The model is told the call ran twice, in the text and in structuredContent.
    const retried =
      "Retried: the local service stopped answering during this call (it went away, and a new one was started); the call was run again from the start on the new one, and this is the second run's result. A write's records were all sent again.";
    expect(result.text).toContain(retried);
    expect((result.structured as { note?: string }).note).toContain(retried);

    const fresh = await until("a fresh service", () => {
      const d = descriptorIn(dir);
      return d && d.instance !== old.instance && d;
    });
    expect(fresh.pid).not.toBe(old.pid);
    // c never saw the kill happen; its next call just works (on the new service).
    const r = await c.call("fetch_vectors", { index: "shared", ids: ["from-a", "from-b", "after-a"] });
    expect(r.isError, r.text).toBe(false);
    for (const id of ["after-a", "from-a", "from-b"]) expect(JSON.stringify(r.structured)).toContain(`"${id}"`);
    const freshHost = (await api(svc(fresh), "GET", "/indexes/bulk")).body.host as string;
    const got = await fetchVectors(svc(fresh) as never, freshHost, records.map((v) => v.id));
    expect(Object.keys(got)).toHaveLength(10_000);
    expect(servicePids(dir)).toEqual([fresh.pid]);
  }, 120_000);

  test("all servers gone: the service stops after the quiet period, and its lock and descriptor are gone", async () => {
    const d = descriptorIn(dir)!;
    await Promise.all([b.close(), c.close()]);
    await until("the service to stop", () => !alive(d.pid), (IDLE_S + 15) * 1000);
    expect(existsSync(join(dir, "service.lock"))).toBe(false);
    expect(existsSync(join(dir, "service.json"))).toBe(false);
    expect(readFileSync(join(dir, "service.log"), "utf8")).toMatch(/no MCP server attached and no request for 2 s, closing/);
  }, 60_000);
});

test("ten servers started within 100 ms on an empty directory: exactly one service", async () => {
  const dir = newDir();
  const ten = await Promise.all(Array.from({ length: 10 }, () => server(dir)));
  const answers = await Promise.all(ten.map((m) => m.call("list_indexes")));
  expect(answers.every((r) => !r.isError)).toBe(true);
  const pids = await Promise.all(ten.map(usedPid));
  expect(new Set(pids).size).toBe(1);
  await until("the losing starts to exit", () => servicePids(dir).length === 1);
  expect(servicePids(dir)).toEqual([pids[0]]);
  await Promise.all(ten.map((m) => m.close()));
}, 120_000);

describe("what a server finds in the data dir", () => {
  test("a service run by hand is found and used", async () => {
    const dir = newDir();
    const byHand = await startServiceProcess({ dataDir: dir });
    try {
      const mcp = await server(dir);
      expect((await mcp.call("list_indexes")).isError).toBe(false);
      expect(await usedPid(mcp)).toBe(byHand.child.pid);
      await createIndex(byHand, { name: "hand", dimension: 2, spec: serverless });
      expect((await mcp.call("upsert_vectors", { index: "hand", vectors: [{ id: "h", values: [1, 2] }] })).isError).toBe(false);
      const host = (await api(byHand, "GET", "/indexes/hand")).body.host as string;
      expect((await fetchVectors(byHand, host, ["h"])).h).toMatchObject({ values: [1, 2] });
      await mcp.close();
    } finally {
      await byHand.stop();
    }
  });

  test("a stale descriptor (dead pid) or one whose port answers as someone else: a fresh service, the key never sent", async () => {
    const dir = newDir();
    const seen: IncomingHttpHeaders[] = [];
    const squatter = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ proof: "0".repeat(64) }));
    });
    await new Promise<void>((r) => squatter.listen(0, "127.0.0.1", () => r()));
    const port = (squatter.address() as AddressInfo).port;
    try {
      // A live pid (this test's own) whose port is someone else's: the identity check fails.
      const planted = { pid: process.pid, url: `http://127.0.0.1:${port}`, apiKey: "planted-key-0123456789", instance: "old" };
      writeFileSync(join(dir, "service.json"), JSON.stringify(planted), { mode: 0o600 });
      writeFileSync(join(dir, "service.lock"), "999999\n", { mode: 0o600 });
      const mcp = await server(dir);
      expect((await mcp.call("list_indexes")).isError).toBe(false);
      const d = descriptorIn(dir)!;
      expect(d.instance).not.toBe("old");
      expect(await usedPid(mcp)).toBe(d.pid);
      expect(seen.length).toBeGreaterThan(0); // it was asked who it is …
      for (const headers of seen) expect(headers["api-key"]).toBeUndefined(); // … and never given a key
      await mcp.close();
    } finally {
      squatter.close();
    }
  });

  test("a descriptor pointing off loopback is refused with a message, and nothing is sent there", async () => {
    const dir = newDir();
    writeFileSync(
      join(dir, "service.json"),
      JSON.stringify({ pid: process.pid, url: "http://192.0.2.10:5080", apiKey: "k-0123456789abcdef", instance: "x" }),
      { mode: 0o600 },
    );
    const mcp = await server(dir);
    const r = await mcp.call("list_indexes");
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`${join(dir, "service.json")} points at 192.0.2.10:5080, which is not a loopback address; refusing to send the data dir's key there.`);
    expect(r.text).not.toContain("k-0123456789abcdef");
    await mcp.close();
  });

  test.skipIf(process.getuid?.() !== 0)("a descriptor written by another user is refused with a message", async () => {
    const dir = newDir();
    const path = join(dir, "service.json");
    writeFileSync(path, JSON.stringify({ pid: process.pid, url: "http://127.0.0.1:1", apiKey: "k-0123456789abcdef", instance: "x" }), { mode: 0o600 });
    chownSync(path, 65534, 65534);
    const mcp = await server(dir);
    const r = await mcp.call("list_indexes");
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`${path} belongs to another user (uid 65534, you are uid 0); refusing to use the service it names.`);
    await mcp.close();
  });
});
