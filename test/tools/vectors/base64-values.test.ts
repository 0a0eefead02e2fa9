// Vectors as base64 of little-endian float32, end to end: upsert_vectors' valuesBase64 (dense and sparse),
// query_vectors' vectorBase64, valuesFormat "base64" in fetch_vectors and query_vectors, import_vectors' JSONL lines —
// the built server over stdio, checked on the local service itself.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { createIndex, fetchVectors, indexStats, randomVector, serverless } from "../../e2e/support.js";
import { float32Double } from "../../../src/common/float32.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

const DIM = 6;
let svc: RunningService;
let mcp: McpSession;
let host = "";
let hybridHost = "";
let dir = "";

/** What a client holding float32 embeddings sends (numpy `.astype("<f4").tobytes()`, `encoding_format: "base64"`). */
function b64(values: number[]): string {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return Buffer.from(view.buffer).toString("base64");
}
const vec = (seed: number) => randomVector(DIM, seed).map((x) => x * 0.123456789123);
const f32 = (values: number[]) => values.map(float32Double); // the shortest decimal of each float32, as the service returns it

beforeAll(async () => {
  svc = await startServiceProcess();
  host = (await createIndex(svc, { name: "emb", dimension: DIM, metric: "cosine", spec: serverless })).host;
  hybridHost = (await createIndex(svc, { name: "hybrid", dimension: DIM, metric: "dotproduct", spec: serverless })).host;
  dir = mkdtempSync(join(tmpdir(), "vecdb-compact-"));
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", dir] });
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("tools/list", () => {
  it("states the base64 fields beside the number fields, with no unions (their length is checked, not listed)", () => {
    const input = (name: string) => mcp.tools.find((t) => t.name === name)!.inputSchema as any;
    const record = input("upsert_vectors").properties.vectors.items;
    expect(record.required).toEqual(["id"]);
    expect(record.properties.valuesBase64).toEqual({ type: "string", description: expect.stringContaining("base64 of little-endian float32") });
    expect(record.properties.sparseValues.properties.valuesBase64).toEqual({ type: "string", description: "Base64 of little-endian float32." });
    expect(record.properties.sparseValues.required).toEqual(["indices"]);
    expect(input("query_vectors").properties.vectorBase64).toEqual({ type: "string", description: expect.stringContaining("base64 of little-endian float32") });
    for (const name of ["query_vectors", "fetch_vectors"]) expect(input(name).properties.valuesFormat).toMatchObject({ type: "string", enum: ["numbers", "base64"] });
    expect(JSON.stringify(mcp.tools)).not.toMatch(/anyOf|oneOf|allOf/);
  });
});

describe("upsert_vectors with valuesBase64", () => {
  it("writes the float32 values exactly, next to records given as numbers in the same call", async () => {
    const r = await mcp.call("upsert_vectors", {
      index: "emb",
      namespace: "b64",
      vectors: [
        { id: "a", valuesBase64: b64(vec(1)), metadata: { kind: "base64" } },
        { id: "b", values: vec(2) },
        { id: "c", valuesBase64: b64(vec(3)).replace(/=+$/, "") }, // padding is optional
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ records: 3, upserted: 3, failed: 0 });
    const got = await fetchVectors(svc, host, ["a", "b", "c"], "b64");
    expect(got.a.values).toEqual(f32(vec(1)));
    expect(got.a.metadata).toEqual({ kind: "base64" });
    expect(got.b.values).toEqual(f32(vec(2)));
    expect(got.c.values).toEqual(f32(vec(3)));
  });

  it("sparse values as sparseValues.valuesBase64 (indices stay integers)", async () => {
    const r = await mcp.call("upsert_vectors", {
      index: "hybrid",
      vectors: [{ id: "h", valuesBase64: b64(vec(4)), sparseValues: { indices: [3, 4294967295], valuesBase64: b64([0.1, 2.5]) } }],
    });
    expect(r.isError).toBe(false);
    const got = await fetchVectors(svc, hybridHost, ["h"]);
    expect(got.h.values).toEqual(f32(vec(4)));
    expect(got.h.sparseValues).toEqual({ indices: [3, 4294967295], values: f32([0.1, 2.5]) });
  });

  const refusals: [string, Record<string, unknown>[], string][] = [
    ["values and valuesBase64 both", [{ id: "x", values: vec(1), valuesBase64: b64(vec(1)) }], '- position 0 (id "x"): valuesBase64 is given together with values; give one of them'],
    [
      "a character outside base64",
      [{ id: "ok", valuesBase64: b64(vec(1)) }, { id: "x", valuesBase64: `${b64(vec(1)).slice(0, 10)}-${b64(vec(1)).slice(11)}` }],
      '- position 1 (id "x"): valuesBase64 is not base64: character 11 is "-" (URL-safe base64); base64 here uses A–Z, a–z, 0–9, + and /, with at most two = at the end',
    ],
    ["bytes that are not whole float32 values", [{ id: "x", valuesBase64: Buffer.alloc(22).toString("base64") }], '- position 0 (id "x"): valuesBase64 decodes to 22 bytes, not a whole number of float32 values (4 bytes each, little-endian)'],
    ["the wrong dimension", [{ id: "x", valuesBase64: b64(vec(1).slice(1)) }], `- position 0 (id "x"): valuesBase64 decodes to 5 float32 values (20 bytes) but index 'emb' has dimension 6 (24 bytes)`],
    ["NaN inside", [{ id: "x", valuesBase64: b64([1, 2, NaN, 4, 5, 6]) }], '- position 0 (id "x"): valuesBase64[2] is NaN; every value must be a finite number'],
    ["infinity inside", [{ id: "x", valuesBase64: b64([1, 2, 3, 4, 5, Infinity]) }], '- position 0 (id "x"): valuesBase64[5] is Infinity; every value must be a finite number'],
    ["sparse valuesBase64 of another length than its indices", [{ id: "x", values: vec(1), sparseValues: { indices: [1, 2], valuesBase64: b64([1]) } }], '- position 0 (id "x"): sparseValues has 2 indices but valuesBase64 decodes to 1 values; they must be the same length'],
    [
      "a string longer than 20,000 float32 values, refused by its length alone",
      [{ id: "x", valuesBase64: "A".repeat(5_000_000) }],
      `record at position 0, valuesBase64: 5000000 characters given; valuesBase64 is base64 of at most 20000 float32 values (106668 characters). ${nothingWas("written")}`,
    ],
  ];
  it.each(refusals)("refuses %s, naming position, id and rule, and writes nothing", async (_name, vectors, message) => {
    const index = (vectors[0].sparseValues ? "hybrid" : "emb") as string;
    const before = await indexStats(svc, index === "emb" ? host : hybridHost);
    const r = await mcp.call("upsert_vectors", { index, namespace: "refused", vectors });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
    expect(await indexStats(svc, index === "emb" ? host : hybridHost)).toEqual(before);
  });
});

describe("query_vectors and fetch_vectors in base64", () => {
  beforeAll(async () => {
    const vectors = Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, values: vec(10 + i), metadata: { i } }));
    await mcp.call("upsert_vectors", { index: "emb", namespace: "q", vectors });
    await mcp.call("upsert_vectors", { index: "hybrid", namespace: "q", vectors: [{ id: "s", values: vec(20), sparseValues: { indices: [5, 9], values: [0.5, 0.125] } }] });
  });

  it("vectorBase64 finds what vector finds", async () => {
    const byNumbers = await mcp.call("query_vectors", { index: "emb", namespace: "q", vector: vec(12), topK: 3 });
    const byBase64 = await mcp.call("query_vectors", { index: "emb", namespace: "q", vectorBase64: b64(vec(12)), topK: 3 });
    expect(byBase64.isError).toBe(false);
    expect((byBase64.structured as { matches: { id: string }[] }).matches.map((m) => m.id)).toEqual(
      (byNumbers.structured as { matches: { id: string }[] }).matches.map((m) => m.id),
    );
    expect(byBase64.text).toBe(byNumbers.text);
  });

  it("refuses vector and vectorBase64 together, and base64 that is not whole float32 values", async () => {
    const both = await mcp.call("query_vectors", { index: "emb", namespace: "q", vector: vec(1), vectorBase64: b64(vec(1)), topK: 1 });
    expect(both.isError).toBe(true);
    expect(both.text).toBe(`Give vector or vectorBase64, not both. ${nothingWas("read")}`);
    const bad = await mcp.call("query_vectors", { index: "emb", namespace: "q", vectorBase64: "AAAAAAA", topK: 1 });
    expect(bad.text).toBe(`vectorBase64 decodes to 5 bytes, not a whole number of float32 values (4 bytes each, little-endian). ${nothingWas("read")}`);
    const nan = await mcp.call("query_vectors", { index: "emb", namespace: "q", vectorBase64: b64([1, NaN, 0, 0, 0, 0]), topK: 1 });
    expect(nan.text).toBe(`vectorBase64[1] is NaN; every value must be a finite number. ${nothingWas("read")}`);
    const short = await mcp.call("query_vectors", { index: "emb", namespace: "q", vectorBase64: b64([1, 2]), topK: 1 });
    expect(short.text).toContain(`The query vector has 2 values, but index "emb" has dimension 6. ${nothingWas("read")}`);
  });

  it('valuesFormat "base64": matches and fetched records carry valuesBase64, which upserts back to the same values', async () => {
    const q = await mcp.call("query_vectors", { index: "emb", namespace: "q", id: "q1", topK: 1, includeValues: true, valuesFormat: "base64" });
    const match = (q.structured as { matches: Record<string, unknown>[] }).matches[0];
    expect(match).toMatchObject({ id: "q1", valuesBase64: b64(vec(11)) });
    expect(match.values).toBeUndefined();

    const f = await mcp.call("fetch_vectors", { index: "hybrid", namespace: "q", ids: ["s"], includeValues: true, valuesFormat: "base64" });
    const { dimension, ...record } = (f.structured as { vectors: Record<string, unknown>[] }).vectors[0];
    expect(dimension).toBe(6);
    expect(record).toEqual({ id: "s", valuesBase64: b64(vec(20)), sparseValues: { indices: [5, 9], valuesBase64: b64([0.5, 0.125]) } });
    expect(f.text).toMatch(/^1 of 1 record found/);

    const again = await mcp.call("upsert_vectors", { index: "hybrid", namespace: "q", vectors: [{ ...record, id: "s-copy" }] });
    expect(again.isError).toBe(false);
    const got = await fetchVectors(svc, hybridHost, ["s", "s-copy"], "q");
    expect(got["s-copy"].values).toEqual(got.s.values);
    expect(got["s-copy"].sparseValues).toEqual(got.s.sparseValues);

    const numbers = await mcp.call("fetch_vectors", { index: "hybrid", namespace: "q", ids: ["s"], includeValues: true });
    expect((numbers.structured as { vectors: Record<string, unknown>[] }).vectors[0].values).toEqual(f32(vec(20)));
  });
});

