// search_records on a local-bm25 index at scale: 100,000 notes of 20–80 words drawn from a Zipfian distribution
// over a 30,000-word vocabulary, written with the official client's upsertRecords loop (ingestion rate printed), then
// 2–3-word queries through the client's searchRecords, unfiltered and with a filter keeping 10%: p50 of each, every
// top 10 checked against BM25 computed here by brute force over the notes. The postings' memory (the service's
// structure, memory/text-postings.ts, filled here with the same notes) is printed against the raw text's size.
import { performance } from "node:perf_hooks";
import { Pinecone } from "@pinecone-database/pinecone";
import { createIndexForModel, mb, seededRandom, syllableWord, upsertRecordsLoop, withService, zipf } from "./lib.js";
import { queryTerms, termCounts, termStream } from "../src/local/models/bm25.js";
import { FieldPostings } from "../src/local/memory/text-postings.js";
import { searchPostings } from "../src/local/search/text-search.js";

const COUNT = Number(process.env.BENCH_RECORDS_SEARCH_COUNT ?? 100_000);
const QUERIES = Number(process.env.BENCH_RECORDS_SEARCH_QUERIES ?? 50);
const VOCABULARY = 30_000;
const GROUPS = 10;

interface Note { ranks: Int32Array; group: number }

/** BM25 as the service documents it (k1 1.2, b 0.75, Lucene's idf), every note scored: the bench's own reference. */
function bruteForce(notes: Note[], query: number[], group: number | undefined, df: Int32Array, avgdl: number): string[] {
  const terms = new Map<number, number>();
  for (const t of query) terms.set(t, (terms.get(t) ?? 0) + 1);
  const scored: { id: string; score: number }[] = [];
  const tf = new Map<number, number>();
  for (let i = 0; i < notes.length; i++) {
    const note = notes[i];
    if (group !== undefined && note.group !== group) continue;
    tf.clear();
    for (const r of note.ranks) if (terms.has(r)) tf.set(r, (tf.get(r) ?? 0) + 1);
    if (tf.size === 0) continue;
    const norm = 1.2 * (1 - 0.75 + (0.75 * note.ranks.length) / avgdl);
    let score = 0;
    for (const [t, times] of terms) {
      const f = tf.get(t) ?? 0;
      if (f > 0) score += times * Math.log(1 + (notes.length - df[t] + 0.5) / (df[t] + 0.5)) * ((f * 2.2) / (f + norm));
    }
    scored.push({ id: `note-${i}`, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, 10).map((s) => s.id);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchRecordsSearch(): Promise<{ p50: number; filteredP50: number; exact: boolean }> {
  const random = seededRandom(27);
  const draw = zipf(VOCABULARY, random);
  const notes: Note[] = [];
  const df = new Int32Array(VOCABULARY);
  let words = 0;
  for (let i = 0; i < COUNT; i++) {
    const ranks = Int32Array.from({ length: 20 + Math.floor(random() * 61) }, draw);
    for (const r of new Set(ranks)) df[r]++;
    words += ranks.length;
    notes.push({ ranks, group: i % GROUPS });
  }
  const avgdl = words / COUNT;
  const texts = notes.map((n) => Array.from(n.ranks, syllableWord).join(" "));
  const rawBytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);

  // the postings the service builds, here in this process to weigh them
  let start = performance.now();
  const postings = new FieldPostings();
  texts.forEach((text, slot) => {
    const counts = termCounts(text);
    postings.add(slot, { terms: counts.indices, counts: counts.values, length: counts.length, stream: termStream(text) });
  });
  const buildMs = performance.now() - start;

  // queries: 2–3 words of ranks 20–5,000 (neither stop-word-like nor so rare they match one note)
  const queries = Array.from({ length: QUERIES + 1 }, () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => 20 + Math.floor(random() * 4980)));

  // the engine alone, in this process (no HTTP, no lmdb read of the hits): what the service spends scoring
  const ids = texts.map((_, i) => `note-${i}`);
  const engineMs: number[] = [];
  let engineExact = 0;
  for (const q of queries) {
    const t = performance.now();
    const { hits } = searchPostings(postings, ids, { terms: queryTerms(q.map(syllableWord).join(" ")), topK: 10 });
    engineMs.push(performance.now() - t);
    if (JSON.stringify(hits.map((h) => h.id)) === JSON.stringify(bruteForce(notes, q, undefined, df, avgdl))) engineExact++;
  }

  return withService(async (service) => {
    const pc = new Pinecone({ apiKey: service.apiKey, controllerHostUrl: service.controlUrl });
    const host = await createIndexForModel(pc, "notes");
    const records = texts.map((text, i) => ({ _id: `note-${i}`, text, group: `g${notes[i].group}` }));
    start = performance.now();
    await upsertRecordsLoop(pc, "notes", host, "bench", records);
    const ingestSeconds = (performance.now() - start) / 1000;

    const ns = pc.index({ name: "notes", host: `http://${host}` }).namespace("bench");
    const run = async (group: number | undefined) => {
      const times: number[] = [];
      let exact = 0;
      for (const [i, q] of queries.entries()) {
        const text = q.map(syllableWord).join(" ");
        const t = performance.now();
        const res = await ns.searchRecords({ query: { topK: 10, inputs: { text }, ...(group === undefined ? {} : { filter: { group: `g${group}` } }) }, fields: ["group"] });
        if (i > 0) times.push(performance.now() - t); // the first warms up
        const got = res.result.hits.map((h) => h._id);
        const want = bruteForce(notes, q, group, df, avgdl);
        if (JSON.stringify(got) === JSON.stringify(want)) exact++;
        else process.stdout.write(`  query ${JSON.stringify(text)}${group === undefined ? "" : ` (group g${group})`}: got ${got.join(",")}, brute force ${want.join(",")}\n`);
      }
      return { p50: median(times), exact };
    };
    const all = await run(undefined);
    const filtered = await run(3);
    // the HTTP floor on this machine now: a request that does no search, through the same client
    const floorMs: number[] = [];
    for (let i = 0; i <= QUERIES; i++) {
      const t = performance.now();
      await ns.fetch({ ids: ["note-0"] });
      if (i > 0) floorMs.push(performance.now() - t);
    }
    process.stdout.write(
      `search_records local-bm25 over ${COUNT} notes (${(avgdl).toFixed(1)} words each, Zipfian over ${VOCABULARY} words): ` +
        `p50 ${all.p50.toFixed(1)} ms unfiltered, ${filtered.p50.toFixed(1)} ms with a filter keeping 10% (target ≤ 10 ms); ` +
        `top 10 equal to brute-force BM25 in ${all.exact}/${queries.length} and ${filtered.exact}/${queries.length} queries; ` +
        `ingestion ${Math.round(COUNT / ingestSeconds)} notes/s (official client upsertRecords, 96 a request, 8 in flight); ` +
        `a fetch of one record through the same client ${median(floorMs).toFixed(1)} ms (the HTTP floor); engine alone (in process) p50 ${median(engineMs.slice(1)).toFixed(2)} ms, equal to brute force in ${engineExact}/${queries.length}; ` +
        `postings ${mb(postings.byteLength)} for ${mb(rawBytes)} of text (${(postings.byteLength / rawBytes).toFixed(2)}×), built in ${(buildMs / 1000).toFixed(1)} s in process\n`,
    );
    return { p50: all.p50, filteredP50: filtered.p50, exact: all.exact === queries.length && filtered.exact === queries.length };
  });
}
