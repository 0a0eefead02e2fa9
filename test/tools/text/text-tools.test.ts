// The text toolset end to end: the built server over stdio against the local service (test/tools/fixtures/text.ts) —
// create_index_for_model, upsert_records, search_records (rare word, phrase, filter, rerank, BM25 scores against a
// hand computation), search_indexes — with local-bm25 and with a dense model of a small real OpenAI-compatible server
// (also down and slow), and every bad input with the exact text a model receives. embed_texts, rerank_documents and
// list_models on their own: test/tools/inference/.
import { describe, expect, test } from "vitest";
import { embedder, mcp, svc, useTextFixture } from "../fixtures/text.js";
import { TEST_DIM, TEST_MODEL } from "../../helpers/embeddings-server.js";
import { api } from "../../e2e/support.js";
import { corpus } from "../../e2e/text-corpus.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { refusalOf } from "../../helpers/refusal.js";

const notes = corpus(30); // 300 notes

useTextFixture();

type Hit = { id: string; score: number; fields: Record<string, unknown> };
const hitsOf = (r: { structured?: Record<string, unknown> }) => (r.structured as { hits: Hit[] }).hits;

describe("notes with local-bm25: create_index_for_model, upsert_records, search_records, search_indexes", () => {
  test("create_index_for_model makes a sparse index and says what to do next; the same call again returns it", async () => {
    const args = { name: "notes", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } };
    const r = await mcp.call("create_index_for_model", args);
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ model: "local-bm25", textField: "text", created: true, ready: true, index: { name: "notes", vectorType: "sparse", metric: "dotproduct" } });
    expect(r.text).toMatch(/^Index "notes" created and ready\.\n\n\| name \| model \| text field \| vector type \| dimension \| metric \| state \| host \|/);
    expect(r.text).toMatch(/Next step: write records with upsert_records \(each with _id and a "text" field\)\.$/);
    const described = await mcp.call("describe_index", { index: "notes" });
    expect((described.structured as { index: { embed: unknown } }).index.embed).toEqual({
      model: "local-bm25",
      textField: "text",
      readParameters: { input_type: "query", truncate: "END" },
      writeParameters: { input_type: "passage", truncate: "END" },
    });
    expect(described.text).toContain("| embed model | local-bm25 |\n| embed text field | text |");
    const again = await mcp.call("create_index_for_model", args);
    expect(again.structured).toMatchObject({ created: false });
    const other = await mcp.call("create_index_for_model", { ...args, embed: { model: "local-bm25", fieldMap: { text: "body" } } });
    expect(refusalOf(other.text)).toEqual({
      problem: 'Index "notes" already exists with different settings:\n- embed.fieldMap.text: the index has "text", this call asks for "body"',
      untouched: "changed",
      next: "use the existing index as it is (describe_index shows it), or call create_index_for_model with another name.",
    });
  });

  test("upsert_records writes 300 notes in batches of at most 96", async () => {
    const r = await mcp.call("upsert_records", { index: "notes", namespace: "journal", records: notes }, { progress: true });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ index: "notes", namespace: "journal", records: 300, batches: 4, upserted: 300, failed: 0, failedIds: [] });
    const stats = await api(svc, "POST", `http://${(await api(svc, "GET", "/indexes/notes")).body.host}/describe_index_stats`, {});
    expect(stats.body.namespaces).toEqual({ journal: { vectorCount: 300 } });
  });

  test("search_records finds the note with a rare word first, and a phrase", async () => {
    const rare = await mcp.call("search_records", { index: "notes", namespace: "journal", query: { text: "Quetzalcoatl", topK: 3 } });
    expect(hitsOf(rare).map((h) => h.id)).toEqual(["note-137"]);
    expect(hitsOf(rare)[0].fields).toEqual({ text: notes[137].text, topic: notes[137].topic });
    expect(rare.text).toMatch(/^1 record in namespace "journal" of index "notes", best first:\n\n\| id \| score \| text \| topic \|/);

    const phrase = await mcp.call("search_records", { index: "notes", namespace: "journal", query: { text: "midnight lantern at the harbor", topK: 5 } });
    expect(hitsOf(phrase)[0].id).toBe("note-211");
    expect(hitsOf(phrase)[0].score).toBeGreaterThan(2 * hitsOf(phrase)[1].score);

    const filtered = await mcp.call("search_records", {
      index: "notes",
      namespace: "journal",
      query: { text: "harbor tide anchor", topK: 100, filter: { topic: { $eq: "sailing" } } },
      fields: ["topic"],
    });
    const hits = hitsOf(filtered);
    expect(hits.length).toBeGreaterThan(10);
    expect(hits.every((h) => h.fields.topic === "sailing" && Object.keys(h.fields).length === 1)).toBe(true);
  });

  test("BM25 scores equal the hand-computed values on a tiny corpus", async () => {
    await mcp.call("upsert_records", {
      index: "notes",
      namespace: "tiny",
      records: [
        { _id: "d1", text: "apple banana apple" },
        { _id: "d2", text: "banana cherry" },
        { _id: "d3", text: "cherry date elderberry fig" },
      ],
    });
    // N = 3, avgdl = 3, k1 = 1.2, b = 0.75. "apple": n = 1, idf = ln(1 + 2.5/1.5) = 0.980829;
    // d1: tf 2, |d| 3 → 2·2.2 / (2 + 1.2) = 1.375 → 1.348640.
    const apple = hitsOf(await mcp.call("search_records", { index: "notes", namespace: "tiny", query: { text: "apple", topK: 3 } }));
    expect(apple.map((h) => h.id)).toEqual(["d1"]);
    expect(apple[0].score).toBeCloseTo(1.34864, 5);
    // "banana": n = 2, idf = ln(1 + 1.5/2.5) = 0.470004; d2 (|d| 2): 2.2 / (1 + 0.9) → 0.544215; d1 (|d| 3): 2.2 / 2.2 → 0.470004.
    const banana = hitsOf(await mcp.call("search_records", { index: "notes", namespace: "tiny", query: { text: "banana", topK: 3 } }));
    expect(banana.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([["d2", 0.544215], ["d1", 0.470004]]);
  });

  test("search_records reranks with local-bm25-rerank; rerank_documents ranks documents", async () => {
    const r = await mcp.call("search_records", {
      index: "notes",
      namespace: "journal",
      query: { text: "harbor", topK: 20 },
      rerank: { model: "local-bm25-rerank", rankFields: ["text"], topN: 2 },
    });
    expect(hitsOf(r)).toHaveLength(2);
    expect(r.text).toMatch(/^2 records in namespace "journal" of index "notes", reranked by local-bm25-rerank:/);
    expect(hitsOf(r).every((h) => h.score > 0 && h.score < 1)).toBe(true);

    const docs = await mcp.call("rerank_documents", {
      model: "local-bm25-rerank",
      query: "comet telescope",
      documents: ["a recipe with garlic", { id: "sky", text: "the comet through my telescope" }, "telescope repair"],
      topN: 2,
    });
    expect((docs.structured as { results: { position: number; id?: string }[] }).results.map((x) => [x.position, x.id])).toEqual([[1, "sky"], [2, undefined]]);
    expect(docs.text).toMatch(/^2 of 3 documents, most relevant first \(model local-bm25-rerank\):\n\n\| rank \| position \| id \| score \| text \|\n\| --- \| --- \| --- \| --- \| --- \|\n\| 1 \| 1 \| sky \| 0\.\d{4} \| the comet through my telescope \|/);
  });

  test("search_indexes merges and reranks hits of several indexes; the same id in two indexes is two hits", async () => {
    await mcp.call("create_index_for_model", { name: "notes-b", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } });
    await mcp.call("upsert_records", { index: "notes-b", records: [{ _id: "note-137", text: "quetzalcoatl duplicate" }, { _id: "b1", text: "quetzalcoatl feathered serpent" }] });
    const r = await mcp.call("search_indexes", {
      indexes: [{ index: "notes", namespace: "journal" }, { index: "notes-b" }],
      query: { text: "quetzalcoatl serpent", topK: 5 },
      rerank: { model: "local-bm25-rerank", rankFields: ["text"] },
    });
    expect(r.isError).toBe(false);
    const s = r.structured as { hits: (Hit & { index: string })[]; searched: unknown[] };
    expect(s.hits.map((h) => [h.id, h.index])).toEqual([["b1", "notes-b"], ["note-137", "notes-b"], ["note-137", "notes"]]);
    expect(r.text).toBe(
      [
        "3 of 3 hits from 2 indexes, reranked by local-bm25-rerank:",
        "",
        "| id | index | namespace | score | text | topic |",
        "| --- | --- | --- | --- | --- | --- |",
        "| b1 | notes-b |  | 0.5604 | quetzalcoatl feathered serpent |  |",
        "| note-137 | notes-b |  | 0.1462 | quetzalcoatl duplicate |  |",
        `| note-137 | notes | journal | 0.0902 | ${notes[137].text} | chess |`,
      ].join("\n"),
    );
    expect(s.searched).toEqual([{ index: "notes", namespace: "journal", hits: 1 }, { index: "notes-b", namespace: "", hits: 2 }]);
  });
});

