// A document index after a kill -9 and a restart: how long its first full-text search takes once the service says the
// namespace is in memory, against the same search's p50 before the restart (the postings whole) in the same run.
// The full-text postings are built as the records load in the background; before, the first search built them.
//
//   BENCH_DOCS_RESTART_COUNT (default 20000) documents of 1–2 KB (Zipfian words), 500 a request.
import { performance } from "node:perf_hooks";
import { rm } from "node:fs/promises";
import { newDataDir, startServiceProcess, type RunningService } from "../test/helpers/local-service.js";
import { seededRandom, syllableWord, zipf } from "./lib.js";

const COUNT = Number(process.env.BENCH_DOCS_RESTART_COUNT ?? 20_000);
const VOCABULARY = 30_000;
const VERSION = { "X-Pinecone-Api-Version": "2026-07" };
const SEARCHES = 21;

async function post(url: string, apiKey: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: "POST", headers: { "Api-Key": apiKey, "content-type": "application/json", ...VERSION }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function waitFor(what: string, ready: () => Promise<boolean> | boolean, ms = 300_000): Promise<void> {
  for (let waited = 0; !(await ready()); waited += 50) {
    if (waited > ms) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function benchDocumentsRestart(): Promise<void> {
  const random = seededRandom(2611);
  const draw = zipf(VOCABULARY, random);
  const texts = Array.from({ length: COUNT }, () => Array.from({ length: 170 + Math.floor(random() * 161) }, () => syllableWord(draw())).join(" "));
  const search = (i: number) => ({ score_by: [{ type: "text", fields: ["body"], query: `${syllableWord(20 + ((i * 97) % 4000))} ${syllableWord(40 + ((i * 31) % 3000))}` }], top_k: 10 });
  const dataDir = newDataDir();
  let service: RunningService | undefined = await startServiceProcess({ dataDir, timeoutMs: 60_000 });
  try {
    const created = await post(`${service.controlUrl}/indexes`, service.apiKey, {
      name: "articles",
      deployment: { deployment_type: "managed", cloud: "aws", region: "us-east-1" },
      schema: { fields: { body: { type: "string", full_text_search: { language: "en" } } } },
    });
    if (created.status !== 201) throw new Error(`create index: ${created.status} ${JSON.stringify(created.body)}`);
    const hostOf = async (s: RunningService) => {
      let host = "";
      await waitFor("the index ready", async () => {
        const d = (await (await fetch(`${s.controlUrl}/indexes/articles`, { headers: { "Api-Key": s.apiKey, ...VERSION } })).json()) as { host: string; status: { ready: boolean } };
        host = d.host;
        return d.status.ready;
      });
      return `http://${host}/namespaces/bench/documents`;
    };
    let base = await hostOf(service);
    for (let i = 0; i < COUNT; i += 500) {
      const r = await post(`${base}/upsert`, service.apiKey, { documents: texts.slice(i, i + 500).map((body, j) => ({ _id: `doc-${i + j}`, body })) });
      if (r.status !== 202) throw new Error(`upsert: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const before: number[] = [];
    const answers: string[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const t = performance.now();
      const r = await post(`${base}/search`, service.apiKey, search(i));
      if (i > 0) before.push(performance.now() - t); // the first builds the postings of the documents just written
      answers.push(JSON.stringify(r.body.matches));
    }

    await service.kill();
    const started = performance.now();
    service = await startServiceProcess({ dataDir, apiKey: service.apiKey, timeoutMs: 60_000 });
    const restarted = service;
    base = await hostOf(service);
    let loaded: RegExpExecArray | null = null;
    await waitFor("the namespace in memory", () => (loaded = /namespace "bench" in memory: \d+ records loaded in ([\d.]+) s/.exec(restarted.stderr())) !== null);
    const t = performance.now();
    const first = await post(`${base}/search`, service.apiKey, search(1));
    const firstMs = performance.now() - t;
    const same = JSON.stringify(first.body.matches) === answers[1];
    const p50 = [...before].sort((a, b) => a - b)[Math.floor(before.length / 2)];
    process.stdout.write(
      `documents restart with ${COUNT} documents: after kill -9 and a restart, the namespace in memory ${loaded![1]} s after the start ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s until seen); its first full-text search ${firstMs.toFixed(1)} ms, ` +
        `against ${p50.toFixed(1)} ms p50 before the restart (${(firstMs / p50).toFixed(2)}×), same top 10: ${same}\n`,
    );
  } finally {
    await service?.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}
