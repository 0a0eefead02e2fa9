// What a model reads on the write path and at the dead ends it used to meet, against the local service over stdio:
// update_vectors on an index that embeds text, create_index_for_model's parameters and placement, a hosted model's
// name here, an embeddings server that is down, text search on a dense index, a backup asked for by name, a JSONL
// file of text records, the default namespace, a wrong argument name, a missing index as a resource, and what
// index_documents left out.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { api, createIndex, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";
import { refusalOf } from "../helpers/refusal.js";

let svc: RunningService;
let mcp: McpSession;
let allowed: string;

beforeAll(async () => {
  allowed = mkdtempSync(join(tmpdir(), "vecdb-front-door-"));
  svc = await startServiceProcess();
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl, VECDB_RETRIES: "1" }, args: ["--allow-dir", allowed] });
  const made = await mcp.call("create_index_for_model", { name: "notes", embed: { model: "local-bm25", fieldMap: { text: "text" }, readParameters: { input_type: "passage" } } });
  expect(made.isError, made.text).toBe(false);
  await createIndex(svc, { name: "dense", dimension: 4, spec: serverless });
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  rmSync(allowed, { recursive: true, force: true });
});

const ids = (r: { structured?: Record<string, unknown> }) => (r.structured as { hits: { id: string }[] }).hits.map((h) => h.id);