describe("bad inputs, with the exact text a model receives", () => {
  test("upsert_records: a record without the text field, an empty text, a duplicate id; nothing written", async () => {
    const r = await mcp.call("upsert_records", {
      index: "notes",
      namespace: "bad",
      records: [{ _id: "a", text: "fine" }, { _id: "b", body: "wrong field" }, { _id: "c", text: "  " }, { id: "a", text: "again" }, { _id: "d", text: "x", tags: { nested: true } }],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      '4 problems with the records for index "notes":\n' +
        '- position 1 (id "b"): text is missing; the index embeds the text of the field "text"\n' +
        '- position 2 (id "c"): text is empty; give the text to embed\n' +
        '- position 3 (id "a"): _id is a duplicate of position 0; each id may appear once per call\n' +
        '- position 4 (id "d"): tags is an object; values must be a string, number, boolean or list of strings (no nested objects)\n' +
        `${nothingWas("written")}\n` +
        "Next step: fix those records and call upsert_records again with the whole list.",
    );
    const stats = await api(svc, "POST", `http://${(await api(svc, "GET", "/indexes/notes")).body.host}/describe_index_stats`, {});
    expect(stats.body.namespaces.bad).toBeUndefined();
  });

  test("text tools on an index without integrated embedding, and vectors into one with it", async () => {
    const up = await mcp.call("upsert_records", { index: "plain", records: [{ _id: "a", text: "x" }] });
    expect(refusalOf(up.text)).toEqual({
      problem: 'Index "plain" has no integrated embedding, so it cannot embed text',
      untouched: "written",
      next: "write vectors to it with upsert_vectors (embed_texts makes them from text), or create an index for a model with create_index_for_model.",
    });
    const search = await mcp.call("search_records", { index: "plain", query: { text: "x", topK: 1 } });
    expect(search.text).toBe(
      `Index "plain" has no integrated embedding, so it cannot search by text. ${nothingWas("read")}\n` +
        "Next step: search by query.id (a stored record's vector); or query_vectors with a vector from the model that made the stored ones (embed_texts makes it if list_models shows that model); or, to search text, write it to an index made by create_index_for_model with upsert_records.",
    );
    const vectors = await mcp.call("upsert_vectors", { index: "notes", vectors: [{ id: "v", sparseValues: { indices: [1], values: [1] } }] });
    expect(refusalOf(vectors.text)).toEqual({
      problem: 'Index "notes" has integrated embedding (model local-bm25): it embeds text itself',
      untouched: "written",
      next: 'write the text with upsert_records (each record with _id and a "text" field).',
    });
  });

  test("search_records: two kinds of query at once, rerank without text", async () => {
    const both = await mcp.call("search_records", { index: "notes", query: { text: "x", id: "note-001", topK: 1 } });
    expect(both.text).toBe(
      `Give exactly one of query.text, query.id or query.vector (this call has text and id). ${nothingWas("read")}\n` +
        "Next step: call again with one of them — query.text for an index with integrated embedding.",
    );
    const rerank = await mcp.call("search_records", { index: "notes", query: { id: "note-001", topK: 1 }, rerank: { model: "local-bm25-rerank", rankFields: ["text"] } });
    expect(rerank.text).toBe(`rerank needs query.text: the reranker scores each record against that text. ${nothingWas("read")}\nNext step: search by text, or leave out rerank.`);
  });

  test("a hosted model's name on the local service: refused, naming what is available", async () => {
    const r = await mcp.call("create_index_for_model", { name: "e5", cloud: "aws", region: "us-east-1", embed: { model: "multilingual-e5-large", fieldMap: { text: "text" } } });
    expect(r.text).toBe(
      "create_index_for_model failed — the service answered HTTP 400 INVALID_ARGUMENT: \"Model multilingual-e5-large is not available on the local service. " +
        `Available on the local service: local-bm25 (sparse embedding), local-bm25-rerank (rerank), ${TEST_MODEL} (dense embedding, from ${embedder.url}), chat-model-not-embeddings (dense embedding, from ${embedder.url}).\"\n` +
        "Next step: Use a model list_models shows (local-bm25 for keywords), or add models as the message says.",
    );
    expect((await api(svc, "GET", "/indexes/e5")).status).toBe(404);
  });
});

describe("a dense model of the user's OpenAI-compatible server", () => {
  test("create, upsert and search by meaning", async () => {
    const c = await mcp.call("create_index_for_model", { name: "dense", cloud: "aws", region: "us-east-1", embed: { model: TEST_MODEL, fieldMap: { text: "text" } } });
    expect(c.structured).toMatchObject({ index: { dimension: TEST_DIM, metric: "cosine", vectorType: "dense" } });
    const up = await mcp.call("upsert_records", { index: "dense", records: notes.slice(0, 60) });
    expect(up.structured).toMatchObject({ upserted: 60, failed: 0 });
    const r = await mcp.call("search_records", { index: "dense", query: { text: notes[42].text, topK: 1 } });
    expect(hitsOf(r)[0].id).toBe("note-042");
    const e = await mcp.call("embed_texts", { model: TEST_MODEL, inputs: ["a", "b"], inputType: "query" });
    expect(e.text).toMatch(new RegExp(`^\\| model \\| vector type \\| count \\| dimension \\| tokens \\|\\n\\| --- \\| --- \\| --- \\| --- \\| --- \\|\\n\\| ${TEST_MODEL} \\| dense \\| 2 \\| ${TEST_DIM} \\| 2 \\|`));
  });

  test("a slow server is waited for; one slower than the timeout is an error naming it, and nothing is written", async () => {
    embedder.delayMs = 300;
    const slow = await mcp.call("upsert_records", { index: "dense", namespace: "slow", records: notes.slice(0, 3) });
    expect(slow.structured).toMatchObject({ upserted: 3, failed: 0 });
    embedder.delayMs = 1500; // past VECDB_EMBED_TIMEOUT_MS=700
    const late = await mcp.call("upsert_records", { index: "dense", namespace: "late", records: notes.slice(0, 3) });
    embedder.delayMs = 0;
    expect(late.isError).toBe(true);
    expect(late.structured).toMatchObject({ upserted: 0, failed: 3, failedIds: ["note-000", "note-001", "note-002"] });
    expect(late.text).toContain(`HTTP 503: The embeddings server at ${embedder.url} did not answer within 700 ms.`);
  });

  test("a server that is down: search is a 503 naming it; the lexical models still work", async () => {
    await embedder.close();
    const r = await mcp.call("search_records", { index: "dense", query: { text: "x", topK: 1 } });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(new RegExp(`^search_records failed — the service answered HTTP 503: "The embeddings server at ${embedder.url.replace(/[./]/g, "\\$&")} refused the connection \\(is it running\\?\\)\\." \\(after 2 attempts\\)\\n`));
    const m = await mcp.call("list_models");
    expect((m.structured as { models: { model: string }[] }).models.map((x) => x.model)).toEqual(["local-bm25", "local-bm25-rerank"]);
  });
});
