// Text search of a local-bm25 index (POST /records/namespaces/{ns}/search) runs on postings in memory: for random
// corpora, writes (upserts, updates, deletes by id, by filter, of the whole namespace), restarts (a store opened
// again on the same lmdb) and random queries with filters and required terms, its hits — ids and scores, to the
// bit — equal BM25 computed by brute force over the records the writes left.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { handleDataPlane, type DataPlaneIndex } from "../../../src/local/data/handlers.js";
import { Models } from "../../../src/local/models/available-models.js";
import { murmur3 } from "../../../src/local/models/murmur3.js";
import { tokenize } from "../../../src/local/models/tokenize.js";
import { VectorStore } from "../../../src/local/search/engine.js";
import { makeIndex, openEnv, type Env } from "../setup.js";

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const INDEX: DataPlaneIndex = makeIndex({
  vectorType: "sparse",
  dimension: 0,
  metric: "dotproduct",
  embed: { model: "local-bm25", fieldMap: { text: "chunk_text" }, readParameters: {}, writeParameters: {} },
});
const models = new Models();
const WORDS = ["river", "stone", "lamp", "paper", "cloud", "bread", "orbit", "tide", "Copper", "meadow", "the", "a"];
const GROUPS = ["a", "b", "c"];

interface Note { text: string; g: string; n: number }
type Filter = { g: string } | { n: { $gte: number } };
interface Query { text: string; topK: number; filter?: Filter; required?: string[] }

async function call(store: VectorStore, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const res = await handleDataPlane({ method: "POST", pathname: path, query: new URLSearchParams(), body: Buffer.from(raw) }, INDEX, store, undefined, models);
  return { status: res.status, body: res.body === undefined ? undefined : JSON.parse(JSON.stringify(res.body)) };
}

const matches = (note: Note, f: Filter | undefined) => !f || ("g" in f ? note.g === f.g : note.n >= f.n.$gte);

/** BM25 over the notes, written out here: the answer text search must give. */
function bruteForce(notes: Map<string, Note>, q: Query): { _id: string; _score: number }[] {
  const docs = [...notes].map(([id, note]) => {
    const tokens = tokenize(note.text);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id, note, tf, length: tokens.length };
  });
  const N = docs.length;
  const avgdl = N === 0 ? 0 : docs.reduce((s, d) => s + d.length, 0) / N;
  const queryTerms = new Map<string, number>();
  for (const t of tokenize(q.text)) queryTerms.set(t, (queryTerms.get(t) ?? 0) + 1);
  const required = (q.required ?? []).flatMap((t) => tokenize(t));
  const hits: { _id: string; _score: number }[] = [];
  for (const d of docs) {
    if (![...queryTerms.keys()].some((t) => d.tf.has(t))) continue;
    if (!required.every((t) => d.tf.has(t)) || !matches(d.note, q.filter)) continue;
    let score = 0;
    const norm = 1.2 * (1 - 0.75 + (0.75 * d.length) / (avgdl || 1));
    for (const [t, times] of queryTerms) {
      const f = d.tf.get(t) ?? 0;
      if (f === 0) continue;
      const n = docs.filter((x) => x.tf.has(t)).length;
      score += times * Math.log(1 + (N - n + 0.5) / (n + 0.5)) * ((f * 2.2) / (f + norm));
    }
    hits.push({ _id: d.id, _score: score });
  }
  return hits.sort((a, b) => b._score - a._score || (a._id < b._id ? -1 : 1)).slice(0, q.topK);
}

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 14 }).map((w) => w.join(" "));
const note = fc.record({ text, g: fc.constantFrom(...GROUPS), n: fc.integer({ min: 0, max: 9 }) });
const id = fc.integer({ min: 0, max: 14 }).map((n) => `r${n}`);
const filter: fc.Arbitrary<Filter> = fc.oneof(fc.constantFrom(...GROUPS).map((g) => ({ g })), fc.integer({ min: 0, max: 9 }).map((n) => ({ n: { $gte: n } })));
const query: fc.Arbitrary<Query> = fc.record(
  {
    text: fc.array(fc.constantFrom(...WORDS, "absent"), { minLength: 1, maxLength: 4 }).map((w) => w.join(" ")),
    topK: fc.integer({ min: 1, max: 12 }),
    filter,
    required: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: ["text", "topK"] },
);
const write = fc.oneof(
  { weight: 5, arbitrary: fc.array(fc.tuple(id, note), { minLength: 1, maxLength: 8 }).map((records) => ({ kind: "upsert" as const, records })) },
  { weight: 2, arbitrary: fc.array(id, { minLength: 1, maxLength: 4 }).map((ids) => ({ kind: "delete" as const, ids })) },
  { weight: 1, arbitrary: filter.map((f) => ({ kind: "deleteWhere" as const, filter: f })) },
  { weight: 2, arbitrary: fc.tuple(id, fc.constantFrom(...GROUPS)).map(([target, g]) => ({ kind: "regroup" as const, id: target, g })) },
  { weight: 1, arbitrary: fc.constant({ kind: "deleteAll" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "restart" as const }) },
);
type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

