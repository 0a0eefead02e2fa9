// The stdio transport alone: messages split across chunks in every way, CRLF, blank lines, bad lines, oversized ones.
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "vitest";
import { LineStdioTransport } from "../../src/stdio-transport.js";

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

test("send writes one line per message", async () => {
  const { stdout, transport } = setup();
  let out = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  await transport.send(ping(1));
  await transport.send(ping(2));
  expect(out).toBe(`${JSON.stringify(ping(1))}\n${JSON.stringify(ping(2))}\n`);
});
