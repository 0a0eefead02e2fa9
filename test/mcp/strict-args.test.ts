import { describe, expect, it } from "vitest";
import { z } from "zod";
import { nearestName, nothingDone, unknownArguments, unknownArgumentsText } from "../../src/mcp/strict-args.js";
import { toolJsonSchemas } from "../../src/mcp/tool-schemas.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";

const record = z.object({
  id: z.string().describe("id"),
  values: z.array(z.number()).optional().describe("values"),
  sparseValues: z.object({ indices: z.array(z.number()).describe("i"), values: z.array(z.number()).describe("v") }).optional().describe("s"),
  metadata: z.record(z.string(), z.unknown()).optional().describe("data"),
});
const schema = toolJsonSchemas({
  inputSchema: {
    index: z.string().describe("index"),
    namespace: z.string().optional().describe("ns"),
    vectors: z.array(record).describe("records"),
    filter: z.record(z.string(), z.unknown()).optional().describe("filter"),
    dryRun: z.boolean().optional().describe("check only"),
    paginationToken: z.string().optional().describe("token"),
  },
  outputSchema: { ok: z.boolean().describe("ok") },
}).inputSchema;

describe("nearestName", () => {
  it.each([
    ["dry_run", "dryRun"],
    ["DRYRUN", "dryRun"],
    ["pagination_token", "paginationToken"],
    ["name_space", "namespace"],
    ["sparse_values", "sparseValues"],
    ["meta", "metadata"],
    ["namspace", "namespace"],
    ["indx", "index"],
  ])("%s → %s", (key, expected) => {
    expect(nearestName(key, ["index", "namespace", "dryRun", "paginationToken", "sparseValues", "metadata"])).toBe(expected);
  });
  it("suggests nothing when no name is close", () => {
    expect(nearestName("records", ["index", "namespace", "vectors"])).toBeUndefined();
    expect(nearestName("x", ["index", "namespace"])).toBeUndefined();
    expect(nearestName("", ["index"])).toBeUndefined();
  });
});

describe("unknownArguments", () => {
  it("finds unknown keys at the top level and inside records, grouped by place, and not inside data maps", () => {
    const args = {
      index: "docs",
      dry_run: true,
      vectors: [
        { id: "a", meta: { x: 1 }, metadata: { anything: 1, dry_run: 2 } },
        { id: "b", meta: {}, sparseValues: { indices: [1], values: [1], weights: [2] } },
        { id: "c", meta: {} },
      ],
      filter: { whatever: { $eq: 1 }, $and: [{ more: 1 }] },
    };
    const found = unknownArguments(schema, args);
    expect(found).toEqual([
      { key: "dry_run", at: "", suggestion: "dryRun", valid: ["index", "namespace", "vectors", "filter", "dryRun", "paginationToken"], more: 0 },
      { key: "meta", at: "vectors[0]", suggestion: "metadata", valid: ["id", "values", "sparseValues", "metadata"], more: 2 },
      { key: "weights", at: "vectors[1].sparseValues", valid: ["indices", "values"], more: 0 },
    ]);
  });
  it("finds nothing in well-formed arguments, and leaves wrong types to the schema check", () => {
    expect(unknownArguments(schema, { index: "d", vectors: [{ id: "a", values: [1, 2], metadata: { k: "v" } }], filter: { a: 1 } })).toEqual([]);
    expect(unknownArguments(schema, { index: 3, vectors: "not a list" })).toEqual([]);
    expect(unknownArguments(schema, { vectors: [1, null, "x"] })).toEqual([]);
  });
  it("refuses every key of a tool that takes none", () => {
    const none = toolJsonSchemas({ inputSchema: {}, outputSchema: {} }).inputSchema;
    expect(unknownArguments(none, { limit: 5 })).toEqual([{ key: "limit", at: "", valid: [], more: 0 }]);
  });
});

describe("the refusal text", () => {
  it("reads as the issue asks, for one key and for several", () => {
    const write = nothingDone({ annotations: { readOnlyHint: false } });
    expect(unknownArgumentsText(unknownArguments(schema, { index: "d", dry_run: true }), "import_vectors", write)).toBe(
      `Unknown argument "dry_run" — did you mean "dryRun"? ${nothingWas("written")}`,
    );
    expect(unknownArgumentsText(unknownArguments(schema, { records: [] }), "upsert_vectors", write)).toBe(
      `Unknown argument "records" — upsert_vectors takes "index", "namespace", "vectors", "filter", "dryRun", "paginationToken". ${nothingWas("written")}`,
    );
    const read = nothingDone({ annotations: { readOnlyHint: true } });
    expect(unknownArgumentsText(unknownArguments(schema, { top_k: 3, vectors: [{ id: "a", meta: 1 }, { id: "b", meta: 2 }] }), "query_vectors", read)).toBe(
      [
        "Unknown arguments — nothing was read.",
        '- "top_k" — query_vectors takes "index", "namespace", "vectors", "filter", "dryRun", "paginationToken".',
        '- "meta" in vectors[0] (and 1 more like it) — did you mean "metadata"?',
      ].join("\n"),
    );
    expect(nothingDone({ annotations: { readOnlyHint: false }, requiresAllowDestructive: true })).toBe(`${nothingWas("deleted")}`);
  });
});

describe("the schemas the model sees", () => {
  it("close every object with named properties, keep maps open, carry no $schema and no noise bounds", () => {
    const converted = toolJsonSchemas({
      inputSchema: { n: z.number().int().describe("n"), tags: z.record(z.string(), z.string()).describe("tags"), nested: z.object({ a: z.string().describe("a") }).describe("o") },
      outputSchema: { count: z.number().int().describe("c") },
    });
    expect(converted.inputSchema).toEqual({
      type: "object",
      properties: {
        n: { type: "integer", description: "n" },
        tags: { type: "object", additionalProperties: { type: "string" }, description: "tags" },
        nested: { type: "object", properties: { a: { type: "string", description: "a" } }, required: ["a"], additionalProperties: false, description: "o" },
      },
      required: ["n", "tags", "nested"],
      additionalProperties: false,
    });
    expect(converted.outputSchema).toEqual({
      type: "object",
      properties: { count: { type: "integer", description: "c" }, note: { type: "string", description: expect.stringMatching(/^What to do next/) } },
      required: ["count"],
      additionalProperties: false,
    });
  });
});