describe("import_vectors: JSONL lines with valuesBase64", () => {
  it("writes them, mixed with lines of numbers", async () => {
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify(i % 2 ? { id: `j${i}`, valuesBase64: b64(vec(100 + i)), metadata: { i } } : { id: `j${i}`, values: vec(100 + i) }),
    );
    writeFileSync(join(dir, "b64.jsonl"), `${lines.join("\n")}\n`);
    const r = await mcp.call("import_vectors", { index: "emb", namespace: "imp", path: join(dir, "b64.jsonl") });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ records: 30, upserted: 30, failed: 0 });
    const got = await fetchVectors(svc, host, ["j0", "j1", "j29"], "imp");
    expect(got.j1.values).toEqual(f32(vec(101)));
    expect(got.j1.metadata).toEqual({ i: 1 });
    expect(got.j29.values).toEqual(f32(vec(129)));
  });

  it("a bad line is reported with its line number, id and rule, and nothing is written", async () => {
    const lines = [
      JSON.stringify({ id: "k1", valuesBase64: b64(vec(1)) }),
      JSON.stringify({ id: "k2", valuesBase64: b64(vec(2).slice(2)) }),
      JSON.stringify({ id: "k3", valuesBase64: "AAAA!AAA" }),
      JSON.stringify({ id: "k4", values: vec(4), valuesBase64: b64(vec(4)) }),
      JSON.stringify({ id: "k5", valuesBase64: b64([0, 0, 0, Infinity, 0, 0]) }),
    ];
    writeFileSync(join(dir, "bad.jsonl"), `${lines.join("\n")}\n`);
    const r = await mcp.call("import_vectors", { index: "emb", namespace: "bad", path: join(dir, "bad.jsonl") });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`- line 2 (id "k2"): valuesBase64 decodes to 4 float32 values (16 bytes) but index 'emb' has dimension 6 (24 bytes)`);
    expect(r.text).toContain(`- line 3 (id "k3"): "valuesBase64" is not base64: character 5 is "!"`);
    expect(r.text).toContain(`- line 4 (id "k4"): give "values" or "valuesBase64", not both`);
    expect(r.text).toContain(`- line 5 (id "k5"): valuesBase64[3] is Infinity; every value must be a finite number`);
    expect((await indexStats(svc, host)).namespaces.bad).toBeUndefined();
  });
});
