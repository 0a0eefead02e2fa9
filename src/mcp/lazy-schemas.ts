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

type Issue = { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] };

/** The issues as the SDK v1 worded them ("<message> at <path>", a line each), the text models and tests read. */
function v1Wording(issues: readonly Issue[]): string {
  const where = (path: NonNullable<Issue["path"]>) =>
    path.reduce<string>((at, seg, i) => {
      const key = typeof seg === "object" ? seg.key : seg;
      return i === 0 ? String(key) : typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`;
    }, "");
  return issues.map((i) => (i.path?.length ? `${i.message} at ${where(i.path)}` : i.message)).join("\n");
}

function lazySchema(tool: LazyTool, which: "input" | "output", json: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "vecdb-mcp",
      validate: async (value: unknown) => {
        const result = await (await zodOf(tool))[which]["~standard"].validate(value);
        return result.issues ? { issues: [{ message: v1Wording(result.issues) }] } : result;
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
