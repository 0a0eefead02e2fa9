// The stdio transport alone: messages split across chunks in every way, CRLF, blank lines, bad lines, oversized ones.
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "vitest";
import { LineStdioTransport } from "../../src/transports/stdio.js";

function setup(max?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineStdioTransport(stdin, stdout, max);
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (m) => void messages.push(m);
  transport.onerror = (e) => void errors.push(e.message);
  return { stdin, stdout, transport, messages, errors };
}

const ping = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "ping" });

test("messages split at every byte boundary arrive whole and in order", async () => {
  const text = Buffer.from(`${JSON.stringify(ping(1))}\r\n\n${JSON.stringify(ping(2))}\n`);
  for (let cut = 0; cut <= text.length; cut++) {
    const { stdin, transport, messages } = setup();
    await transport.start();
    stdin.write(text.subarray(0, cut));
    stdin.write(text.subarray(cut));
    await new Promise((r) => setImmediate(r));
    expect(messages).toEqual([ping(1), ping(2)]);
  }
});

test("a large message in many chunks", async () => {
  const { stdin, transport, messages } = setup();
  await transport.start();
  const big = { jsonrpc: "2.0" as const, id: 7, method: "tools/call", params: { name: "x", arguments: { v: Array.from({ length: 300_000 }, (_, i) => i / 7) } } };
  const bytes = Buffer.from(JSON.stringify(big) + "\n");
  for (let i = 0; i < bytes.length; i += 65536) stdin.write(bytes.subarray(i, i + 65536));
  await new Promise((r) => setImmediate(r));
  expect(messages).toEqual([big]);
});

test("an unreadable line and an oversized message are reported and skipped; the next message still arrives", async () => {
  const { stdin, transport, messages, errors } = setup(100);
  await transport.start();
  stdin.write("{not json\n");
  stdin.write(`${"x".repeat(80)}`);
  stdin.write(`${"x".repeat(80)}\n${JSON.stringify(ping(3))}\n`);
  await new Promise((r) => setImmediate(r));
  expect(messages).toEqual([ping(3)]);
  expect(errors[0]).toMatch(/^an unreadable JSON-RPC message was dropped/);
  expect(errors[1]).toBe("a message larger than 100 bytes was dropped");
});

test("a request that is not valid JSON-RPC but has an id is answered with Invalid Request (its sender would wait forever)", async () => {
  const { stdin, stdout, transport, messages, errors } = setup();
  let out = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  await transport.start();
  stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 9, method: 5 })}\n${JSON.stringify({ jsonrpc: "2.0", id: 8, result: 1, error: 2 })}\n`);
  stdin.write(`${JSON.stringify(ping(3))}\n`);
  await new Promise((r) => setImmediate(r));
  expect(messages).toEqual([ping(3)]);
  expect(errors).toHaveLength(2);
  expect(errors[0]).toMatch(/^an unreadable JSON-RPC message was dropped: not a JSON-RPC 2.0 message/);
  expect(out.trim().split("\n").map((l) => JSON.parse(l))).toEqual([
    { jsonrpc: "2.0", id: 9, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } },
    { jsonrpc: "2.0", id: 8, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } },
  ]);
});

test("a line longer than the longest string V8 can hold is dropped as too large, not a crash", async () => {
  const { stdin, transport, messages, errors } = setup();
  await transport.start();
  const huge = Buffer.alloc(0x1fffffe8 + 16, 0x61); // one byte past V8's string limit, under 512 MiB
  huge[huge.length - 1] = 0x0a;
  stdin.write(huge);
  stdin.write(`${JSON.stringify(ping(4))}\n`);
  await new Promise((r) => setImmediate(r));
  expect(messages).toEqual([ping(4)]);
  expect(errors[0]).toMatch(/^a message larger than \d+ bytes was dropped$/);
});

test("send writes one line per message", async () => {
  const { stdout, transport } = setup();
  let out = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  await transport.send(ping(1));
  await transport.send(ping(2));
  expect(out).toBe(`${JSON.stringify(ping(1))}\n${JSON.stringify(ping(2))}\n`);
});

/** What the transport wrote, one parsed message a line. */
function written(stdout: PassThrough): () => unknown[] {
  let out = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  return () => out.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

const tick = () => new Promise((r) => setImmediate(r));

/** Plays the server's side of initialize so the transport knows the negotiated version. */
async function negotiated(version: string) {
  const s = setup();
  const out = written(s.stdout);
  await s.transport.start();
  s.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version } })}\n`);
  await tick();
  await s.transport.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: version, capabilities: {}, serverInfo: { name: "t", version: "1" } } });
  s.messages.length = 0;
  return { ...s, out };
}

