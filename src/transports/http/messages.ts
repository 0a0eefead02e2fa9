// The JSON-RPC checks made on a POST body before the SDK's transport sees it, where the SDK answers wrongly:
// `[]` got 202 with no body (JSON-RPC: -32600), `{"foo":1}` got -32700 (it is JSON: -32600), batches were taken on
// sessions at 2025-06-18 or later (which removed them), and a request id already in flight in the session left a
// stream open forever.
import { JSONRPCMessageSchema } from "@modelcontextprotocol/core";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from "@modelcontextprotocol/server";
import type { Refusal } from "./body.js";

type Id = string | number;

export type Checked = { ok: true; messages: JSONRPCMessage[]; batch: boolean; requestIds: Id[] } | { ok: false; refusal: Refusal };

const invalid = (message: string, reason: string): { ok: false; refusal: Refusal } => ({
  ok: false,
  refusal: { status: 400, code: -32600, message: `Invalid Request: ${message}`, reason },
});

/** The id of a single JSON-RPC request body, or null (a batch, a notification, an unreadable id). */
export function readableId(json: unknown): Id | null {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
  const id = (json as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

export const isInitialize = (m: JSONRPCMessage): boolean => "method" in m && m.method === "initialize" && "id" in m;

/** The version a server at this SDK answers an initialize with: the client's when supported, else the latest. */
export function negotiatedVersion(m: JSONRPCMessage): string {
  const asked = "params" in m ? (m.params as { protocolVersion?: unknown } | undefined)?.protocolVersion : undefined;
  return typeof asked === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
}

/**
 * json: the parsed body. session: the session it is for (undefined for a request without Mcp-Session-Id): its
 * negotiated version and the ids of its requests in flight.
 */
export function checkMessages(json: unknown, session?: { version: string; inFlight: ReadonlySet<Id> }): Checked {
  const batch = Array.isArray(json);
  const items = batch ? (json as unknown[]) : [json];
  if (batch && items.length === 0) return invalid("an empty batch", "empty batch");
  if (batch && session && session.version >= "2025-06-18") {
    return invalid(
      `this session is at protocol version ${session.version}, which has no JSON-RPC batches; send each message in its own POST`,
      `batch at ${session.version}`,
    );
  }
  const messages: JSONRPCMessage[] = [];
  const requestIds: Id[] = [];
  for (const item of items) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return invalid("not a JSON-RPC 2.0 message", "not JSON-RPC");
    const m = parsed.data;
    if ("method" in m && "id" in m) {
      if (requestIds.includes(m.id) || session?.inFlight.has(m.id)) {
        return invalid(`id ${JSON.stringify(m.id)} is already used by a request in flight in this session`, `duplicate id ${JSON.stringify(m.id)}`);
      }
      requestIds.push(m.id);
    }
    messages.push(m);
  }
  return { ok: true, messages, batch, requestIds };
}
