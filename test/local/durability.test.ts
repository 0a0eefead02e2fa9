// Durability: SIGKILL mid-stream of upserts loses nothing acknowledged; indexes, hosts (same ports) and
// collections survive a restart; one process per data dir.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { newDataDir, startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { call, controlClient, waitReady } from "./http.js";

const dirs: string[] = [];
const running: RunningService[] = [];

async function start(dataDir: string, apiKey: string): Promise<RunningService> {
  const svc = await startServiceProcess({ dataDir, apiKey });
  running.push(svc);
  return svc;
}

afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const spec = { pod: { environment: "us-east1-gcp", pod_type: "p1.x1" } };

interface Rec {
  id: string;
  values: number[];
  metadata: Record<string, unknown>;
}

// Values that are exact 32-bit floats, so what comes back must be identical.
const record = (n: number): Rec => ({
  id: `rec-${n}`,
  values: [n / 8, -n / 4, (n % 7) / 2, 1],
  metadata: { n, label: `label ${n}`, even: n % 2 === 0, tags: [`t${n % 3}`] },
});

describe("crash and restart", () => {
  it("keeps every acknowledged upsert, the indexes, their ports and the collections across a SIGKILL", async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const apiKey = "durable-key-0123456789";
    const first = await start(dataDir, apiKey);
    let api = controlClient(first.controlUrl, apiKey);
    const created = await api("POST", "/indexes", { name: "crash", dimension: 4, spec });
    const host = (created.body as { host: string }).host;
    const other = await api("POST", "/indexes", { name: "other", dimension: 2, spec: { serverless: { cloud: "gcp", region: "europe-west4" } } });
    expect(other.status).toBe(201);

    await call(`http://${host}/vectors/upsert`, { method: "POST", apiKey, body: { vectors: [record(0), record(1)], namespace: "ns" } });
    expect((await api("POST", "/collections", { name: "snap", source: "crash" })).status).toBe(201);
    const snap = await waitReady(api, "/collections/snap");

    // Stream batches, 4 in flight, until the service is killed under them.
    const acknowledged: Rec[] = [];
    let next = 2;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const batch = Array.from({ length: 25 }, () => record(next++));
        try {
          const answer = await call(`http://${host}/vectors/upsert`, { method: "POST", apiKey, body: { vectors: batch, namespace: "ns" } });
          if (answer.status === 200) acknowledged.push(...batch);
        } catch {
          return; // the connection died with the service
        }
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    while (acknowledged.length < 1000) await new Promise((r) => setTimeout(r, 5));
    await first.kill();
    killed = true;
    await Promise.all(workers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(1000);

    // A collection, and an index from a collection, created just before a crash are finished (or their
    // copies resumed) at restart.
    const second = await start(dataDir, apiKey);
    api = controlClient(second.controlUrl, apiKey);
    expect((await api("POST", "/collections", { name: "late", source: "crash" })).status).toBe(201);
    const restoring = await api("POST", "/indexes", { name: "restored", dimension: 4, spec: { pod: { ...spec.pod, source_collection: "snap" } } });
    expect(restoring.status).toBe(201);
    await second.kill();

    const third = await start(dataDir, apiKey);
    api = controlClient(third.controlUrl, apiKey);
    const after = await api("GET", "/indexes/crash");
    expect(after.body).toEqual(created.body);
    expect((await api("GET", "/indexes/other")).body).toEqual(other.body);
    expect(await api("GET", "/collections/snap")).toMatchObject({ status: 200, body: snap });
    const late = await waitReady(api, "/collections/late");
    expect(late).toMatchObject({ name: "late", status: "Ready", dimension: 4, environment: "us-east1-gcp" });
    expect(late.vector_count).toBeGreaterThanOrEqual(2 + 1000);
    const restored = await waitReady(api, "/indexes/restored");
    expect(restored.host).toBe((restoring.body as { host: string }).host);
    const restoredStats = await call(`http://${restored.host as string}/describe_index_stats`, { method: "POST", apiKey, body: {} });
    expect((restoredStats.body as { totalVectorCount: number }).totalVectorCount).toBe(snap.vector_count);

    for (let i = 0; i < acknowledged.length; i += 200) {
      const slice = acknowledged.slice(i, i + 200);
      const q = new URLSearchParams({ namespace: "ns" });
      for (const r of slice) q.append("ids", r.id);
      const fetched = await call(`http://${host}/vectors/fetch?${q}`, { apiKey });
      expect(fetched.status).toBe(200);
      const vectors = (fetched.body as { vectors: Record<string, { id: string; values: number[]; metadata: unknown }> }).vectors;
      for (const r of slice) {
        expect(vectors[r.id], r.id).toMatchObject({ id: r.id, values: r.values, metadata: r.metadata });
      }
    }

    // …and by query: search runs on the records loaded into memory at restart, and filters on their metadata index.
    const query = (body: Record<string, unknown>) => call(`http://${host}/query`, { method: "POST", apiKey, body: { namespace: "ns", vector: [1, 0, 0, 1], ...body } });
    const everything = await query({ topK: 10000 });
    const found = new Set((everything.body as { matches: { id: string }[] }).matches.map((m) => m.id));
    for (const r of acknowledged) expect(found.has(r.id), r.id).toBe(true);
    const sample = acknowledged.filter((_, i) => i % 97 === 0);
    const filtered = await query({ topK: 100, filter: { n: { $in: sample.map((r) => r.metadata.n) } } });
    const ids = (filtered.body as { matches: { id: string }[] }).matches.map((m) => m.id);
    expect(ids.sort()).toEqual(sample.map((r) => r.id).sort());
  });

  it("text search after a SIGKILL finds every acknowledged note and none acknowledged as deleted", async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const apiKey = "durable-text-0123456789";
    const first = await start(dataDir, apiKey);
    const created = await controlClient(first.controlUrl, apiKey)("POST", "/indexes/create-for-model", {
      name: "notes",
      cloud: "aws",
      region: "us-east-1",
      embed: { model: "local-bm25", field_map: { text: "chunk_text" } },
    });
    expect(created.status).toBe(201);
    const host = `http://${(created.body as { host: string }).host}`;
    const note = (n: number) => ({ _id: `note-${n}`, chunk_text: `note word${n} tide ${n % 2 ? "river" : "stone"}`, n });
    const acknowledged = new Set<number>();
    const deleted = new Set<number>();
    let next = 0;
    let killed = false;
    const worker = async (w: number) => {
      while (!killed) {
        try {
          if (w === 0 && acknowledged.size > 50 && next % 5 === 0) {
            const target = [...acknowledged].find((n) => !deleted.has(n) && n % 7 === 0);
            if (target !== undefined) {
              const answer = await call(`${host}/vectors/delete`, { method: "POST", apiKey, body: { ids: [`note-${target}`] } });
              if (answer.status === 200) deleted.add(target);
            }
          }
          const batch = Array.from({ length: 20 }, () => note(next++));
          const answer = await call(`${host}/records/namespaces/__default__/upsert`, {
            method: "POST",
            apiKey,
            body: batch.map((r) => JSON.stringify(r)).join("\n"),
            headers: { "content-type": "application/x-ndjson" },
          });
          if (answer.status === 201) for (const r of batch) acknowledged.add(r.n);
        } catch {
          return; // the connection died with the service
        }
      }
    };
    const workers = Array.from({ length: 4 }, (_, w) => worker(w));
    while (acknowledged.size < 600 || deleted.size < 3) await new Promise((r) => setTimeout(r, 5));
    await first.kill();
    killed = true;
    await Promise.all(workers);

    const second = await start(dataDir, apiKey);
    const described = await controlClient(second.controlUrl, apiKey)("GET", "/indexes/notes");
    const search = async (query: Record<string, unknown>) => {
      const answer = await call(`http://${(described.body as { host: string }).host}/records/namespaces/__default__/search`, { method: "POST", apiKey, body: { query, fields: ["n"] } });
      expect(answer.status).toBe(200);
      return (answer.body as { result: { hits: { _id: string; fields: { n: number } }[] } }).result.hits;
    };
    // every note holds "tide": one search lists the namespace's notes, from the postings loaded at restart
    const all = new Set((await search({ top_k: 10000, inputs: { text: "tide" } })).map((h) => h._id));
    const live = [...acknowledged].filter((n) => !deleted.has(n));
    for (const n of live) expect(all.has(`note-${n}`), `note-${n}`).toBe(true);
    for (const n of deleted) expect(all.has(`note-${n}`), `note-${n}`).toBe(false);
    // a note's own word finds it first, and a filter on its metadata keeps only it
    for (const n of live.filter((_, i) => i % 50 === 0)) {
      expect((await search({ top_k: 1, inputs: { text: `word${n} river` } })).map((h) => h._id)).toEqual([`note-${n}`]);
      expect((await search({ top_k: 5, inputs: { text: "tide" }, filter: { n: { $eq: n } } })).map((h) => h.fields)).toEqual([{ n }]);
    }
  });

  it("moves an index to a new port when its old one is taken at restart, and keeps the new one", async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir, "k-0123456789abcdef");
    const created = await controlClient(first.controlUrl, "k-0123456789abcdef")("POST", "/indexes", { name: "moved", dimension: 2, spec });
    const oldHost = (created.body as { host: string }).host;
    await first.stop();

    const squatter: Server = createServer();
    await new Promise<void>((r) => squatter.listen(Number(oldHost.split(":")[1]), "127.0.0.1", () => r()));
    try {
      const second = await start(dataDir, "k-0123456789abcdef");
      const api = controlClient(second.controlUrl, "k-0123456789abcdef");
      const moved = (await api("GET", "/indexes/moved")).body as { host: string };
      expect(moved.host).not.toBe(oldHost);
      expect(moved.host).toMatch(/^127\.0\.0\.1:\d+$/);
      const stats = await call(`http://${moved.host}/describe_index_stats`, { method: "POST", apiKey: "k-0123456789abcdef", body: {} });
      expect(stats.status).toBe(200);
      await second.stop();
      const third = await start(dataDir, "k-0123456789abcdef");
      expect(((await controlClient(third.controlUrl, "k-0123456789abcdef")("GET", "/indexes/moved")).body as { host: string }).host).toBe(moved.host);
      await third.stop();
    } finally {
      squatter.close();
    }
  });
});

