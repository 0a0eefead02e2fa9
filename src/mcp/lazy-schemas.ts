// A tool's schemas as the SDK's registerTool takes them (Standard Schema with JSON Schema), without loading the tool's
// module: the JSON Schemas are the declared ones (tool-catalog.ts, what tools/list shows), and the zod checks are
// made from the module on the tool's first call — the SDK validates the arguments and the structured result with them.
import { z } from "zod";
import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { outputShapeOf, type AnyTool } from "../tool-kit/tool.js";
import type { LazyTool } from "./tool-catalog.js";

/** Each tool's zod objects as the SDK checks with them, made once per process (an HTTP server builds many servers). */
const zodObjects = new WeakMap<AnyTool, { input: z.ZodObject; output: z.ZodObject }>();

async function zodOf(tool: LazyTool): Promise<{ input: z.ZodObject; output: z.ZodObject }> {
  const definition = await tool.load();
  let schemas = zodObjects.get(definition);
  if (!schemas) {
    schemas = { input: z.object(definition.inputSchema), output: z.object(outputShapeOf(definition)) };
    zodObjects.set(definition, schemas);
  }
  return schemas;
}

function lazySchema(tool: LazyTool, which: "input" | "output", json: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "vecdb-mcp",
      validate: async (value: unknown) => {
        const result = await (await zodOf(tool))[which]["~standard"].validate(value);
        // Messages only, as SDK v1 wrote them: the tools' own messages name the field (the SDK would prefix its path).
        return result.issues ? { issues: result.issues.map((i) => ({ message: i.message })) } : result;
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** The inputSchema (and outputSchema, when the tool declares one) for registerTool's config. */
export function lazySchemas(tool: LazyTool): { inputSchema: StandardSchemaWithJSON; outputSchema?: StandardSchemaWithJSON } {
  const { inputSchema, outputSchema } = tool.schemas;
  return {
    inputSchema: lazySchema(tool, "input", inputSchema),
    ...(outputSchema && { outputSchema: lazySchema(tool, "output", outputSchema) }),
  };
}
