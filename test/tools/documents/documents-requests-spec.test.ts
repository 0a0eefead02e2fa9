// Every request the documents tools send validates against the 2026-07 specs (db_control / db_data request schemas)
// and names 2026-07: the built server, each tool called with the shapes of argument it takes, against a small
// loopback recorder that answers as the service does (the local service checks what it receives its own way; this
// checks it against the published specs).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { schemaValidator, specsAvailable, specsMissingReason, type SpecFile } from "../../helpers/api-spec.js";

let server: Server;
let mcp: McpSession;
const sent: { method: string; path: string; version: string; body: unknown }[] = [];

const MODEL = "dense-16";
const vector = () => Array.from({ length: 16 }, (_, i) => (i + 1) / 16);

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith("/_vecdb/identity")) return void res.writeHead(404, { "content-length": "0" }).end();
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const body = raw ? JSON.parse(raw) : undefined;
      const path = (req.url ?? "").split("?")[0];
      sent.push({ method: req.method ?? "", path, version: String(req.headers["x-pinecone-api-version"]), body });
      const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
      const index = {
        name: "notes", host, metric: "cosine", dimension: 16, spec: { serverless: { cloud: "aws", region: "us-east-1" } }, status: { ready: true, state: "Ready" },
        deployment: { deployment_type: "managed", cloud: "aws", region: "us-east-1" },
        schema: { fields: { text: { type: "string", full_text_search: { language: "en" } }, meaning: { type: "dense_vector", dimension: 16, metric: "cosine", description: `text of ["text"] embedded by "${MODEL}"` }, own: { type: "sparse_vector" } } },
      };
      const answers: Record<string, unknown> = {
        "GET /indexes/notes": index,
        "POST /indexes": index,
        "GET /models": { models: [{ model: MODEL, type: "embed", vector_type: "dense", default_dimension: 16, supported_metrics: ["cosine"] }] },
        "POST /embed": { model: MODEL, vector_type: "dense", data: (body?.inputs ?? []).map(() => ({ vector_type: "dense", values: vector() })) },
      };
      const op = /\/documents\/(\w+)$/.exec(path)?.[1];
      const documents: Record<string, unknown> = {
        upsert: { upserted_count: body?.documents?.length ?? 0 },
        search: { matches: [{ _id: "a", _score: 1, text: "hello" }], namespace: "n", usage: { read_units: 1 } },
        fetch: { documents: { a: { _id: "a", text: "hello" } }, namespace: "n", usage: { read_units: 1 } },
        list: { documents: [{ _id: "a" }], namespace: "n", usage: { read_units: 1 } },
        delete: body?.filter ? { matched_records: 1 } : {},
        update: body?.filter ? { matched_records: 1 } : {},
      };
      const answer = op ? documents[op] : answers[`${req.method} ${path}`];
      const status = answer === undefined ? 404 : op === "upsert" || op === "delete" || op === "update" ? 202 : req.method === "POST" && path === "/indexes" ? 201 : 200;
      const text = JSON.stringify(answer ?? { error: { code: "NOT_FOUND", message: `no ${path}` }, status: 404 });
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  mcp = await startMcp({
    env: { PINECONE_API_KEY: "recorder-key", PINECONE_CONTROLLER_HOST: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, VECDB_RETRIES: "0" },
    args: ["--allow-destructive"],
  });
});
afterAll(async () => {
  await mcp?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const REQUEST_SCHEMA: Record<string, [SpecFile, string]> = {
  "POST /indexes": ["db_control_2026-07.oas.yaml", "CreateIndexRequest"],
  upsert: ["db_data_2026-07.oas.yaml", "UpsertDocumentsRequest"],
  search: ["db_data_2026-07.oas.yaml", "SearchDocumentsRequest"],
  fetch: ["db_data_2026-07.oas.yaml", "FetchDocumentsRequest"],
  list: ["db_data_2026-07.oas.yaml", "ListDocumentsRequest"],
  delete: ["db_data_2026-07.oas.yaml", "DeleteDocumentsRequest"],
  update: ["db_data_2026-07.oas.yaml", "UpdateDocumentsRequest"],
};

describe.skipIf(!specsAvailable)("the documents tools' requests against the 2026-07 specs", () => {
  test(specsAvailable ? "every body validates and every documents call names 2026-07" : specsMissingReason, async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["create_documents_index", { name: "notes", textFields: ["text"], stemming: true, stopWords: true, meaning: { model: MODEL } }],
      [
        "create_documents_index",
        { name: "notes", textFields: ["title", { name: "body", language: "fr", stemming: true }, { name: "sku", ngram: { min: 2, max: 3, prefixOnly: true } }], language: "de", vector: { dimension: 3 }, sparse: true },
      ],
      ["upsert_documents", { index: "notes", namespace: "n", documents: [{ id: "a", text: "hello", year: 2024, tags: ["x"] }, { _id: "b", text: "" }] }],
      ["search_documents", { index: "notes", namespace: "n", words: "old harbor", match: "phrase", filter: { year: { $gte: 2020 } }, topK: 5, fields: ["text"] }],
      ["search_documents", { index: "notes", namespace: "n", words: "harbor", match: "all", queryString: 'text:"old harbor"~2' }],
      ["search_documents", { index: "notes", namespace: "n", meaning: "a lantern at night" }],
      ["search_documents", { index: "notes", namespace: "n", vector: { sparseValues: { indices: [1, 7], values: [0.5, 0.2] } } }],
      ["fetch_documents", { index: "notes", namespace: "n", ids: ["a", "b"] }],
      ["fetch_documents", { index: "notes", namespace: "n", filter: { year: 2024 }, limit: 50, paginationToken: "abc" }],
      ["list_documents", { index: "notes", namespace: "n", prefix: "a", limit: 10, paginationToken: "abc" }],
      ["update_documents", { index: "notes", namespace: "n", id: "a", set: { text: "new text", year: 2025 }, remove: ["tags"] }],
      ["update_documents", { index: "notes", namespace: "n", filter: { year: 2024 }, set: { done: true }, remove: ["tags"] }],
      ["delete_documents", { index: "notes", namespace: "n", ids: ["a"] }],
      ["delete_documents", { index: "notes", namespace: "n", filter: { year: 2024 } }],
      ["delete_documents", { index: "notes", namespace: "n", deleteAll: true }],
    ];
    for (const [tool, args] of calls) {
      const r = await mcp.call(tool, args);
      // The second create answers with the recorder's one index: refused as another index's fields, after its POST.
      if (!(tool === "create_documents_index" && args.language === "de")) expect(r.isError, `${tool}: ${r.text}`).toBe(false);
    }
    const checked = new Set<string>();
    for (const req of sent) {
      const op = /\/documents\/(\w+)$/.exec(req.path)?.[1];
      const key = op ?? `${req.method} ${req.path}`;
      // The describe that finds an index's host speaks the server's configured version; the schema is read under 2026-07.
      if (op || key === "POST /indexes") expect(req.version, `${key} names the version`).toBe("2026-07");
      const schema = REQUEST_SCHEMA[key];
      if (!schema) continue;
      const validate = schemaValidator(...schema);
      expect(validate(req.body), `${key} ${JSON.stringify(req.body)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      checked.add(key);
    }
    expect([...checked].sort()).toEqual(Object.keys(REQUEST_SCHEMA).sort());
    expect(sent.some((r) => r.method === "GET" && r.path === "/indexes/notes" && r.version === "2026-07")).toBe(true);
  });
});
