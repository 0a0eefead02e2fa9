// search_documents on a document index at scale: 100,000 documents of 1–2 KB (170–330 words drawn from a Zipfian
// distribution over a 30,000-word vocabulary) in a full-text field, written through the 2026-07 documents API (500 a
// request, 4 in flight; documents/s printed); then 2–3-word text queries, 2–3-word phrase queries (query_string
// "…", taken from the documents) and 2–3-word phrases of common words only (each among the 30 most frequent, in about
// half the documents or more: what a phrase costs when no word of it is rare): p50 through HTTP and of the engine
// alone in process, every top 10 checked against
// BM25 computed by brute force here — against SQLite's FTS5 (the sqlite3 command) on the same corpus and queries in
// the same run (its own timer, ORDER BY rank LIMIT 10). The postings' memory (the service's structure, filled here in
// process with the same documents) against the raw text.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { mb, seededRandom, syllableWord, tempDir, withService, zipf } from "./lib.js";
import { BestHits } from "../src/local/search/candidates.js";
import { DocumentText } from "../src/local/search/fulltext/document-text.js";
import { visit } from "../src/local/search/fulltext/evaluate.js";
import { parseQueryString, textQuery } from "../src/local/search/fulltext/query-string.js";
import type { FullTextOptions } from "../src/local/search/fulltext/analyzer.js";

const COUNT = Number(process.env.BENCH_DOCS_SEARCH_COUNT ?? 100_000);
const QUERIES = Number(process.env.BENCH_DOCS_SEARCH_QUERIES ?? 50);
const VOCABULARY = 30_000;
const BATCH = 500;
const IN_FLIGHT = 4;
const ANALYSIS: FullTextOptions = { language: "en", stemming: false, stopWords: false };
const VERSION = { "X-Pinecone-Api-Version": "2026-07" };
/** The words a phrase of common words is made of: the most frequent ranks. */
const COMMON_RANKS = 30;

type Kind = "text" | "phrase" | "common";
const KINDS: Kind[] = ["text", "phrase", "common"];
type Query = { kind: Kind; ranks: number[] };
const queryText = (q: Query) => q.ranks.map(syllableWord).join(" ");

/** BM25 written out over the rank arrays (k1 1.2, b 0.75, Lucene's idf; a phrase: its frequency, its terms' idf summed). */
function bruteForce(docs: Int32Array[], df: Int32Array, avgdl: number, q: Query): string[] {
  const idf = (r: number) => Math.log(1 + (docs.length - df[r] + 0.5) / (df[r] + 0.5));
  const scored: { id: string; score: number }[] = [];
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    const norm = 1.2 * (1 - 0.75 + (0.75 * d.length) / avgdl);
    let score = 0;
    let matched = false;
    if (q.kind === "text") {
      const tf = [0, 0, 0];
      for (let k = 0; k < d.length; k++) {
        const r = d[k];
        for (let j = 0; j < q.ranks.length; j++) if (r === q.ranks[j]) tf[j]++;
      }
      for (let j = 0; j < q.ranks.length; j++) {
        if (tf[j] === 0) continue;
        matched = true;
        score += idf(q.ranks[j]) * ((tf[j] * 2.2) / (tf[j] + norm));
      }
    } else {
      let freq = 0;
      for (let k = 0; k + q.ranks.length <= d.length; k++) {
        let all = true;
        for (let j = 0; j < q.ranks.length && all; j++) all = d[k + j] === q.ranks[j];
        if (all) freq++;
      }
      if (freq > 0) {
        matched = true;
        let weight = 0;
        for (const r of q.ranks) weight += idf(r);
        score = weight * ((freq * 2.2) / (freq + norm));
      }
    }
    if (matched) scored.push({ id: `doc-${i}`, score });
  }
  return scored
    .sort((a, b) => Math.fround(b.score) - Math.fround(a.score) || (a.id < b.id ? -1 : 1))
    .slice(0, 10)
    .map((s) => s.id);
}

/** `n` consecutive words of a document, each among the COMMON_RANKS most frequent. */
function commonPhrase(docs: Int32Array[], n: number, random: () => number): number[] {
  for (;;) {
    const d = docs[Math.floor(random() * docs.length)];
    for (let at = Math.floor(random() * (d.length - n)), tried = 0; tried < d.length - n; at = (at + 1) % (d.length - n), tried++) {
      const words = d.subarray(at, at + n);
      if (words.every((r) => r < COMMON_RANKS)) return Array.from(words);
    }
  }
}

