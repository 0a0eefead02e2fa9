// What a tools/call meets before the SDK's own handler (see guardToolCalls), and a tool's zod schemas handed to the
// SDK on its first call.
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { objectFromShape, type AnySchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { CallToolRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../log.js";
import { outputShapeOf, type AnyTool } from "../tool-kit/tool.js";
import { protoKeyPath } from "./dropped-keys.js";
import { requestHandlers } from "./sdk-internals.js";
import { nothingDone, unknownArguments, unknownArgumentsText } from "./strict-args.js";
import type { LazyTool } from "./tool-catalog.js";

/**
 * Answers, before the SDK's own tools/call handler, the calls it would get wrong: a tool the safe modes took away
 * (the SDK alone would answer "Tool … not found") gets why; an argument key the tool does not know, at any depth
 * (zod would drop it in silence and the call would succeed without it, see strict-args.ts), is refused with the
 * nearest valid name; a key named "__proto__" (which zod would drop too, see dropped-keys.ts) is refused, naming
 * where. Nothing runs in any of these cases. Otherwise the tool's module is loaded (on its first call) and its zod
 * schemas handed to the SDK, which checks the arguments and the result with them. The SDK offers no public hook
 * there, so this wraps it.
 */
export function guardToolCalls(
  server: McpServer,
  hidden: ReadonlyMap<string, string>,
  offered: readonly LazyTool[],
  registered: ReadonlyMap<string, RegisteredTool>,
  log: Logger,
): void {
  const sdkHandler = requestHandlers(server)?.get("tools/call");
  if (!sdkHandler) return; // no tool registered at all: the SDK refuses every call by itself
  const byName = new Map(offered.map((t) => [t.name, t]));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    const refusal = hidden.get(name) ?? argumentRefusal(tool, args) ?? (tool && (await withSchemas(tool, registered.get(name)!, log)));
    if (refusal === undefined) return (await sdkHandler(request, extra)) as CallToolResult;
    log.info(`${name} → refused: ${refusal.split("\n")[0]}`);
    return { content: [{ type: "text", text: refusal }], isError: true };
  });
}

/** Each tool's zod schemas as the SDK checks with them, made once per process (an HTTP server has many sessions). */
const zodObjects = new WeakMap<AnyTool, { inputSchema: AnySchema; outputSchema: AnySchema }>();

/**
 * Gives the SDK's record of `tool` the zod schemas of its module (loaded now if this is its first call), as
 * registerTool would have made them from the module; undefined, or why the call cannot go on when the module fails to load.
 */
async function withSchemas(tool: LazyTool, record: RegisteredTool, log: Logger): Promise<string | undefined> {
  if (record.inputSchema) return undefined;
  let definition: AnyTool;
  try {
    definition = await tool.load();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.error(`${tool.name}: its module did not load: ${reason}`);
    return `${tool.name} could not be loaded (${reason}). ${nothingDone(tool)}\nNext step: tell the user; the server's installation may be damaged (reinstall it).`;
  }
  let schemas = zodObjects.get(definition);
  if (!schemas) {
    schemas = { inputSchema: objectFromShape(definition.inputSchema), outputSchema: objectFromShape(outputShapeOf(definition)) };
    zodObjects.set(definition, schemas);
  }
  // Fields of the SDK's public RegisteredTool, set directly: its update() would also tell the client the list changed.
  record.inputSchema ??= schemas.inputSchema;
  record.outputSchema ??= schemas.outputSchema;
  return undefined;
}

/** Why these arguments cannot be passed on to `tool` as given, or undefined. */
function argumentRefusal(tool: LazyTool | undefined, args: Record<string, unknown> | undefined): string | undefined {
  if (tool === undefined || args === undefined) return undefined; // an unknown tool is the SDK's to answer
  const unknown = unknownArguments(tool.schemas.inputSchema, args);
  if (unknown.length > 0) return unknownArgumentsText(unknown, tool.name, nothingDone(tool));
  const dropped = protoKeyPath(args);
  if (dropped === undefined) return undefined;
  return (
    `${tool.name}: ${dropped} has a field named "__proto__", which this server cannot pass on (JavaScript objects drop that ` +
    `name). Rename the field and call again. ${nothingDone(tool)}`
  );
}
