// A missing resource is -32002 in protocol versions before 2026-07-28 and -32602 from then on (the 2025-11-25 and
// 2026-07-28 specs, server/resources). The SDK answers -32602 with data { uri } in every era, so the transports put
// the old code back on old-era connections.
import type { JSONRPCMessage } from "@modelcontextprotocol/server";

const RESOURCE_NOT_FOUND_BEFORE_2026 = -32002;

/** Protocol versions are dates: anything before the 2026-07-28 revision is the old era. */
export const isOldEra = (version: string | undefined): boolean => version !== undefined && version < "2026-07-28";

/** The message with an old-era resource-not-found code when it is the SDK's "resource not found" error. */
export function withOldEraErrorCodes(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || message.error.code !== -32602) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  const notFound = data !== undefined && typeof data.uri === "string" && Object.keys(data).length === 1;
  return notFound ? { ...message, error: { ...message.error, code: RESOURCE_NOT_FOUND_BEFORE_2026 } } : message;
}