test("a line that is not JSON is answered with a -32700 parse error, id null", async () => {
  const { stdin, stdout, transport } = setup();
  const out = written(stdout);
  await transport.start();
  stdin.write("{not json\n");
  await tick();
  expect(out()).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not valid JSON" } }]);
});

test("an object that is no JSON-RPC message gets -32600 with id null", async () => {
  const { stdin, stdout, transport } = setup();
  const out = written(stdout);
  await transport.start();
  stdin.write('{"foo":1}\n');
  await tick();
  expect(out()).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } }]);
});

test("at 2025-03-26 a batch is delivered and its answers go back as one array, in the order they are ready", async () => {
  const { stdin, transport, messages, out } = await negotiated("2025-03-26");
  stdin.write(`${JSON.stringify([ping(1), { jsonrpc: "2.0", method: "notifications/x" }, ping(2), { bad: 1 }])}\n`);
  await tick();
  expect(messages).toEqual([ping(1), { jsonrpc: "2.0", method: "notifications/x" }, ping(2)]);
  await transport.send({ jsonrpc: "2.0", id: 2, result: {} });
  await transport.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
  expect(out().slice(1)).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }]);
  await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
  expect(out().slice(2)).toEqual([
    [
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } },
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: 1, result: {} },
    ],
  ]);
});

test("a batch of notifications only gets no answer; an empty batch gets -32600", async () => {
  const { stdin, messages, out } = await negotiated("2025-03-26");
  stdin.write(`${JSON.stringify([{ jsonrpc: "2.0", method: "notifications/initialized" }])}\n[]\n`);
  await tick();
  expect(messages).toHaveLength(1);
  expect(out().slice(1)).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: an empty batch" } }]);
});

test("at 2025-06-18 and later, and before initialize, a batch is refused whole with -32600 and nothing is delivered", async () => {
  for (const version of ["2025-06-18", "2025-11-25"]) {
    const { stdin, messages, out } = await negotiated(version);
    stdin.write(`${JSON.stringify([ping(1), ping(2)])}\n`);
    await tick();
    expect(messages).toEqual([]);
    expect(out().slice(1)).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message: `Invalid Request: a batch in a session at protocol version ${version}, which has no JSON-RPC batches; send each message on its own line`,
        },
      },
    ]);
  }
  const { stdin, stdout, transport, messages } = setup();
  const out = written(stdout);
  await transport.start();
  stdin.write(`${JSON.stringify([ping(1)])}\n`);
  await tick();
  expect(messages).toEqual([]);
  expect((out()[0] as { error: { message: string } }).error.message).toMatch(/^Invalid Request: a batch before initialize/);
});

test("in protocol 2026-07-28 (a request's _meta claims it; there is no initialize) a batch is refused whole with -32600", async () => {
  const { stdin, stdout, transport, messages } = setup();
  const out = written(stdout);
  await transport.start();
  const claimed = { ...ping(1), params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } };
  stdin.write(`${JSON.stringify(claimed)}\n${JSON.stringify([ping(2), ping(3)])}\n`);
  await tick();
  expect(messages).toEqual([claimed]);
  expect(out()).toEqual([
    {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request: a batch in a session at protocol version 2026-07-28, which has no JSON-RPC batches; send each message on its own line",
      },
    },
  ]);
});
