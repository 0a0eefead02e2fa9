// The JSON Schemas a model reads in tools/list, made one way for every tool (and for every tool added later):
// the SDK's own zod converter, in the dialect the MCP 2025-11-25 spec names as default (JSON Schema 2020-12), then
// - no "$schema" (2020-12 is the default where it is absent, and it would be repeated in every tool's two schemas);
// - every object with named properties says additionalProperties: false — the server refuses unknown argument keys
//   (strict-args.ts), maps that hold data (z.record: metadata, filters, tags) keep their additionalProperties schema;
// - no noise: zod writes ±9007199254740991 on every .int(), and `propertyNames: {type: "string"}` with
//   `additionalProperties: {}` on every map — JSON says as much; nor `minLength: 1` on every name and id (an empty
//   one is still refused, with a message naming the field; the list is read by the model on every turn), nor
//   `minItems: 1` / `minItems: 0` on lists, nor the 2^32 - 1 bound of sparse indices, nor a string's maxLength (caps
//   on names, ids, paths and texts that an ordinary value does not reach; a new index's name keeps its pattern): each
//   is still checked, and a call that breaks one is refused with the field and the rule; nor the length cap of a
//   list of numbers (a vector: its length is the index's dimension).
// Not on the bundle's startup path: the build runs it once (scripts/tool-catalog.mjs calls declareTool below) and the
// bundle carries the result (tool-catalog.ts); converting every tool would cost ~20 ms of each cold start. Without
// it (the tsc build, tests from source) tool-catalog.ts loads this module and converts every tool once.
import { z } from "zod";
import { outputShapeOf, type AnyTool } from "../tool-kit/tool.js";

export type JsonSchema = Record<string, unknown>;

export interface ToolJsonSchemas {
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

/**
 * What a tool declares besides its zod schemas and its run: all that tools/list, the safe modes (access.ts) and the
 * strict argument check (strict-args.ts) need, with its schemas as the JSON Schemas tools/list shows. Plain JSON,
 * so that the build can write it for the bundle (tool-catalog.ts).
 */
export type ToolDeclaration = Omit<AnyTool, "run" | "inputSchema" | "outputSchema"> & { schemas: ToolJsonSchemas };

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;
const UINT32_MAX = 4294967295;

/** A converted schema as the model should read it (see the head of this file); returns a new object. */
function modelFacing(schema: unknown): JsonSchema {
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, false));
    if (node === null || typeof node !== "object") return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (top && key === "$schema") continue;
      if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === SAFE_INTEGER_BOUND) continue;
      if (key === "minLength" && value === 1) continue;
      if (key === "minItems" && (value === 0 || value === 1)) continue;
      if (key === "maximum" && value === UINT32_MAX) continue;
      if (key === "maxLength") continue;
      if (key === "maxItems" && isNumberList(node)) continue;
      // Keywords whose value is a map of names to schemas: the names are data, the values schemas.
      if (key === "properties" || key === "$defs") {
        out[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, walk(v, false)]));
      } else {
        out[key] = walk(value, false);
      }
    }
    if (out.type === "object" && out.properties !== undefined && out.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
    // A map's `propertyNames: {type: "string"}` and `additionalProperties: {}` say what JSON says anyway.
    if (out.type === "object" && out.properties === undefined) {
      if (isPlainString(out.propertyNames)) delete out.propertyNames;
      if (isEmptySchema(out.additionalProperties)) delete out.additionalProperties;
    }
    return out;
  };
  return walk(schema, true) as JsonSchema;
}

const isNumberList = (s: object) => "items" in s && ["number", "integer"].includes((s.items as JsonSchema)?.type as string);
const isPlainString = (s: unknown) => JSON.stringify(s) === '{"type":"string"}';
const isEmptySchema = (s: unknown) => JSON.stringify(s) === "{}";


function convert(shape: z.ZodRawShape, io: "input" | "output"): JsonSchema {
  // As the SDK converts a raw shape registerTool is given: wrapped in an object, zod's own converter.
  return modelFacing(z.toJSONSchema(z.object(shape), { target: "draft-2020-12", io }));
}

/** Converts one tool's zod schemas. */
export function toolJsonSchemas(tool: Pick<AnyTool, "inputSchema" | "outputSchema">): ToolJsonSchemas {
  const outputSchema = tool.outputSchema ? convert(outputShapeOf(tool), "output") : undefined;
  return { inputSchema: convert(tool.inputSchema, "input"), ...(outputSchema && { outputSchema }) };
}

/** A tool's declaration: every field of its definition but run and the zod schemas, which become JSON Schemas. */
export function declareTool(tool: AnyTool): ToolDeclaration {
  const { run: _run, inputSchema: _input, outputSchema: _output, ...facts } = tool;
  return { ...facts, schemas: toolJsonSchemas(tool) };
}
