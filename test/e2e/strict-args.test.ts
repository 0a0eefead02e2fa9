// Every tool refuses an argument key it does not know — at the top level and inside nested objects — naming it and
// the nearest valid name, and does nothing; maps that hold data (metadata, filters, tags) take any key.
// The built server over stdio, every tool on (--allow-destructive), against the local service.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { api, createIndex, indexStats, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: unknown };

let svc: RunningService;
let mcp: McpSession;
let host = "";
let dir = "";

beforeAll(async () => {
  svc = await startServiceProcess();
  dir = mkdtempSync(join(tmpdir(), "vecdb-strict-"));
  mcp = await startMcp({
    env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl },
    args: ["--allow-destructive", "--allow-dir", dir],
  });
  host = (await createIndex(svc, { name: "docs", dimension: 2, spec: serverless })).host;
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
});

const closed = (s: Schema | undefined): s is Schema => s?.type === "object" && s.properties !== undefined && s.additionalProperties === false;

/** The first nested object with named properties in a tool's input schema: its path in the arguments and a value that puts `extra` there. */
function nestedPlace(schema: Schema): { path: string; args: Record<string, unknown> } | undefined {
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (closed(prop)) return { path: key, args: { [key]: { zzExtra: 1 } } };
    if (prop.type === "array" && closed(prop.items)) return { path: `${key}[0]`, args: { [key]: [{ zzExtra: 1 }] } };
  }
  return undefined;
}

describe("every tool", () => {
  test("lists closed input schemas: additionalProperties false on every object with named properties", () => {
    const open: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== "object") return;
      const node = s as Schema;
      if (node.type === "object" && node.properties && node.additionalProperties !== false) open.push(at);
      for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, `${at}.${k}`);
      if (node.items) walk(node.items, `${at}[]`);
    };
    for (const t of mcp.tools) walk(t.inputSchema, t.name);
    expect(mcp.tools.length).toBeGreaterThanOrEqual(15);
    expect(open).toEqual([]);
  });

  test("refuses a wrongly cased argument at the top level with the right name, and does nothing", async () => {
    for (const t of mcp.tools) {
      const names = Object.keys(t.inputSchema.properties ?? {});
      const nothing = t.annotations?.readOnlyHint ? `${nothingWas("read")}` : /^delete_/.test(t.name) ? `${nothingWas("deleted")}` : `${nothingWas("written")}`;
      if (names.length === 0) {
        const r = await mcp.call(t.name, { limit: 5 });
        expect(r.isError, t.name).toBe(true);
        expect(r.text, t.name).toBe(`Unknown argument "limit" — ${t.name} takes no arguments. ${nothing}`);
        continue;
      }
      const wrong = names[0].toUpperCase();
      const r = await mcp.call(t.name, { [wrong]: "docs" });
      expect(r.isError, t.name).toBe(true);
      expect(r.text, t.name).toBe(`Unknown argument "${wrong}" — did you mean "${names[0]}"? ${nothing}`);
    }
  });

  test("refuses an unknown key inside a nested object, naming where it is", async () => {
    let nested = 0;
    for (const t of mcp.tools) {
      const place = nestedPlace(t.inputSchema as Schema);
      if (!place) continue;
      nested++;
      const r = await mcp.call(t.name, place.args);
      expect(r.isError, t.name).toBe(true);
      expect(r.text, t.name).toMatch(new RegExp(`^Unknown argument "zzExtra" in ${place.path.replace(/[[\]]/g, "\\$&")} — ${place.path.replace(/[[\]]/g, "\\$&")} takes "`));
    }
    expect(nested).toBeGreaterThanOrEqual(3); // upsert_vectors' records, query_vectors' sparseVector, create_index's spec
  });
});

describe("the schemas' dialect", () => {
  test("every input and output schema is valid JSON Schema 2020-12 (Ajv's strict 2020 validator), without $schema, anyOf, oneOf or allOf", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const t of mcp.tools) {
      for (const schema of [t.inputSchema, t.outputSchema]) {
        expect(schema, t.name).toBeDefined();
        expect(() => ajv.compile(schema!), t.name).not.toThrow();
        expect(JSON.stringify(schema), t.name).not.toMatch(/"\$schema"|"anyOf"|"oneOf"|"allOf"|9007199254740991/);
      }
    }
  });
});

describe("what the model reads", () => {
  test("tools/list costs at most 250 tokens a tool on average (name + description + input schema, o200k_base)", () => {
    const tokens = mcp.tools.map((t) => countTokens(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema })));
    expect(tokens.reduce((a, b) => a + b, 0) / tokens.length).toBeLessThanOrEqual(250);
  });

  test("no description lists its table's columns, and the filter grammar is written out once", () => {
    for (const t of mcp.tools) expect(t.description, t.name).not.toMatch(/·/);
    const listed = JSON.stringify(mcp.tools.map((t) => t.inputSchema));
    expect(listed.split("$nin").length - 1).toBe(1);
  });
});

