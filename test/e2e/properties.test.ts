// Property-based tests over every tool's arguments (fast-check), against one built server over stdio and the local
// service. For each tool that tools/list shows: random and malformed arguments, shaped after the tool's own input
// schema or not at all. Every call answers within a bounded time with a result that matches the outputSchema or an
// isError whose text names the problem; a rejected call of a tool that writes leaves the service as it was; the
// server keeps answering.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CallToolResultSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkFile } from "../../src/ingest/file-check.js";
import { hashId } from "../../src/ingest/id-hashes.js";
import { openSource } from "../../src/ingest/sources/index.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { api, createIndex, indexStats, serverless } from "./support.js";

const RUNS = 100;
const ANSWER_WITHIN_MS = 10_000;
let svc: RunningService;
let host = "";
let mcp: McpSession;
let dir: string;

beforeAll(async () => {
  svc = await startServiceProcess();
  host = (await createIndex(svc, { name: "prop", dimension: 4, spec: serverless })).host;
  dir = mkdtempSync(join(tmpdir(), "vecdb-props-"));
  const line = (id: string, values: unknown) => JSON.stringify({ id, values });
  writeFileSync(join(dir, "good.jsonl"), [line("g1", [1, 2, 3, 4]), line("g2", [0.5, 0.5, 0.5, 0.5])].join("\n"));
  // the first records are fine, the last is not: a rejected import must not have written the first ones
  writeFileSync(join(dir, "bad.jsonl"), [line("b1", [1, 2, 3, 4]), line("b2", [1, 2, 3, 4]), line("b3", [1, 2])].join("\n"));
  mcp = await startMcp({
    env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl },
    args: ["--allow-dir", dir, "--timeout-ms", "5000"],
  });
});

afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Schema = { type?: string | string[]; enum?: unknown[]; items?: Schema; properties?: Record<string, Schema> };

const STRINGS = ["prop", "good.jsonl", "bad.jsonl", "", " ", "../etc/passwd", "/etc/passwd", "nope", "a".repeat(600), "\u0000", "💥", "x|y\n`z`"];
const NUMBERS = [0, -1, 1, 4, 100, 10_001, 2 ** 31, Number.MAX_SAFE_INTEGER, 0.5, -0.0];

const unit = fc.double({ min: -1, max: 1, noNaN: true });
/**
 * Plausible values for fields named like this (key, or parent.key) in any tool, so that a good share of the calls
 * gets past validation to the service and the checks there.
 */
const HINTS: Record<string, () => fc.Arbitrary<unknown>> = {
  index: () => fc.constantFrom("prop", "prop", "prop", "nope", "Bad_Name"),
  name: () => fc.constantFrom("prop", "col-1", "nope"),
  collection: () => fc.constantFrom("col-1", "nope"),
  namespace: () => fc.constantFrom("", "ns1", "ns2"),
  path: () => fc.constantFrom("good.jsonl", "good.jsonl", "bad.jsonl", join(dir, "good.jsonl"), "../x.jsonl", dir, "missing.jsonl", "/etc/passwd"),
  id: () => fc.constantFrom("a", "b", "g1", "b1"),
  format: () => fc.constantFrom("jsonl", "parquet"),
  startAt: () => fc.constantFrom(1, 2, 3),
  topK: () => fc.constantFrom(1, 3),
  limit: () => fc.constantFrom(1, 10),
  ids: () => fc.array(fc.constantFrom("a", "b", "g1", "b1"), { minLength: 1, maxLength: 3 }),
  values: () => fc.array(unit, { minLength: 4, maxLength: 4 }),
  vector: () => fc.array(unit, { minLength: 4, maxLength: 4 }),
  sparseValues: () => fc.constant(undefined), // left out (index "prop" is dense)
  "sparseValues.indices": () => fc.constantFrom([], [1, 2], [3]),
  "sparseValues.values": () => fc.constantFrom([], [0.5, 0.25], [1]),
  "sparseVector.indices": () => fc.constantFrom([], [1, 2], [3]),
  "sparseVector.values": () => fc.constantFrom([], [0.5, 0.25], [1]),
  metadata: () => fc.dictionary(fc.constantFrom("genre", "year", "tags", ""), fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })), { maxKeys: 3 }),
};

/** Values shaped after a JSON Schema (and the field's name) most of the time, anything at all otherwise. */
function arb(schema: Schema | undefined, key = "", parent = "", depth = 0): fc.Arbitrary<unknown> {
  const wild = fc.anything({ maxDepth: 2, maxKeys: 4 });
  if (!schema || depth > 3) return wild;
  let typed: fc.Arbitrary<unknown>;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) typed = fc.oneof(fc.constantFrom(...schema.enum), fc.string({ maxLength: 8 }));
  else if (type === "string") typed = fc.oneof(fc.constantFrom(...STRINGS), fc.string({ maxLength: 24 }));
  else if (type === "number" || type === "integer") typed = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer({ min: -5, max: 300 }), fc.double());
  else if (type === "boolean") typed = fc.boolean();
  else if (type === "array") typed = fc.array(arb(schema.items, `${key}[]`, parent, depth + 1), { maxLength: 4 });
  else if (type === "object" && schema.properties) {
    const fields = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, arb(s, k, key, depth + 1)]));
    typed = fc.record(fields, { requiredKeys: (schema as { required?: string[] }).required ?? [] });
  } else typed = wild;
  const hint = HINTS[`${parent}.${key}`] ?? HINTS[key];
  const shaped = hint ? fc.oneof({ weight: 3, arbitrary: hint() }, { weight: 1, arbitrary: typed }) : typed;
  return fc.oneof({ weight: depth === 0 ? 8 : 20, arbitrary: shaped }, { weight: 1, arbitrary: wild });
}

