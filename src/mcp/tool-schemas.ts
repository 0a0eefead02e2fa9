// tools/list from JSON Schemas computed at build time. Converting every tool's zod schemas to JSON Schema costs ~20 ms
// of each cold start (a desktop client starts the server on every launch), and the schemas never change between
// builds: scripts/bundle.mjs computes them with the SDK's own converter and inlines them. Without them (the tsc
// build, tests run from source) the SDK converts as usual.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AnyTool } from "../tool-kit/tool.js";

export interface ToolJsonSchemas {
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

declare const __VECDB_TOOL_SCHEMAS__: string | undefined;

function prebuilt(): Record<string, ToolJsonSchemas> | undefined {
  return typeof __VECDB_TOOL_SCHEMAS__ === "string" ? (JSON.parse(__VECDB_TOOL_SCHEMAS__) as Record<string, ToolJsonSchemas>) : undefined;
}

/** Answers tools/list from the build's schemas, in the SDK's shape; leaves the SDK's handler when any is missing. */
export function answerToolsListFromBuild(server: McpServer, offered: readonly AnyTool[]): void {
  const schemas = prebuilt();
  if (!schemas || offered.some((t) => !schemas[t.name])) return;
  const tools = offered.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: schemas[t.name].inputSchema,
    annotations: { title: t.title, ...t.annotations },
    execution: { taskSupport: "forbidden" }, // what registerTool records for a plain (non-task) tool
    ...(schemas[t.name].outputSchema && { outputSchema: schemas[t.name].outputSchema }),
  }));
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
}