const perKind = (): Record<Kind, number[]> => ({ text: [], phrase: [], common: [] });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function post(url: string, apiKey: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: "POST", headers: { "Api-Key": apiKey, "content-type": "application/json", ...VERSION }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

let upsertRetries = 0;

/**
 * A documents upsert, sent again (it is idempotent: the same ids) when the service gave up reading it (408) or the
 * connection was reset — what a loaded machine does to 4 bodies of 750 KB in flight; counted and printed.
 */
async function upsert(url: string, apiKey: string, documents: unknown[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let failure: string;
    try {
      const r = await post(url, apiKey, { documents });
      if (r.status === 202) return;
      failure = `upsert: ${r.status} ${JSON.stringify(r.body)}`;
      if (r.status !== 408) throw new Error(failure);
    } catch (err) {
      if (!(err instanceof TypeError)) throw err; // fetch's own failure: the connection, not the answer
      failure = `upsert: ${err.message}`;
    }
    if (attempt === 5) throw new Error(`${failure} (after ${attempt} attempts)`);
    upsertRetries++;
  }
}

/**
 * FTS5 through the sqlite3 command: the corpus loaded (seconds), then each query timed by its own timer — the CPU
 * time it spent (user + sys, µs resolution; its wall clock shows whole milliseconds only), in ms.
 */
function fts5(dir: string, texts: string[], queries: Query[]): { loadSeconds: number; ms: number[] } {
  const tsv = join(dir, "docs.tsv");
  writeFileSync(tsv, texts.map((t, i) => `doc-${i}\t${t}`).join("\n") + "\n");
  const db = join(dir, "fts.db");
  const sqlite = (script: string) => execFileSync("sqlite3", [db], { input: script, maxBuffer: 64 * 1024 * 1024 }).toString();
  let start = performance.now();
  sqlite(`CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, body);\n.mode tabs\n.import ${tsv} docs\n`);
  const loadSeconds = (performance.now() - start) / 1000;
  const statements = queries.map((q) =>
    q.kind === "text"
      ? `SELECT id FROM docs WHERE docs MATCH '${q.ranks.map(syllableWord).join(" OR ")}' ORDER BY rank LIMIT 10;`
      : `SELECT id FROM docs WHERE docs MATCH '"${queryText(q)}"' ORDER BY rank LIMIT 10;`,
  );
  start = performance.now();
  const out = sqlite(`.timer on\n${statements.join("\n")}\n`);
  const ms = [...out.matchAll(/Run Time: real [0-9.]+ user ([0-9.]+) sys ([0-9.]+)/g)].map((m) => (Number(m[1]) + Number(m[2])) * 1000);
  return { loadSeconds, ms };
}

export async function benchDocumentsSearch(): Promise<{ textP50: number; phraseP50: number; exact: boolean }> {
  const random = seededRandom(2607);
  const draw = zipf(VOCABULARY, random);
  const docs: Int32Array[] = [];
  const df = new Int32Array(VOCABULARY);
  let words = 0;
  for (let i = 0; i < COUNT; i++) {
    const ranks = Int32Array.from({ length: 170 + Math.floor(random() * 161) }, draw);
    for (const r of new Set(ranks)) df[r]++;
    words += ranks.length;
    docs.push(ranks);
  }
  const avgdl = words / COUNT;
  const texts = docs.map((d) => Array.from(d, syllableWord).join(" "));
  const rawBytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
  // 2–3-word text queries of ranks 20–5,000, 2–3-word phrases taken from the documents, and 2–3-word phrases of
  // common words taken from the documents (the first run of such words at a random place)
  const queries: Query[] = [];
  for (let i = 0; i <= QUERIES; i++) {
    queries.push({ kind: "text", ranks: Array.from({ length: 2 + Math.floor(random() * 2) }, () => 20 + Math.floor(random() * 4980)) });
    const d = docs[Math.floor(random() * COUNT)];
    const n = 2 + Math.floor(random() * 2);
    const at = Math.floor(random() * (d.length - n));
    queries.push({ kind: "phrase", ranks: Array.from(d.subarray(at, at + n)) });
  }
  for (let i = 0; i <= QUERIES; i++) queries.push({ kind: "common", ranks: commonPhrase(docs, 2 + Math.floor(random() * 2), random) });
  // the first query of each kind warms up (the postings are built, the code compiled): not timed
  const timed = queries.map((q, i) => queries.findIndex((o) => o.kind === q.kind) !== i);
  const wanted = queries.map((q) => bruteForce(docs, df, avgdl, q));

  // the engine in this process (the service's structures, no HTTP): postings' memory and time per query
  let start = performance.now();
  const text = new DocumentText(new Map([["body", ANALYSIS]]));
  texts.forEach((body, slot) => text.add(slot, { body }));
  const buildSeconds = (performance.now() - start) / 1000;
  const analyzers = new Map([["body", text.fields.get("body")!]]);
  const compile = (q: Query) => (q.kind === "text" ? textQuery(queryText(q), ["body"], analyzers) : parseQueryString(`body:"${queryText(q)}"`, analyzers));
  // CPU time, as FTS5's is measured (the machine is shared: wall time there counts the other processes too)
  const engine = perKind();
  let engineExact = 0;
  queries.forEach((q, i) => {
    const cpu = process.cpuUsage();
    const best = new BestHits("dotproduct", 10);
    visit(text, compile(q), undefined, (slot, score) => {
      if (best.admits(score)) best.add({ slot, id: `doc-${slot}`, score });
    });
    const top = best.top();
    const used = process.cpuUsage(cpu);
    if (timed[i]) engine[q.kind].push((used.user + used.system) / 1000);
    if (JSON.stringify(top.map((h) => h.id)) === JSON.stringify(wanted[i])) engineExact++;
  });
  const postingsBytes = text.byteLength;

  const dir = await tempDir("vecdb-fts5-");
  let sqlite: { loadSeconds: number; ms: number[] };
  try {
    sqlite = fts5(dir, texts, queries);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const fts = perKind();
  sqlite.ms.forEach((ms, i) => timed[i] && fts[queries[i].kind].push(ms));

  return withService(async (service) => {
    const created = await post(`${service.controlUrl}/indexes`, service.apiKey, {
      name: "articles",
      deployment: { deployment_type: "managed", cloud: "aws", region: "us-east-1" },
      schema: { fields: { body: { type: "string", full_text_search: { language: "en" } } } },
    });
    if (created.status !== 201) throw new Error(`create index: ${created.status} ${JSON.stringify(created.body)}`);
    let host: string;
    for (;;) {
      const res = await fetch(`${service.controlUrl}/indexes/articles`, { headers: { "Api-Key": service.apiKey, ...VERSION } });
      const d = (await res.json()) as { host: string; status: { ready: boolean } };
      if (d.status.ready) {
        host = d.host;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const base = `http://${host}/namespaces/bench/documents`;
    start = performance.now();
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < COUNT; i += BATCH) {
      const documents = texts.slice(i, i + BATCH).map((body, j) => ({ _id: `doc-${i + j}`, body }));
      const p: Promise<void> = upsert(`${base}/upsert`, service.apiKey, documents).then(() => {
        inFlight.delete(p);
      });
      inFlight.add(p);
      if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const ingestSeconds = (performance.now() - start) / 1000;
    const retried = upsertRetries > 0 ? `, ${upsertRetries} requests sent again after a 408 or a reset connection` : "";

    const http = perKind();
    let exact = 0;
    for (const [i, q] of queries.entries()) {
      const clause = q.kind === "text" ? { type: "text", fields: ["body"], query: queryText(q) } : { type: "query_string", query: `body:"${queryText(q)}"` };
      const t = performance.now();
      const res = await post(`${base}/search`, service.apiKey, { score_by: [clause], top_k: 10 });
      if (timed[i]) http[q.kind].push(performance.now() - t);
      const got = (res.body.matches as { _id: string }[]).map((m) => m._id);
      if (JSON.stringify(got) === JSON.stringify(wanted[i])) exact++;
      else process.stdout.write(`  ${q.kind} query ${JSON.stringify(queryText(q))}: got ${got.join(",")}, brute force ${wanted[i].join(",")}\n`);
    }
    // the HTTP floor on this machine now: a documents request that searches nothing (a list of one id)
    const floor: number[] = [];
    for (let i = 0; i <= QUERIES; i++) {
      const t = performance.now();
      await post(`${base}/list`, service.apiKey, { limit: 1 });
      if (i > 0) floor.push(performance.now() - t);
    }
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    const p50 = (xs: Record<Kind, number[]>, digits: number) => KINDS.map((k) => median(xs[k]).toFixed(digits));
    const [httpText, httpPhrase, httpCommon] = p50(http, 1);
    const [engineText, enginePhrase, engineCommon] = p50(engine, 2);
    const [ftsText, ftsPhrase, ftsCommon] = p50(fts, 2);
    const ratios = KINDS.map((k) => ratio(median(engine[k]), median(fts[k])));
    process.stdout.write(
      `search_documents over ${COUNT} documents (${(rawBytes / COUNT / 1024).toFixed(2)} KB, ${avgdl.toFixed(0)} words each, Zipfian over ${VOCABULARY} words): ` +
        `through HTTP p50 ${httpText} ms for 2–3-word text queries, ${httpPhrase} ms for phrases, ${httpCommon} ms for phrases of common words (target ≤ 10 ms; a documents list of one id, the HTTP floor: ${median(floor).toFixed(1)} ms); ` +
        `CPU per query p50, engine in process ${engineText} ms text / ${enginePhrase} ms phrases / ${engineCommon} ms common phrases, SQLite FTS5 ${ftsText} ms / ${ftsPhrase} ms / ${ftsCommon} ms ` +
        `(ours ÷ FTS5: ${ratios[0]} text, ${ratios[1]} phrases, ${ratios[2]} common phrases); ` +
        `top 10 equal to brute-force BM25 in ${exact}/${queries.length} through HTTP, ${engineExact}/${queries.length} in process; ` +
        `ingestion ${Math.round(COUNT / ingestSeconds)} documents/s through the documents API (${BATCH} a request, ${IN_FLIGHT} in flight${retried}; FTS5 loads the same in ${sqlite.loadSeconds.toFixed(1)} s = ${Math.round(COUNT / sqlite.loadSeconds)}/s); ` +
        `postings ${mb(postingsBytes)} for ${mb(rawBytes)} of text (${(postingsBytes / rawBytes).toFixed(2)}×), built in ${buildSeconds.toFixed(1)} s in process\n`,
    );
    return { textP50: median(http.text), phraseP50: median(http.phrase), exact: exact === queries.length };
  });
}
