// The JSON-RPC checks made in front of the SDK's HTTP transport.
import { expect, test } from "vitest";
import { checkMessages, negotiatedVersion } from "../../../src/transports/http/messages.js";

const ping = (id: number | string) => ({ jsonrpc: "2.0", id, method: "ping" });
const refusal = (r: ReturnType<typeof checkMessages>) => (r.ok ? undefined : { status: r.refusal.status, code: r.refusal.code, message: r.refusal.message });

test("an empty batch, and JSON that is no JSON-RPC message, are Invalid Request (-32600), not parse errors", () => {
  expect(refusal(checkMessages([]))).toEqual({ status: 400, code: -32600, message: "Invalid Request: an empty batch" });
  expect(refusal(checkMessages({ foo: 1 }))).toEqual({ status: 400, code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" });
  expect(refusal(checkMessages([ping(1), 5]))).toEqual({ status: 400, code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" });
});

test("batches: taken up to 2025-03-26, refused from 2025-06-18 on", () => {
  const inFlight = new Set<string | number>();
  for (const version of ["2024-11-05", "2025-03-26"]) {
    const r = checkMessages([ping(1), ping(2)], { version, inFlight });
    expect(r.ok && r.requestIds).toEqual([1, 2]);
  }
  for (const version of ["2025-06-18", "2025-11-25"]) {
    expect(refusal(checkMessages([ping(1)], { version, inFlight }))?.message).toBe(
      `Invalid Request: this session is at protocol version ${version}, which has no JSON-RPC batches; send each message in its own POST`,
    );
  }
});

test("an id already in flight in the session, or twice in one batch, is refused; notifications have no id to clash", () => {
  const inFlight = new Set<string | number>(["a"]);
  expect(refusal(checkMessages(ping("a"), { version: "2025-06-18", inFlight }))?.message).toBe(
    'Invalid Request: id "a" is already used by a request in flight in this session',
  );
  expect(refusal(checkMessages([ping(1), ping(1)], { version: "2025-03-26", inFlight }))?.message).toBe(
    "Invalid Request: id 1 is already used by a request in flight in this session",
  );
  const notes = checkMessages([{ jsonrpc: "2.0", method: "notifications/x" }, { jsonrpc: "2.0", method: "notifications/x" }], { version: "2025-03-26", inFlight });
  expect(notes.ok && notes.requestIds).toEqual([]);
});

test("the negotiated version is the client's when this SDK supports it, else the latest", () => {
  const init = (v: unknown) => ({ jsonrpc: "2.0" as const, id: 1, method: "initialize", params: { protocolVersion: v } });
  expect(negotiatedVersion(init("2025-03-26"))).toBe("2025-03-26");
  expect(negotiatedVersion(init("1999-01-01"))).toBe("2025-11-25");
});