async function apply(store: VectorStore, notes: Map<string, Note>, w: Write): Promise<VectorStore> {
  if (w.kind === "upsert") {
    const lines = w.records.map(([rid, n]) => JSON.stringify({ _id: rid, chunk_text: n.text, g: n.g, n: n.n }));
    expect((await call(store, "/records/namespaces/ns/upsert", lines.join("\n"))).status).toBe(201);
    for (const [rid, n] of w.records) notes.set(rid, n);
  } else if (w.kind === "delete") {
    expect((await call(store, "/vectors/delete", { ids: w.ids, namespace: "ns" })).status).toBe(200);
    for (const rid of w.ids) notes.delete(rid);
  } else if (w.kind === "deleteWhere") {
    expect((await call(store, "/vectors/delete", { filter: w.filter, namespace: "ns" })).status).toBe(200);
    for (const [rid, n] of notes) if (matches(n, w.filter)) notes.delete(rid);
  } else if (w.kind === "regroup") {
    expect((await call(store, "/vectors/update", { id: w.id, setMetadata: { g: w.g }, namespace: "ns" })).status).toBe(notes.has(w.id) ? 200 : 404);
    const n = notes.get(w.id);
    if (n) notes.set(w.id, { ...n, g: w.g });
  } else if (w.kind === "deleteAll") {
    expect((await call(store, "/vectors/delete", { deleteAll: true, namespace: "ns" })).status).toBe(200);
    notes.clear();
  } else {
    return new VectorStore(env!.root);
  }
  return store;
}

async function search(store: VectorStore, q: Query) {
  const res = await call(store, "/records/namespaces/ns/search", {
    query: { top_k: q.topK, inputs: { text: q.text }, ...(q.filter ? { filter: q.filter } : {}), ...(q.required ? { match_terms: { terms: q.required, strategy: "all" } } : {}) },
    fields: ["g"],
  });
  expect(res.status).toBe(200);
  return res.body.result.hits as { _id: string; _score: number; fields: { g: string } }[];
}

describe("text search on postings in memory", () => {
  it("equals brute-force BM25 for random corpora, writes, restarts, queries and filters", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(write, fc.array(query, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 8 }), async (steps) => {
        env = openEnv();
        try {
          let store = env.store;
          const notes = new Map<string, Note>();
          for (const [w, queries] of steps) {
            store = await apply(store, notes, w);
            for (const q of queries) {
              const hits = await search(store, q);
              expect(hits.map(({ _id, _score }) => ({ _id, _score }))).toEqual(bruteForce(notes, q));
              for (const h of hits) expect(h.fields).toEqual({ g: notes.get(h._id)!.g });
            }
          }
        } finally {
          await env.close();
          env = undefined;
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it("keeps each term's positions in the text, and drops a replaced record's postings", async () => {
    env = openEnv();
    await call(env.store, "/records/namespaces/ns/upsert", [
      JSON.stringify({ _id: "a", chunk_text: "Stone river, stone lamp", g: "a" }),
      JSON.stringify({ _id: "b", chunk_text: "lamp", g: "b" }),
    ].join("\n"));
    await call(env.store, "/records/namespaces/ns/upsert", JSON.stringify({ _id: "b", chunk_text: "river river", g: "b" }));
    const postings = env.store.mirror.namespace(INDEX.space, "ns", 0).textPostings("chunk_text");
    const at = (word: string) => {
      const list = postings.list(murmur3(word))!;
      const out: Record<string, number[]> = {};
      for (let i = 0; i < list.size; i++) {
        if (list.generations[i] === postings.generations[list.slots[i]]) out[String(list.slots[i])] = [...list.positionsOf(i)];
      }
      return out;
    };
    expect(at("stone")).toEqual({ 0: [0, 2] });
    expect(at("river")).toEqual({ 0: [1], 1: [0, 1] });
    expect(at("lamp")).toEqual({ 0: [3] });
    expect(postings.documentFrequency(murmur3("lamp"))).toBe(1);
    expect(postings.documents).toBe(2);
    expect(postings.averageLength).toBe(3);
  });
});
