// copy_index stopped by kill -9 of the server in the middle of a copy, then called again by a new server: it goes on
// from its checkpoint, and every record is on the target exactly once, the account exact. The target ("other") is
// reached through proxies that hold its upserts past a point, so the kill comes while writes are in flight; those
// writes land after the server died, and the second call finds them already there.
import { readdirSync, readFileSync, mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/until.js";
import { api, createIndex, dataUrl, f32, fetchVectors, indexStats, randomVector, serverless, startProxy, type Proxy } from "../../e2e/support.js";

let source: RunningService;
let target: RunningService;
let control: Proxy;
let data: Proxy;
const sessions: McpSession[] = [];
const dataDir = mkdtempSync(join(tmpdir(), "vecdb-copy-resume-"));
const COUNTS: Record<string, number> = { "": 2500, late: 1200 };
const PASSED = 14; // upserts let through before the rest are held
let release: () => void = () => {};
const held = new Promise<void>((resolve) => (release = resolve));

const idOf = (ns: string, i: number) => `${ns || "first"}-${String(i).padStart(5, "0")}`;
const vectorOf = (ns: string, i: number) => randomVector(16, (ns === "" ? 1 : 2) * 100_000 + i);

beforeAll(async () => {
  [source, target] = await Promise.all([startServiceProcess(), startServiceProcess()]);
  const from = await createIndex(source, { name: "big", dimension: 16, spec: serverless });
  for (const [ns, n] of Object.entries(COUNTS)) {
    for (let start = 0; start < n; start += 500) {
      const vectors = Array.from({ length: Math.min(500, n - start) }, (_, k) => ({ id: idOf(ns, start + k), values: vectorOf(ns, start + k), metadata: { i: start + k } }));
      expect((await api(source, "POST", `${dataUrl(from.host)}/vectors/upsert`, { vectors, namespace: ns })).status).toBe(200);
    }
  }
  const to = await createIndex(target, { name: "big", dimension: 16, spec: serverless });
  let upserts = 0;
  data = await startProxy({ target: `http://${to.host}`, fault: (req) => (req.url?.startsWith("/vectors/upsert") && upserts++ >= PASSED ? { until: held } : "pass") });
  control = await startProxy({ target: target.controlUrl, rewrite: (body) => body.split(to.host).join(data.host) });
});

afterAll(async () => {
  release();
  for (const s of sessions) await s.close();
  await control?.close();
  await data?.close();
  await source?.stop();
  await target?.stop();
});

const server = async () => {
  const s = await startMcp({
    env: {
      PINECONE_API_KEY: source.apiKey,
      PINECONE_CONTROLLER_HOST: source.controlUrl,
      VECDB_OTHER_API_KEY: target.apiKey,
      VECDB_OTHER_HOST: control.url,
      VECDB_DATA_DIR: dataDir,
      VECDB_CONCURRENCY: "2",
    },
  });
  sessions.push(s);
  return s;
};

function checkpoint(): { namespaces: Record<string, { copied: number; token?: string; done: boolean }> } | undefined {
  const folder = join(dataDir, "copy-checkpoints");
  const file = existsSync(folder) ? readdirSync(folder).find((f) => f.endsWith(".json")) : undefined;
  return file ? JSON.parse(readFileSync(join(folder, file), "utf8")) : undefined;
}

test("copy_index after kill -9 of the server mid-copy: the next call resumes; every record on the target exactly once, the account exact", async () => {
  const first = await server();
  const running = first.call("copy_index", { from: "main", to: "other", index: "big" }).catch((e: unknown) => e);
  const upserts = () => data.requests.filter((r) => r.path.startsWith("/vectors/upsert"));
  await until(() => upserts().length === PASSED + 2 && (checkpoint()?.namespaces[""]?.copied ?? 0) === 1000, "two upserts held and the first chunk's checkpoint written");
  const folder = join(dataDir, "copy-checkpoints");
  const file = readdirSync(folder).find((f) => f.endsWith(".json"))!;
  if (process.platform !== "win32") {
    expect(readdirSync(folder).sort()).toEqual([file, `${file}.lock`]); // the lock names the copying server, which dies below
    expect((await import("node:fs")).statSync(join(folder, file)).mode & 0o777).toBe(0o600);
  }
  const pid = (first.client.transport as StdioClientTransport).pid!;
  process.kill(pid, "SIGKILL");
  await running;
  release(); // the writes that were in flight now land, after the server died
  await until(() => upserts().every((r) => r.status === 200), "the held upserts to land");

  const second = await server();
  const resumed = await second.call("copy_index", { from: "main", to: "other", index: "big" }, { progress: true });
  expect(resumed.isError, resumed.text).toBe(false);
  expect(resumed.structured).toMatchObject({ resumed: true, complete: true, failures: [], records: 3700 });
  expect(resumed.structured!.namespaces).toEqual([
    { namespace: "", sourceRecords: 2500, copied: 900, copiedBefore: 1000, alreadyThere: 600, skipped: 0, failed: 0, complete: true },
    { namespace: "late", sourceRecords: 1200, copied: 1200, copiedBefore: 0, alreadyThere: 0, skipped: 0, failed: 0, complete: true },
  ]);
  expect(resumed.progress[0].progress).toBeGreaterThanOrEqual(1000); // counted from where the first call stopped
  expect(resumed.progress.at(-1)).toMatchObject({ progress: 3700, total: 3700 });
  expect(checkpoint()).toBeUndefined(); // a complete copy leaves no checkpoint, and no lock
  expect(readdirSync(join(dataDir, "copy-checkpoints"))).toEqual([]);

  const host = (await api(target, "GET", "/indexes/big")).body.host;
  expect((await indexStats(target, host)).namespaces).toEqual({ "": { vectorCount: 2500 }, late: { vectorCount: 1200 } });
  for (const [ns, n] of Object.entries(COUNTS)) {
    const ids = Array.from({ length: n }, (_, i) => idOf(ns, i));
    const got = await fetchVectors(target, host, ids, ns);
    expect(Object.keys(got).sort()).toEqual(ids);
    for (let i = 0; i < n; i++) {
      expect(got[ids[i]].values.map(f32)).toEqual(vectorOf(ns, i).map(f32));
      expect(got[ids[i]].metadata).toEqual({ i });
    }
  }
});