describe("create_index_for_model", () => {
  test("parameters written as its description spells them are sent, and the placement defaults as create_index's", async () => {
    const d = await mcp.call("describe_index", { index: "notes" });
    expect((d.structured as { index: { embed: unknown } }).index.embed).toMatchObject({ readParameters: { input_type: "passage" } });
    expect((await api(svc, "GET", "/indexes/notes")).body.spec).toMatchObject({ serverless: { cloud: "aws", region: "us-east-1" } });
  });

  test("an argument error names the field and the rule", async () => {
    const r = await mcp.call("create_index_for_model", { name: "x", cloud: "mars", embed: { model: "local-bm25", fieldMap: { text: "text" } } });
    expect(r.text).toContain(`cloud is "mars": cloud is aws, gcp or azure. ${nothingWas("created")}`);
  });

  test("a hosted model's name: the service's message arrives whole, with the way to add models", async () => {
    const r = await mcp.call("create_index_for_model", { name: "e5", embed: { model: "multilingual-e5-large", fieldMap: { text: "text" } } });
    expect(r.text).toMatch(/start the local service with --embed-url http:\/\/127\.0\.0\.1:11434\/v1 \(or set VECDB_EMBED_URL\)\."\nNext step: Use a model list_models shows \(local-bm25 for keywords\), or add models as the message says\.$/);
  });
});

describe("update_vectors on an index that embeds text", () => {
  test("a new text by id is embedded again, so search finds the record by its new words", async () => {
    await mcp.call("upsert_records", { index: "notes", records: [{ _id: "n1", text: "apples and pears", kind: "fruit" }, { _id: "n2", text: "a quiet harbour at dawn" }] });
    const r = await mcp.call("update_vectors", { index: "notes", id: "n1", setMetadata: { text: "lanterns over the tide" } });
    expect(r.text).toBe(
      'Record updated in namespace "__default__" of index "notes", its text embedded again:\n\n| id | changed |\n| --- | --- |\n| n1 | metadata (text); values embedded again from "text" |',
    );
    const found = await mcp.call("search_records", { index: "notes", query: { text: "lanterns", topK: 2 } });
    expect(ids(found)).toEqual(["n1"]);
    const fetched = await mcp.call("fetch_vectors", { index: "notes", ids: ["n1"] });
    expect(JSON.stringify(fetched.structured)).toContain('"kind":"fruit"');
  });

  test("a new text by filter is refused, naming the records path", async () => {
    const r = await mcp.call("update_vectors", { index: "notes", filter: { kind: { $eq: "fruit" } }, setMetadata: { text: "x" } });
    expect(r.text).toBe(
      `Index "notes" embeds its field "text": setting it by filter would leave each record's vector for its old text. ${nothingWas("changed")}\n` +
        'Next step: call upsert_records with the changed records whole (_id, "text" and the other fields), so each is embedded again; or call update_vectors with one id at a time.',
    );
  });
});

test("import_vectors takes a JSONL file of text records into an index that embeds text", async () => {
  const file = join(allowed, "notes.jsonl");
  writeFileSync(file, [{ _id: "j1", text: "the cormorant dries its wings" }, { id: "j2", text: "salt on the rigging", topic: "sea" }].map((r) => JSON.stringify(r)).join("\n") + "\n");
  const r = await mcp.call("import_vectors", { index: "notes", namespace: "imported", path: file });
  expect(r.isError, r.text).toBe(false);
  expect(r.structured).toMatchObject({ records: 2, upserted: 2, failed: 0 });
  const found = await mcp.call("search_records", { index: "notes", namespace: "imported", query: { text: "cormorant", topK: 3 } });
  expect(ids(found)).toEqual(["j1"]);

  writeFileSync(file, `${JSON.stringify({ text: "no id" })}\n${JSON.stringify({ _id: "k", body: "no text" })}\n`);
  const bad = await mcp.call("import_vectors", { index: "notes", namespace: "imported", path: file });
  expect(refusalOf(bad.text.split("\n\n")[0])).toEqual({
    problem:
      `2 of 2 records in ${file} are not valid for index "notes":\n` +
      "- line 1: _id is missing or not a string (give _id or id)\n" +
      '- line 2 (id "k"): text is missing; the index embeds the text of the field "text"',
    untouched: "written",
    next: "fix those lines and call import_vectors again (dryRun: true checks the file without writing).",
  });
});

test("text search on a dense index points at tools that exist here", async () => {
  const r = await mcp.call("search_records", { index: "dense", query: { text: "x", topK: 1 } });
  expect(r.text).toBe(
    `Index "dense" has no integrated embedding, so it cannot search by text. ${nothingWas("read")}\n` +
      "Next step: search by query.id (a stored record's vector); or query_vectors with a vector from the model that made the stored ones (embed_texts makes it if list_models shows that model); or, to search text, write it to an index made by create_index_for_model with upsert_records.",
  );
});

test("describe_backup given a backup's name finds it", async () => {
  const made = await api(svc, "POST", "/indexes/notes/backups", { name: "nightly" });
  expect(made.status).toBe(201);
  const r = await mcp.call("describe_backup", { backupId: "nightly" });
  expect(r.isError, r.text).toBe(false);
  expect(r.text.split("\n")[0]).toBe(`Backup named "nightly" (id "${made.body.backup_id}"):`);
});

test("the default namespace: one spelling, and describe_namespace takes \"\"", async () => {
  const r = await mcp.call("describe_namespace", { index: "notes", namespace: "" });
  expect(r.isError, r.text).toBe(false);
  expect(r.text).toContain("| __default__ | 2 |");
  const stats = await mcp.call("describe_index_stats", { index: "notes" });
  expect(stats.text).toContain("| __default__ | 2 |");
});

test("describe_index {name} is refused with the argument it takes", async () => {
  const r = await mcp.call("describe_index", { name: "notes" });
  expect(r.text).toBe(`Unknown argument "name" — describe_index takes "index". ${nothingWas("read")}`);
});

test("a missing index read as a resource names no address of the service", async () => {
  const err = await mcp.client.readResource({ uri: "vecdb://indexes/missing" }).then(() => undefined, (e: Error) => e);
  expect(err?.message).toContain('Index "missing" not found. resources/list (or list_indexes) shows the indexes there are.');
  expect(err?.message).not.toContain("127.0.0.1");
});

test("index_documents says what the globs left out and which folders it did not enter", async () => {
  const docs = join(allowed, "docs");
  for (const [path, text] of [["a.md", "# A\n\nAlpha."], ["drafts/b.md", "# B\n\nBeta."], [".git/c.md", "# C\n\nGamma."]]) {
    mkdirSync(join(docs, path, ".."), { recursive: true });
    writeFileSync(join(docs, path), text);
  }
  const r = await mcp.call("index_documents", { index: "notes", namespace: "docs", paths: ["docs"], exclude: ["drafts/**"] });
  expect(r.isError, r.text).toBe(false);
  expect(r.text).toContain(`Files left out: 1 matched an exclude glob.\n\nFolders not entered (hidden or of installed packages; an include glob naming one, e.g. ".github/**", enters it): ${join(docs, ".git")}.`);
  expect(r.structured).toMatchObject({ files: 1, excluded: 1, notIncluded: 0 });
});

describe("with the embeddings server down", () => {
  let down: RunningService;
  let session: McpSession;
  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    down = await startServiceProcess({ args: ["--embed-url", `http://127.0.0.1:${port}/v1`] });
    session = await startMcp({ env: { PINECONE_API_KEY: down.apiKey, PINECONE_CONTROLLER_HOST: down.controlUrl, VECDB_RETRIES: "1" } });
  });
  afterAll(async () => {
    await session?.close();
    await down?.stop();
  });

  test("embed_texts says what is wrong and what works without it", async () => {
    const r = await session.call("embed_texts", { model: "nomic-embed-text", inputs: ["x"], inputType: "query" });
    expect(r.text).toMatch(/refused the connection \(is it running\?\)\.".*\nNext step: The local service's embeddings server is not working as the message says: start it or correct --embed-url \(VECDB_EMBED_URL\), then call again; the model local-bm25 \(keywords\) works without it\.$/s);
  });

  test("list_models says which models are missing and why", async () => {
    const r = await session.call("list_models");
    expect(r.text).toMatch(/\n\nThe embeddings server's models are missing: The embeddings server at http:\/\/127\.0\.0\.1:\d+\/v1 refused the connection \(is it running\?\)\. Start it \(or correct --embed-url\), then list again; local-bm25 works without it\.$/);
  });
});