/** Arguments for a tool: its own fields (required ones mostly given), sometimes a field it does not have. */
function argsFor(tool: Tool): fc.Arbitrary<Record<string, unknown>> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
  const fields = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, arb(s, k)]));
  const required = (tool.inputSchema.required ?? []).filter((k) => k in props);
  const own = fc.oneof({ weight: 4, arbitrary: fc.record(fields, { requiredKeys: required }) }, { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) });
  return fc
    .tuple(own, fc.option(fc.tuple(fc.string({ maxLength: 10 }), fc.anything({ maxDepth: 1 })), { freq: 4 }))
    .map(([args, extra]) => (extra ? { [extra[0]]: extra[1], ...args } : args));
}

/** What a rejected call must not have changed: the records of index "prop", the indexes and the collections. */
async function snapshot(): Promise<string> {
  const stats = await indexStats(svc, host);
  const indexes = (await api(svc, "GET", "/indexes")).body?.indexes?.map((i: { name: string }) => i.name).sort();
  const collections = (await api(svc, "GET", "/collections")).body?.collections?.map((c: { name: string }) => c.name).sort();
  return JSON.stringify({ namespaces: stats.namespaces, total: stats.totalVectorCount, indexes, collections });
}

async function callWithin(name: string, args: unknown) {
  const started = Date.now();
  const result = await mcp.call(name, args as Record<string, unknown>, { timeoutMs: ANSWER_WITHIN_MS });
  return { ...result, ms: Date.now() - started };
}

function expectNamesTheProblem(tool: string, args: unknown, text: string) {
  const context = `${tool}(${JSON.stringify(args)}) → ${text}`;
  expect(text.trim().length, context).toBeGreaterThan(10);
  expect(text, context).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  expect(text, context).not.toMatch(/internal error/i);
}

it("every tool: random and malformed arguments get a bounded, well-formed answer and write nothing when rejected", { timeout: 240_000 }, async () => {
  expect(mcp.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_indexes", "list_collections", "create_collection", "upsert_vectors", "import_vectors"]));
  for (const tool of mcp.tools) {
    const writes = tool.annotations?.readOnlyHint !== true;
    await fc.assert(
      fc.asyncProperty(argsFor(tool), async (args) => {
        const before = writes ? await snapshot() : "";
        const r = await callWithin(tool.name, args); // mcp.call checks structuredContent against the outputSchema
        expect(r.ms).toBeLessThan(ANSWER_WITHIN_MS);
        if (r.isError) {
          expectNamesTheProblem(tool.name, args, r.text);
          if (writes) expect(await snapshot(), `${tool.name}(${JSON.stringify(args)}) → ${r.text}`).toBe(before);
        } else {
          expect(r.structured, tool.name).toBeDefined();
        }
      }),
      { numRuns: RUNS, seed: 20261121, endOnFailure: true },
    );
  }
  // still answering
  expect((await mcp.call("list_indexes")).isError).toBe(false);
});

it("arguments that are not an object at all: a protocol error or an isError, and the server answers the next call", { timeout: 60_000 }, async () => {
  const names = mcp.tools.map((t) => t.name);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...names), fc.oneof(fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }), fc.string(), fc.integer(), fc.constant(null)), async (name, junk) => {
      const before = await snapshot();
      let answered = false;
      try {
        const r = await mcp.client.request({ method: "tools/call", params: { name, arguments: junk as never } }, CallToolResultSchema, { timeout: ANSWER_WITHIN_MS });
        expect(r.isError, JSON.stringify(r)).toBe(true);
        answered = true;
      } catch (err) {
        // the SDK's answer to params that do not fit the protocol: a JSON-RPC error naming them
        expect(String(err)).toMatch(/MCP error -32602|Invalid/i);
        answered = true;
      }
      expect(answered).toBe(true);
      expect(await snapshot()).toBe(before);
    }),
    { numRuns: 30, seed: 7 },
  );
  expect((await mcp.call("list_indexes")).isError).toBe(false);
});

it("duplicate ids in a file: exactly the real repeats are reported, each naming its first line, whatever the hash collides", { timeout: 60_000 }, async () => {
  // the 64-bit hash, and hashes so weak that most or all ids share one: a shared hash must never be taken for a repeat
  const hashes: Record<string, (id: string) => [number, number]> = {
    real: hashId,
    length: (id) => [0, id.length],
    constant: () => [0, 0],
  };
  const model = { name: "prop", dimension: 1, metric: "cosine", host: "h", status: { ready: true, state: "Ready" } } as never;
  const file = join(dir, "ids.jsonl");
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(fc.constantFrom("a", "b", "ab", "ba", "c"), fc.string({ minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 60 }),
      fc.constantFrom(...Object.keys(hashes)),
      async (ids, hashName) => {
        writeFileSync(file, ids.map((id) => JSON.stringify({ id, values: [1] })).join("\n"));
        const expected: { position: number; id: string; problem: string }[] = [];
        const first = new Map<string, number>();
        ids.forEach((id, i) => {
          const seen = first.get(id);
          if (seen === undefined) first.set(id, i + 1);
          else expected.push({ position: i + 1, id, problem: `id repeats the id of line ${seen}; each id may appear once in the file` });
        });
        const source = await openSource(file, "jsonl");
        try {
          const got = await checkFile(source, model, { unit: "line", maxShown: 1000, hash: hashes[hashName] });
          expect(got.records).toBe(ids.length);
          expect(got.bad).toBe(expected.length);
          expect(got.shown).toEqual(expected);
        } finally {
          await source.close();
        }
      },
    ),
    { numRuns: 150, seed: 99 },
  );
});
