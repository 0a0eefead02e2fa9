// What a tools/call meets before the SDK's own handler (see guardToolCalls).
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { Logger } from "../log.js";
import { protoKeyPath } from "./dropped-keys.js";
import { requestHandlers } from "./sdk-internals.js";
import { checkCallState, type stateCodec } from "./request-state.js";
import { nothingDone, unknownArguments, unknownArgumentsText } from "./strict-args.js";
import type { LazyTool } from "./tool-catalog.js";

/**
 * Answers, before the SDK's own tools/call handler, the calls it would get wrong: a tool the safe modes took away
 * (the SDK alone would answer "Tool … not found") gets why; an argument key the tool does not know, at any depth
 * (zod would drop it in silence and the call would succeed without it, see strict-args.ts), is refused with the
 * nearest valid name; a key named "__proto__" (which zod would drop too, see dropped-keys.ts) is refused, naming
 * where; a tool whose module does not load says so. Nothing runs in any of these cases. Otherwise the SDK checks the
 * arguments and the result with the tool's zod schemas (lazy-schemas.ts). A 2026-07-28 call's state (its signature
 * checked here too) issued for another call, or used before (by any process sharing the data dir), is refused with -32602 (request-state.ts). The SDK
 * offers no public hook there, so this wraps its handler in its own map (sdk-internals.ts): what runs here comes
 * before the SDK checks the request (which it still does after, for whatever passes).
 */
export function guardToolCalls(
  server: McpServer,
  hidden: ReadonlyMap<string, string>,
  offered: readonly LazyTool[],
  codec: ReturnType<typeof stateCodec>,
  usedStates: string,
  log: Logger,
): void {
  const handlers = requestHandlers(server);
  const sdkHandler = handlers?.get("tools/call");
  if (!handlers || !sdkHandler) return; // no tool registered at all: the SDK refuses every call by itself
  const byName = new Map(offered.map((t) => [t.name, t]));
  handlers.set("tools/call", async (request, extra) => {
    const params = request.params as { name?: unknown; arguments?: unknown } | undefined;
    const name = params?.name;
    const args = params?.arguments;
    const plain = args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args));
    if (typeof name !== "string" || !plain) return sdkHandler(request, extra); // malformed: the SDK answers -32602
    await checkCallState(extra as ServerContext, codec, name, args, usedStates);
    const tool = byName.get(name);
    const refusal = hidden.get(name) ?? argumentRefusal(tool, args as Record<string, unknown> | undefined) ?? (tool && (await loadRefusal(tool, log)));
    if (refusal === undefined) return withV1Wording(await sdkHandler(request, extra));
    log.info(`${name} → refused: ${refusal.split("\n")[0]}`);
    return { content: [{ type: "text", text: refusal }], isError: true };
  });
}

/** A refusal of the arguments worded as SDK v1 worded it ("MCP error -32602: Input validation error: …"), in both eras. */
function withV1Wording(result: unknown): unknown {
  const content = (result as { isError?: boolean; content?: { type: string; text?: string }[] }).content;
  const first = content?.[0];
  if (!(result as { isError?: boolean }).isError || first?.type !== "text" || !first.text?.startsWith("Input validation error: ")) return result;
  return { ...(result as object), content: [{ ...first, text: `MCP error -32602: ${first.text}` }, ...content!.slice(1)] };
}

/** Why the call cannot go on when the tool's module (loaded now if this is its first call) fails to load, or undefined. */
async function loadRefusal(tool: LazyTool, log: Logger): Promise<string | undefined> {
  try {
    await tool.load();
    return undefined;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.error(`${tool.name}: its module did not load: ${reason}`);
    return `${tool.name} could not be loaded (${reason}). ${nothingDone(tool)}\nNext step: tell the user; the server's installation may be damaged (reinstall it).`;
  }
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
