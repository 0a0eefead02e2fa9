// The one place that reaches into the SDK's private fields. The SDK (v2) has no public way to read a handler it
// registered (to put a check in front of it, e.g. tools/call before its own argument parsing) nor to take back a
// capability McpServer announces by itself (tools.listChanged). test/mcp/sdk-internals.test.ts fails when an SDK
// update moves either, so this breaks loudly rather than silently turning the guards off.
import type { McpServer } from "@modelcontextprotocol/server";

export type RequestHandler = (request: { method: string; params?: unknown }, ctx: unknown) => Promise<unknown>;

/** The SDK's own map of request handlers by method (the live map: setting an entry replaces the handler). */
export function requestHandlers(server: McpServer): Map<string, RequestHandler> | undefined {
  return (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
}

/** The capabilities the server will announce in its initialize result (the live object). */
export function announcedCapabilities(server: McpServer): { tools?: { listChanged?: boolean } } | undefined {
  return (server.server as unknown as { _capabilities?: { tools?: { listChanged?: boolean } } })._capabilities;
}
