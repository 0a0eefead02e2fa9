// create_documents_index end to end: the built server over stdio against the local service. The schema it sends
// (full-text settings, the meaning field, the caller's own vector fields) is checked on the service as 2026-07
// describes it; every bad request is refused before anything is created.
import { describe, expect, test } from "vitest";
import { describe2607, mcp, svc, useDocumentsFixture } from "../fixtures/documents.js";
import { TEST_DIM, TEST_MODEL } from "../../helpers/embeddings-server.js";
import { refusalOf } from "../../helpers/refusal.js";
import { api } from "../../e2e/support.js";

useDocumentsFixture();

describe("create_documents_index", () => {
  test("full-text fields with language, stemming and stop words, and own dense and sparse vectors", async () => {
    const args = { name: "articles", textFields: ["title", "body"], language: "de", stopWords: true, vector: { dimension: 3, metric: "dotproduct" }, sparse: true };
    const r = await mcp.call("create_documents_index", args);
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({
      index: "articles",
      created: true,
      ready: true,
      fields: [
        { name: "title", type: "text", settings: "de, stemming, stop words" },
        { name: "body", type: "text", settings: "de, stemming, stop words" },
        { name: "vector", type: "dense_vector", settings: "3 dimensions, dotproduct" },
        { name: "sparse", type: "sparse_vector", settings: "" },
      ],
    });
    expect(r.text).toBe(
      [
        'Documents index "articles" created and ready.',
        "",
        "| field | type | settings |",
        "| --- | --- | --- |",
        "| title | text | de, stemming, stop words |",
        "| body | text | de, stemming, stop words |",
        "| vector | dense_vector | 3 dimensions, dotproduct |",
        "| sparse | sparse_vector |  |",
        "",
        'Next step: write documents with upsert_documents (each with an id and "title" / "body"); search_documents finds them by words, phrases.',
      ].join("\n"),
    );
    const described = await describe2607("articles");
    expect(described.body.schema.fields).toMatchObject({
      title: { type: "string", full_text_search: { language: "de", stemming: true, stop_words: true } },
      body: { type: "string", full_text_search: { language: "de", stemming: true, stop_words: true } },
      vector: { type: "dense_vector", dimension: 3, metric: "dotproduct" },
      sparse: { type: "sparse_vector" },
    });
    expect(described.body.deployment).toMatchObject({ deployment_type: "managed", cloud: "aws", region: "us-east-1" });
    const again = await mcp.call("create_documents_index", args);
    expect(again.structured).toMatchObject({ created: false });
    expect(again.text).toMatch(/^Index "articles" already exists with these fields; it is returned as is \(nothing was created\)\./);
    expect(refusalOf((await mcp.call("create_documents_index", { ...args, language: "en" })).text)).toEqual({
      problem: 'Index "articles" already exists with other fields (title, body, vector, sparse)',
      untouched: "changed",
      next: "use the existing index as it is (describe_index shows it), or call create_documents_index with another name.",
    });
  });

  test("each text field with its own language, stemming, stop words or n-grams; n-grams find a part of a word", async () => {
    const textFields = ["title", "notes", "raw", "sku"];
    const fieldAnalysis = { notes: { language: "de" }, raw: { stemming: false, stopWords: false }, sku: { ngram: { min: 2, max: 3, prefixOnly: false } } };
    const r = await mcp.call("create_documents_index", { name: "catalogue", textFields, fieldAnalysis, stemming: true, stopWords: true });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toBe(
      [
        'Documents index "catalogue" created and ready.',
        "",
        "| field | type | settings |",
        "| --- | --- | --- |",
        "| title | text | en, stemming, stop words |",
        "| notes | text | de, stemming, stop words |",
        "| raw | text | en |",
        "| sku | text | en, 2–3-grams |",
        "",
        'Next step: write documents with upsert_documents (each with an id and "title" / "notes" / "raw" / "sku"); search_documents finds them by words, phrases.',
      ].join("\n"),
    );
    expect((await describe2607("catalogue")).body.schema.fields).toMatchObject({
      title: { type: "string", full_text_search: { language: "en", stemming: true, stop_words: true } },
      notes: { type: "string", full_text_search: { language: "de", stemming: true, stop_words: true } },
      raw: { type: "string", full_text_search: { language: "en", stemming: false, stop_words: false } },
      sku: { type: "string", full_text_search: { language: "en", ngram: { min_gram: 2, max_gram: 3, prefix_only: false } } },
    });
    const documents = [
      { id: "lamp", title: "Reading lamps", notes: "Die Lampen", raw: "the lamps", sku: "XK-4821" },
      { id: "desk", title: "A desk", notes: "Der Tisch", raw: "a desk", sku: "DS-1177" },
    ];
    expect((await mcp.call("upsert_documents", { index: "catalogue", namespace: "shop", documents })).isError).toBe(false);
    const found = async (words: string, field: string) =>
      ((await mcp.call("search_documents", { index: "catalogue", namespace: "shop", words, inFields: [field] })).structured?.hits as { id: string }[] | undefined)?.map((d) => d.id);
    expect(await found("482", "sku")).toEqual(["lamp"]); // the local service searches what it acknowledged
    expect(await found("lamp", "title")).toEqual(["lamp"]); // stemmed: "lamps"
    expect(await found("the desk", "title")).toEqual(["desk"]); // "the" and "a" are stop words
    expect(await found("lamp", "raw")).toEqual([]); // neither stemmed
    expect(await found("the", "raw")).toEqual(["lamp"]); // nor without stop words
  });

  test("a field's own analysis is checked as the index-wide one, naming the field", async () => {
    const refused = async (fieldAnalysis: Record<string, unknown>, textFields = ["body", "sku"]) =>
      (refusalOf((await mcp.call("create_documents_index", { name: "bad-fields", textFields, fieldAnalysis })).text) as { problem: string }).problem;
    expect(await refused({ sku: { ngram: { min: 2, max: 3 }, stemming: true } })).toBe('ngram cannot be combined with stemming or stopWords (text field "sku"): n-grams are cut from the characters, not the words');
    expect(await refused({ sku: { ngram: { min: 4, max: 3 } } })).toBe('ngram.min (4) is more than ngram.max (3) (text field "sku")');
    expect(await refused({ body: { stopWords: true, stemming: false } })).toBe('stopWords needs stemming (text field "body"): give stemming true or leave it out');
    expect(await refused({ body: { language: "fr" }, title: { language: "de" }, tags: {} })).toBe('fieldAnalysis names "title", "tags", not among textFields');
    const outOfRange = await mcp.call("create_documents_index", { name: "bad-fields", textFields: ["sku"], fieldAnalysis: { sku: { ngram: { min: 0, max: 11 } } } });
    expect(outOfRange.isError).toBe(true);
    expect(outOfRange.text).toContain("ngram.min is a whole number from 1 to 10");
    expect((await api(svc, "GET", "/indexes/bad-fields")).status).toBe(404);
  });

  test("a meaning field: a dense vector of the model's length, named in its description", async () => {
    const r = await mcp.call("create_documents_index", { name: "by-meaning", textFields: ["title", "body"], meaning: { model: TEST_MODEL, from: ["body"] } });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ fields: [{ name: "title" }, { name: "body" }, { name: "meaning", type: "meaning", settings: `${TEST_MODEL} on body` }] });
    expect((await describe2607("by-meaning")).body.schema.fields.meaning).toMatchObject({
      type: "dense_vector",
      dimension: TEST_DIM,
      metric: "cosine",
      description: `text of ["body"] embedded by "${TEST_MODEL}"`,
    });
    expect(r.text).toContain("search_documents finds them by words, phrases, or by meaning.");
  });

  test("a sparse model makes a sparse meaning field", async () => {
    const r = await mcp.call("create_documents_index", { name: "by-bm25", textFields: ["text"], meaning: { model: "local-bm25" } });
    expect(r.isError, r.text).toBe(false);
    expect((await describe2607("by-bm25")).body.schema.fields.meaning).toMatchObject({ type: "sparse_vector", description: 'text of ["text"] embedded by "local-bm25"' });
  });

  test("bad requests are refused and nothing is created", async () => {
    const refused = async (args: Record<string, unknown>) => refusalOf((await mcp.call("create_documents_index", { name: "bad", textFields: ["text"], ...args })).text);
    expect(await refused({ meaning: { model: "no-such-model" } })).toEqual({
      problem: `No embedding model "no-such-model"; the service has local-bm25, ${TEST_MODEL}, chat-model-not-embeddings`,
      untouched: "created",
      next: "call again with one of them (list_models describes them).",
    });
    expect((await refused({ meaning: { model: TEST_MODEL, from: ["title"] } })).problem).toBe('meaning.from names "title", not among textFields');
    expect((await refused({ stopWords: true, stemming: false })).problem).toBe("stopWords needs stemming: give stemming true or leave it out");
    expect((await refused({ meaning: { model: TEST_MODEL }, vector: { dimension: 4 } })).problem).toBe("Give meaning or vector, not both: an index has one dense vector field");
    expect((await refused({ textFields: ["text", "vector"], vector: { dimension: 4 } })).problem).toBe('textFields names "vector", which is also the vector field the tools add: rename that text field');
    expect((await api(svc, "GET", "/indexes/bad")).status).toBe(404);
  });

  test("the index's name follows the index name rules", async () => {
    const r = await mcp.call("create_documents_index", { name: "Not_Valid", textFields: ["text"] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Index name "Not_Valid"');
  });
});