describe("one vocabulary", () => {
  test("every argument and every structured field is camelCase, in every tool's input and output schema", () => {
    const bad: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== "object") return;
      const node = s as Schema;
      for (const [k, v] of Object.entries(node.properties ?? {})) {
        if (!/^[a-z][a-zA-Z0-9]*$/.test(k)) bad.push(`${at}.${k}`);
        walk(v, `${at}.${k}`);
      }
      if (node.items) walk(node.items, `${at}[]`);
    };
    for (const t of mcp.tools) {
      walk(t.inputSchema, `${t.name} input`);
      walk(t.outputSchema, `${t.name} output`);
    }
    expect(bad).toEqual([]);
  });

  test("`name` is what a create tool creates; a tool acting on an existing index calls it `index`", () => {
    for (const t of mcp.tools) {
      const args = Object.keys(t.inputSchema.properties ?? {});
      if (args.includes("name")) expect(t.name, t.name).toMatch(/^create_/);
    }
    const indexArg = (tool: string) => Object.keys(mcp.tools.find((t) => t.name === tool)!.inputSchema.properties ?? {});
    expect(indexArg("create_collection")).toEqual(["name", "index"]);
    expect(indexArg("describe_collection")).toEqual(["collection"]);
  });
});

describe("nothing is done", () => {
  test("import_vectors {dry_run: true}: refused with dryRun, nothing written", async () => {
    writeFileSync(join(dir, "two.jsonl"), '{"id":"a","values":[1,0]}\n{"id":"b","values":[0,1]}\n');
    const r = await mcp.call("import_vectors", { index: "docs", path: "two.jsonl", dry_run: true });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(`Unknown argument "dry_run" — did you mean "dryRun"? ${nothingWas("written")}`);
    expect((await indexStats(svc, host)).totalVectorCount).toBe(0);
  });

  test('create_index {deletion_protection: "enabled"}: refused, no index created', async () => {
    const r = await mcp.call("create_index", { name: "guarded", dimension: 2, serverless: { cloud: "aws", region: "us-east-1" }, deletion_protection: "enabled" });
    expect(r.text).toBe(`Unknown argument "deletion_protection" — did you mean "deletionProtection"? ${nothingWas("written")}`);
    expect((await api(svc, "GET", "/indexes/guarded")).status).toBe(404);
  });

  test("list_vector_ids {pagination_token}: refused, not page 1 again", async () => {
    const r = await mcp.call("list_vector_ids", { index: "docs", pagination_token: "abc" });
    expect(r.text).toBe(`Unknown argument "pagination_token" — did you mean "paginationToken"? ${nothingWas("read")}`);
  });

  test("upsert_vectors with `meta` and `name_space`: refused with both names, no record written anywhere", async () => {
    const r = await mcp.call("upsert_vectors", {
      index: "docs",
      name_space: "books",
      vectors: [
        { id: "a", values: [1, 0], meta: { genre: "sf" } },
        { id: "b", values: [0, 1], meta: { genre: "drama" } },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      [
        "Unknown arguments — nothing was written.",
        '- "name_space" — did you mean "namespace"?',
        '- "meta" in vectors[0] (and 1 more like it) — did you mean "metadata"?',
      ].join("\n"),
    );
    expect((await indexStats(svc, host)).totalVectorCount).toBe(0);
  });

  test("maps that hold data take any key: metadata fields, filter fields and operators", async () => {
    const w = await mcp.call("upsert_vectors", {
      index: "docs",
      vectors: [{ id: "a", values: [1, 0], metadata: { dry_run: true, Index: "x", meta: "y" } }],
    });
    expect(w.isError, w.text).toBe(false);
    const q = await mcp.call("query_vectors", { index: "docs", vector: [1, 0], topK: 1, filter: { dry_run: { $eq: true }, $and: [{ meta: "y" }] } });
    expect(q.isError, q.text).toBe(false);
    expect((q.structured as { matches: { id: string; metadata: unknown }[] }).matches).toEqual([
      expect.objectContaining({ id: "a", metadata: { dry_run: true, Index: "x", meta: "y" } }),
    ]);
    await api(svc, "POST", `http://${host}/vectors/delete`, { deleteAll: true });
  });

  test("a metadata field named __proto__ is still refused (zod would drop it)", async () => {
    const r = await mcp.call("upsert_vectors", {
      index: "docs",
      vectors: [{ id: "a", values: [1, 0], metadata: JSON.parse('{"__proto__": 1}') as Record<string, unknown> }],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^upsert_vectors: vectors\[0\]\.metadata has a field named "__proto__"/);
  });
});
