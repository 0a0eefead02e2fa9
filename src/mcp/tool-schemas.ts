// The JSON Schemas a model reads in tools/list, made one way for every tool (and for every tool added later):
// the SDK's own zod converter, in the dialect the MCP 2025-11-25 spec names as default (JSON Schema 2020-12), then
// - no "$schema" (2020-12 is the default where it is absent, and it would be repeated in every tool's two schemas);
// - every object with named properties says additionalProperties: false — the server refuses unknown argument keys
//   (strict-args.ts), maps that hold data (z.record: metadata, filters, tags) keep their additionalProperties schema;
// - no noise: zod writes ±9007199254740991 on every .int(), and `propertyNames: {type: "string"}` with
//   `additionalProperties: {}` on every map — JSON says as much.
// The bundle computes them at build time (scripts/tool-schemas.mjs calls toolJsonSchemas below): converting every
// tool costs ~20 ms of each cold start. Without them (the tsc build, tests from source) they are converted on first use.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { normalizeObjectSchema, objectFromShape } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { outputShapeOf, type AnyTool } from "../tool-kit/tool.js";

export type JsonSchema = Record<string, unknown>;

export interface ToolJsonSchemas {
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

/** A converted schema as the model should read it (see the head of this file); returns a new object. */
export function modelFacing(schema: unknown): JsonSchema {
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, false));
    if (node === null || typeof node !== "object") return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (top && key === "$schema") continue;
      if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === SAFE_INTEGER_BOUND) continue;
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

const isPlainString = (s: unknown) => JSON.stringify(s) === '{"type":"string"}';
const isEmptySchema = (s: unknown) => JSON.stringify(s) === "{}";

const EMPTY_OBJECT: JsonSchema = { type: "object", properties: {}, additionalProperties: false };

function convert(shape: unknown, io: "input" | "output"): JsonSchema | undefined {
  // registerTool wraps a raw shape with objectFromShape; the SDK's tools/list normalises and converts it so.
  const obj = normalizeObjectSchema(objectFromShape(shape as never));
  return obj ? modelFacing(toJsonSchemaCompat(obj, { strictUnions: true, pipeStrategy: io, target: "draft-2020-12" })) : undefined;
}

/** Converts one tool's zod schemas (what scripts/tool-schemas.mjs runs at build time). */
export function toolJsonSchemas(tool: Pick<AnyTool, "inputSchema" | "outputSchema">): ToolJsonSchemas {
  const outputSchema = tool.outputSchema ? convert(outputShapeOf(tool), "output") : undefined;
  return { inputSchema: convert(tool.inputSchema, "input") ?? EMPTY_OBJECT, ...(outputSchema && { outputSchema }) };
}

declare const __VECDB_TOOL_SCHEMAS__: string | undefined;

let prebuilt: Record<string, ToolJsonSchemas> | undefined | null = null;
const converted = new WeakMap<AnyTool, ToolJsonSchemas>();

/** The tool's JSON Schemas: from the build when it carries this tool's, else converted once and kept. */
export function schemasOf(tool: AnyTool): ToolJsonSchemas {
  if (prebuilt === null) {
    prebuilt = typeof __VECDB_TOOL_SCHEMAS__ === "string" ? (JSON.parse(__VECDB_TOOL_SCHEMAS__) as Record<string, ToolJsonSchemas>) : undefined;
  }
  const built = prebuilt?.[tool.name];
  if (built) return built;
  let schemas = converted.get(tool);
  if (!schemas) converted.set(tool, (schemas = toolJsonSchemas(tool)));
  return schemas;
}

/** Answers tools/list with schemasOf(tool), in the shape the SDK's own handler gives. */
export function answerToolsList(server: McpServer, offered: readonly AnyTool[]): void {
  let tools: unknown[] | undefined;
  server.server.setRequestHandler(ListToolsRequestSchema, () => {
    tools ??= offered.map((t) => {
      const schemas = schemasOf(t);
      return {
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: schemas.inputSchema,
        annotations: { title: t.title, ...t.annotations },
        execution: { taskSupport: "forbidden" }, // what registerTool records for a plain (non-task) tool
        ...(schemas.outputSchema && { outputSchema: schemas.outputSchema }),
      };
    });
    return { tools };
  });
}