describe("crash and restart, API version 2026-07", () => {
  it("keeps a schema index, a namespace alias and a backup schedule, each acknowledged just before a SIGKILL", async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const apiKey = "durable-key-2026-07-0123";
    const headers = { "X-Pinecone-Api-Version": "2026-07" };
    const first = await start(dataDir, apiKey);
    const api = controlClient(first.controlUrl, apiKey);
    const docs = await api("POST", "/indexes", { name: "docs", schema: { fields: { body: { type: "string", full_text_search: { stemming: true } } } } }, headers);
    expect(docs.status).toBe(201);
    const vecs = await api("POST", "/indexes", { name: "vecs", schema: { fields: { _values: { type: "dense_vector", dimension: 2, metric: "cosine" } } } }, headers);
    const host = (vecs.body as { host: string }).host;
    await call(`http://${host}/vectors/upsert`, { method: "POST", apiKey, body: { vectors: [{ id: "a", values: [1, 0] }], namespace: "v1" }, headers });
    const alias = await call(`http://${host}/namespace-aliases`, { method: "POST", apiKey, body: { name: "current", target_namespace: "v1" }, headers });
    expect(alias.status).toBe(200);
    const schedule = await api("POST", "/indexes/vecs/backup-schedules", { name: "nightly", schedule: { type: "time-based", frequency: "weekly" }, retention: { expire_after_days: 7 } }, headers);
    expect(schedule.status).toBe(200);
    await first.kill();

    const second = await start(dataDir, apiKey);
    const again = controlClient(second.controlUrl, apiKey);
    expect((await again("GET", "/indexes/docs", undefined, headers)).body).toEqual(docs.body);
    const id = (schedule.body as { schedule_id: string }).schedule_id;
    expect((await again("GET", `/backup-schedules/${id}`, undefined, headers)).body).toEqual(schedule.body);
    const host2 = ((await again("GET", "/indexes/vecs")).body as { host: string }).host;
    expect((await call(`http://${host2}/namespace-aliases/current`, { apiKey, headers })).body).toEqual(alias.body);
    expect((await call(`http://${host2}/query`, { method: "POST", apiKey, body: { namespace: "current", topK: 1, vector: [1, 0] }, headers })).body).toMatchObject({
      namespace: "v1",
      matches: [{ id: "a" }],
    });
    await second.stop();
  });
});

describe("one process per data dir", () => {
  it("refuses a second service on the same data dir with a clear message, and takes over a stale lock", async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir, "k-0123456789abcdef");
    await expect(startServiceProcess({ dataDir, apiKey: "k-0123456789abcdef" })).rejects.toThrow(
      `is in use by another vecdb-mcp local service (pid ${first.child.pid}). Stop that process or choose another --data-dir.`,
    );
    // The first one is unharmed.
    expect((await call(`${first.controlUrl}/indexes`, { apiKey: "k-0123456789abcdef" })).status).toBe(200);
    await first.kill(); // leaves its lock file behind
    expect(readFileSync(join(dataDir, "service.lock"), "utf8").trim()).toBe(String(first.child.pid));
    const second = await start(dataDir, "k-0123456789abcdef");
    expect((await call(`${second.controlUrl}/indexes`, { apiKey: "k-0123456789abcdef" })).status).toBe(200);
    await second.stop();
  });
});
