// Stateless HTTP that scales out: two server processes behind a round-robin proxy (as any load balancer would put
// them) serve one 2026-07-28 client, request by request: a confirmation whose second round lands on the other
// process (one signing secret, VECDB_HTTP_STATE_SECRET, on both), states tampered with or replayed refused, a long import
// with progress, and a cancellation by closing the request's stream (the work stops and its account is logged).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { raw, sseMessages, startHttp, type HttpServerProcess } from "../helpers/http-server.js";
import { connectModernHttp, modernRequest, type ModernSession } from "../helpers/mcp-modern.js";
import { until } from "../helpers/until.js";
import { api, createIndex, indexStats, randomVector, serverless } from "./support.js";

const TOKEN = "Zq8mW3xK7pL2vN9cR4tY6bH1";
const SECRET = "Jd5Gf8Hs2Ka9Lq4Wm7Xn3Bv6Cz1Ty0Pe5Ru8Io2";
let svc: RunningService;
let backends: HttpServerProcess[];
let proxy: { url: string; served: { method: string; backend: number }[]; close(): Promise<void> };
let dir: string;
let dataDir: string;
let client: ModernSession;

/** A round-robin HTTP proxy: each request to the next backend, bodies and answers streamed; Host set to the backend's. */
async function roundRobin(targets: string[]): Promise<typeof proxy> {
  const served: { method: string; backend: number }[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const backend = next++ % targets.length;
    const to = new URL(targets[backend]);
    served.push({ method: String(req.headers["mcp-method"] ?? req.method), backend });
    const up = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
    res.on("close", () => up.destroy()); // a client that closes its stream closes the backend's: how it cancels
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    served,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const exists = async (name: string) => (await api(svc, "GET", `/indexes/${name}`)).status === 200;

beforeAll(async () => {
  svc = await startServiceProcess();
  dir = mkdtempSync(join(tmpdir(), "vecdb-scale-out-"));
  dataDir = mkdtempSync(join(tmpdir(), "vecdb-scale-out-data-"));
  const env = { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, VECDB_HTTP_TOKEN: TOKEN, VECDB_HTTP_STATE_SECRET: SECRET };
  // One data dir for both, as two processes of one user on one host have by default: it holds the used states.
  const args = ["--allow-destructive", "--allow-dir", dir, "--concurrency", "2", "--data-dir", dataDir];
  backends = await Promise.all([startHttp({ env, args }), startHttp({ env, args })]);
  proxy = await roundRobin(backends.map((b) => b.url));
  client = await connectModernHttp(proxy.url, { Authorization: `Bearer ${TOKEN}` }, (p) => ({
    action: "accept",
    content: { name: /type "([^"]+)"/.exec((p as { message: string }).message)![1] },
  }));
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await Promise.all((backends ?? []).map((b) => b.stop()));
  await svc?.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

test("a confirmation's two rounds are served by the two processes, and the index is deleted", async () => {
  await createIndex(svc, { name: "across", dimension: 2, spec: serverless });
  proxy.served.length = 0;
  const done = await client.call("delete_index", { index: "across" });
  expect(done.isError, JSON.stringify(done)).toBeFalsy();
  const rounds = proxy.served.filter((s) => s.method === "tools/call");
  expect(rounds).toHaveLength(2);
  expect(rounds[0].backend).not.toBe(rounds[1].backend);
  expect(await exists("across")).toBe(false);
});

describe("states through the proxy", () => {
  const ELICIT = { elicitation: { form: {} } };
  const call = async (id: number, index: string, extra: Record<string, unknown> = {}) => {
    const r = modernRequest(id, "tools/call", { name: "delete_index", arguments: { index }, ...extra }, { token: TOKEN, name: "delete_index", capabilities: ELICIT });
    return sseMessages((await raw(proxy.url, r)).body)[0];
  };
  const accept = (name: string) => ({ confirm: { action: "accept", content: { name } } });

  test("tampered: refused by whichever process gets it, nothing deleted", async () => {
    await createIndex(svc, { name: "tampered", dimension: 2, spec: serverless });
    const { requestState } = (await call(1, "tampered")).result as { requestState: string };
    const body = JSON.parse(Buffer.from(requestState.slice(3, requestState.lastIndexOf(".")), "base64url").toString("utf8"));
    body.p.answers = { confirm: { question: body.p.pending.question, value: { action: "accept", content: { name: "tampered" } } } };
    const forged = `v1.${Buffer.from(JSON.stringify(body)).toString("base64url")}${requestState.slice(requestState.lastIndexOf("."))}`;
    for (const id of [2, 3]) {
      // twice: one lands on each process
      expect((await call(id, "tampered", { inputResponses: accept("tampered"), requestState: forged })).error).toMatchObject({ code: -32602 });
    }
    expect(await exists("tampered")).toBe(true);
  });

  test("replayed to either process (they share the data dir's used states): refused, the index made again meanwhile stays", async () => {
    await createIndex(svc, { name: "replayed", dimension: 2, spec: serverless });
    proxy.served.length = 0;
    const { requestState } = (await call(1, "replayed")).result as { requestState: string };
    const round = { inputResponses: accept("replayed"), requestState };
    expect((await call(2, "replayed", round)).result.isError).toBeFalsy();
    await createIndex(svc, { name: "replayed", dimension: 2, spec: serverless });
    for (const id of [3, 4]) {
      // twice: one lands on each process
      expect((await call(id, "replayed", round)).error).toEqual({
        code: -32602,
        message: "Invalid requestState: it was used already; nothing was done. Call the tool again without it.",
      });
    }
    expect(new Set(proxy.served.slice(-2).map((s) => s.backend))).toEqual(new Set([0, 1]));
    expect(await exists("replayed")).toBe(true);
  });
});

describe("a long import", () => {
  const N = 5000;
  let host = "";
  const file = (name: string) => {
    const path = join(dir, name);
    writeFileSync(path, Array.from({ length: N }, (_, i) => JSON.stringify({ id: `r${i}`, values: randomVector(32, i + 1) })).join("\n") + "\n");
    return path;
  };
  const count = async (ns: string) => (await indexStats(svc, host)).namespaces[ns]?.vectorCount ?? 0;

  beforeAll(async () => {
    ({ host } = await createIndex(svc, { name: "bulk", dimension: 32, spec: serverless }));
  });

  test("reports progress through the proxy, and every record lands", async () => {
    const progress: number[] = [];
    const done = await client.call("import_vectors", { index: "bulk", namespace: "whole", path: file("whole.jsonl") }, { onprogress: (p) => void progress.push(p.progress) });
    expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await count("whole")).toBe(N);
  });

  test("closing the request's stream cancels it: sending stops, and the process logs what landed", async () => {
    const path = file("cancelled.jsonl");
    const controller = new AbortController();
    const call = client.call("import_vectors", { index: "bulk", namespace: "cancelled", path }, {
      signal: controller.signal,
      onprogress: (p) => {
        if (p.progress >= 1000) controller.abort("enough");
      },
    });
    await expect(call).rejects.toThrow();
    const line = () => backends.map((b) => b.stderr()).join("\n").split("\n").find((l) => l.includes(`import_vectors of ${path} cancelled:`)) ?? "";
    await until(() => line() !== "", "the cancelled import's account in a server's log", 10_000);
    const m = new RegExp(`cancelled: (\\d+) of ${N} records landed \\(lines ([\\d–, ]+)\\); resume with startAt (\\d+)$`).exec(line());
    expect(m, line()).not.toBeNull();
    // The account is logged once every request the process sent has settled. What the service had received by then
    // commits before a later write (lmdb commits in the order writes are asked for): a write of our own is the
    // barrier, and a second one shows nothing of the import arrived between them.
    const barrier = async (id: string) => {
      const res = await api(svc, "POST", `http://${host}/vectors/upsert`, { namespace: "cancelled", vectors: [{ id, values: randomVector(32, 9999) }] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await barrier("barrier-1");
    const soon = (await count("cancelled")) - 1;
    await barrier("barrier-2");
    expect((await count("cancelled")) - 2).toBe(soon); // nothing more is sent after the cancel
    expect(soon).toBeLessThan(N);
    expect(soon - Number(m![1])).toBeLessThanOrEqual(200); // at most the batches that were in flight
  });
});

describe("a process stopped while it serves a new-era call", () => {
  test("SIGTERM past the grace period: the call answers with what landed and where to resume, and the service holds exactly that", async () => {
    const env = { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, VECDB_HTTP_TOKEN: TOKEN, VECDB_HTTP_STATE_SECRET: SECRET };
    const lone = await startHttp({ env, args: ["--allow-dir", dir, "--concurrency", "1", "--shutdown-grace-s", "0"] });
    const { host } = await createIndex(svc, { name: "stopped", dimension: 32, spec: serverless });
    const path = join(dir, "stopped.jsonl");
    writeFileSync(path, Array.from({ length: 5000 }, (_, i) => JSON.stringify({ id: `s${i}`, values: randomVector(32, i + 1) })).join("\n") + "\n");
    const c = await connectModernHttp(lone.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      let progressed!: () => void;
      const first = new Promise<void>((r) => (progressed = r));
      const call = c.call("import_vectors", { index: "stopped", namespace: "stopped", path }, { onprogress: () => progressed() });
      await first;
      lone.child.kill("SIGTERM");
      const result = await call;
      const s = result.structuredContent as { records: number; upserted: number; failed: number; resumeStartAt?: number };
      const text = (result.content[0] as { text: string }).text;
      expect(text).toMatch(/^The import stopped: \d+ of 5000 records were NOT written/);
      expect(text).toContain("the server stopped the call (shutting down, or the session was closed)");
      expect(s.upserted + s.failed).toBe(5000);
      expect(s.failed).toBeGreaterThan(0);
      expect((await indexStats(svc, host)).namespaces.stopped?.vectorCount ?? 0).toBe(s.upserted);
      expect(await lone.exited).toBe(0);
    } finally {
      await c.close();
      await lone.stop();
    }
  });
});
