// After a restart a document index's full-text postings are built in the background as its records load, as a records
// text index's postings are: the first search does not build them whole, and a search that comes while the load is
// still under way finishes it and answers exactly what the loaded namespace answers — never a partial answer.
import { afterEach, describe, expect, it, vi } from "vitest";
import { schemaView } from "../../../src/local/data/routes/documents/schema-view.js";
import { documentsPreparation, VectorStore } from "../../../src/local/search/engine.js";
import { DocumentText } from "../../../src/local/search/fulltext/document-text.js";
import type { IndexSchemaRecord } from "../../../src/local/storage/index-schema.js";
import { client, makeIndex, openEnv, type Env } from "../setup.js";

const schema: IndexSchemaRecord = { fields: { body: { type: "string", full_text_search: { language: "en", stemming: true, stop_words: true } } } };
const index = makeIndex({ name: "docs", space: "i:docs", dimension: 0, schema });
const COUNT = 5000; // more than one slice of the background load
const WORDS = ["river", "stone", "lamp", "paper", "forest", "signal", "harbor", "copper"];
const body = (n: number) => `note ${n}: ${WORDS[n % 8]} ${WORDS[(n * 7) % 8]} near the ${WORDS[(n * 3) % 5]} ${n % 11 === 0 ? "old river stone" : ""}`;
const SEARCHES = [
  { top_k: 10, score_by: [{ type: "text", fields: ["body"], query: "river stone" }], include_fields: ["body"] },
  { top_k: 5, score_by: [{ type: "query_string", query: 'body:"old river"' }] },
  { top_k: 20, score_by: [{ type: "text", fields: ["body"], query: "lamp" }], filter: { body: { $match_any: "copper harbor" } } },
];

let env: Env | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await env?.close();
  env = undefined;
});

async function written(): Promise<{ env: Env; answers: unknown[] }> {
  const opened = openEnv();
  const api = client(opened.store, index);
  const docs = Array.from({ length: COUNT }, (_, n) => ({ _id: `d${String(n).padStart(5, "0")}`, body: body(n) }));
  for (let i = 0; i < COUNT; i += 1000) expect((await api.post("/namespaces/ns/documents/upsert", { documents: docs.slice(i, i + 1000) })).status).toBe(202);
  const answers = [];
  for (const s of SEARCHES) answers.push((await api.post("/namespaces/ns/documents/search", s)).body);
  return { env: opened, answers };
}

const preparation = () => documentsPreparation(schemaView(schema).fullText);

describe("a document index after a restart", () => {
  it("builds its postings as its records load in the background, before any search", async () => {
    const { env: opened, answers } = await written();
    env = opened;
    const added = vi.spyOn(DocumentText.prototype, "add");
    const store = new VectorStore(opened.root);
    await store.warm([{ space: index.space, index: index.name, prepare: preparation() }], () => {});
    expect(added, "every document's text indexed by the background load").toHaveBeenCalledTimes(COUNT);
    const api = client(store, index);
    for (const [i, s] of SEARCHES.entries()) expect((await api.post("/namespaces/ns/documents/search", s)).body).toEqual(answers[i]);
    expect(added, "nothing indexed again on the first search").toHaveBeenCalledTimes(COUNT);
    await store.stop();
  });

  it("answers a search that comes mid-load exactly as the loaded namespace does, indexing each document once", async () => {
    const { env: opened, answers } = await written();
    env = opened;
    const added = vi.spyOn(DocumentText.prototype, "add");
    const store = new VectorStore(opened.root);
    const warming = store.warm([{ space: index.space, index: index.name, prepare: preparation() }], () => {});
    expect(added.mock.calls.length, "the first slice is in, the rest still to load").toBeGreaterThan(0);
    expect(added.mock.calls.length).toBeLessThan(COUNT);
    const api = client(store, index);
    expect((await api.post("/namespaces/ns/documents/search", SEARCHES[0])).body).toEqual(answers[0]);
    await warming;
    for (const [i, s] of SEARCHES.entries()) expect((await api.post("/namespaces/ns/documents/search", s)).body).toEqual(answers[i]);
    expect(added).toHaveBeenCalledTimes(COUNT);
    await store.stop();
  });
});
