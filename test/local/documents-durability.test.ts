// kill -9 during document writes loses nothing acknowledged: documents upserted, updated and deleted through the
// documents API while the service is killed under them are, after a restart, exactly as the acknowledged writes left
// them — in fetch and in full-text search (the postings are rebuilt from lmdb).
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { newDataDir, startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { until } from "../helpers/until.js";
import { call } from "./http.js";

const dirs: string[] = [];
const running: RunningService[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const apiKey = "durable-documents-key-0123";
const VERSION = { "X-Pinecone-Api-Version": "2026-07" };
const post = (url: string, body: unknown) => call(url, { method: "POST", apiKey, body, headers: VERSION });
const text = (n: number) => `note ${n} about ${["rivers", "stones", "lamps"][n % 3]} and word${n}`;

describe("documents across a SIGKILL", () => {
  it("keeps every acknowledged upsert, update and delete, searchable after the restart", async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const first = await startServiceProcess({ dataDir, apiKey });
    running.push(first);
    const created = await call(`${first.controlUrl}/indexes`, {
      method: "POST",
      apiKey,
      headers: VERSION,
      body: { name: "docs", schema: { fields: { body: { type: "string", full_text_search: { language: "en", stemming: true } } } } },
    });
    expect(created.status).toBe(201);
    const host = (created.body as { host: string }).host;
    const base = `http://${host}/namespaces/ns/documents`;

    // expected state: what the acknowledged writes left (id → body, or deleted); a write the kill cut off may or may
    // not have landed, so its documents are left out of the comparison
    const state = new Map<string, string>();
    const uncertain = new Set<string>();
    const write = async (path: string, body: unknown, ids: string[], acknowledged: () => void) => {
      ids.forEach((id) => uncertain.add(id));
      if ((await post(`${base}/${path}`, body)).status !== 202) throw new Error(`${path} refused`);
      acknowledged();
      ids.forEach((id) => uncertain.delete(id));
    };
    let next = 0;
    let killed = false;
    const worker = async (w: number) => {
      while (!killed) {
        const n = next;
        next += 20;
        try {
          const docs = Array.from({ length: 20 }, (_, i) => ({ _id: `d${n + i}`, body: text(n + i) }));
          await write("upsert", { documents: docs }, docs.map((d) => d._id), () => docs.forEach((d) => state.set(d._id, d.body)));
          if (w === 0) {
            await write("update", { documents: [{ _id: `d${n}`, body: `changed ${n}` }] }, [`d${n}`], () => state.set(`d${n}`, `changed ${n}`));
            await write("delete", { ids: [`d${n + 1}`] }, [`d${n + 1}`], () => state.delete(`d${n + 1}`));
          }
        } catch {
          return; // the connection died with the service
        }
      }
    };
    const workers = [0, 1, 2].map(worker);
    await until(() => state.size >= 400, "400 acknowledged documents");
    await first.kill();
    killed = true;
    await Promise.all(workers);

    const second = await startServiceProcess({ dataDir, apiKey });
    running.push(second);
    const ids = [...state.keys()].filter((id) => !uncertain.has(id));
    expect(ids.length).toBeGreaterThanOrEqual(350);
    for (let i = 0; i < ids.length; i += 1000) {
      const batch = ids.slice(i, i + 1000);
      const fetched = await post(`${base}/fetch`, { ids: batch });
      expect(fetched.status).toBe(200);
      const documents = (fetched.body as { documents: Record<string, { body: string }> }).documents;
      expect(Object.fromEntries(Object.entries(documents).map(([id, d]) => [id, d.body]))).toEqual(Object.fromEntries(batch.map((id) => [id, state.get(id)])));
    }
    const search = async (query: string) =>
      ((await post(`${base}/search`, { score_by: [{ type: "query_string", query }], top_k: 10_000 })).body as { matches: { _id: string }[] }).matches.map((m) => m._id).filter((id) => !uncertain.has(id)).sort();
    const expectIds = (keep: (body: string) => boolean) => ids.filter((id) => keep(state.get(id)!)).sort();
    expect(await search("body:changed")).toEqual(expectIds((b) => b.startsWith("changed")));
    expect(await search('body:"about river"')).toEqual(expectIds((b) => b.includes("about rivers")));
  });
});
