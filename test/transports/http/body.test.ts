// Reading a request body in front of the SDK: size limit, a budget of bytes in flight taken as they arrive, a deadline
// for every body, a client gone.
import { PassThrough } from "node:stream";
import type { IncomingMessage } from "node:http";
import { expect, test } from "vitest";
import { BodyBudget, readBody } from "../../../src/transports/http/body.js";

function request(contentLength?: number) {
  const stream = new PassThrough();
  Object.assign(stream, { headers: contentLength === undefined ? {} : { "content-length": String(contentLength) } });
  return stream as unknown as IncomingMessage & PassThrough;
}

test("a whole body is read as UTF-8; its bytes are held until released", async () => {
  const budget = new BodyBudget(100);
  const req = request(7);
  const read = readBody(req, { maxBytes: 50, budget, deadlineMs: 1000 });
  expect(budget.inUse).toBe(0); // what is declared reserves nothing
  req.end(Buffer.from("{\"é\":1"));
  const r = await read;
  expect(r.ok && r.text).toBe('{"é":1');
  expect(budget.inUse).toBe(7); // held until the request is answered
  if (r.ok) r.release();
  r.ok && r.release(); // once only
  expect(budget.inUse).toBe(0);
});

test("declaring most of the budget and sending a byte at a time holds a byte, not the budget", async () => {
  const budget = new BodyBudget(100);
  const attacker = request(95);
  const held = readBody(attacker, { maxBytes: 100, budget, deadlineMs: 1000 });
  attacker.write("{");
  const other = request(60);
  const read = readBody(other, { maxBytes: 100, budget, deadlineMs: 1000 });
  other.end(Buffer.alloc(60, 0x20));
  const r = await read;
  expect(r.ok).toBe(true);
  expect(budget.inUse).toBe(61);
  if (r.ok) r.release();
  attacker.destroy();
  await held;
  expect(budget.inUse).toBe(0);
});

test("declared over the limit: 413 before reading; past the budget as bytes arrive: 503 with Retry-After, its bytes given back", async () => {
  const budget = new BodyBudget(100);
  const big = await readBody(request(51), { maxBytes: 50, budget, deadlineMs: 1000 });
  expect(!big.ok && big.refusal?.status).toBe(413);
  const holding = request(80);
  const first = readBody(holding, { maxBytes: 100, budget, deadlineMs: 1000 });
  holding.write(Buffer.alloc(80, 0x20));
  const second = request(30);
  const refused = readBody(second, { maxBytes: 100, budget, deadlineMs: 1000 });
  second.write(Buffer.alloc(15, 0x20));
  second.write(Buffer.alloc(15, 0x20));
  expect(await refused).toMatchObject({ ok: false, refusal: { status: 503, headers: { "Retry-After": "2" }, message: "Service Unavailable: 0 MiB of request bodies are in progress already; retry shortly" } });
  expect(budget.inUse).toBe(80);
  holding.end();
  const done = await first;
  if (done.ok) done.release();
  expect(budget.inUse).toBe(0);
});

test("a chunked body reserves as it arrives and is refused once past the limit", async () => {
  const budget = new BodyBudget(1000);
  const req = request();
  const read = readBody(req, { maxBytes: 10, budget, deadlineMs: 1000 });
  req.write(Buffer.alloc(8));
  req.write(Buffer.alloc(8));
  const r = await read;
  expect(!r.ok && r.refusal?.status).toBe(413);
  expect(budget.inUse).toBe(0);
});

test("every body has a deadline: not complete in time gets 408; a client that goes away is reported, not answered", async () => {
  const budget = new BodyBudget(1000);
  const slow = request(10);
  slow.write("{");
  const timedOut = await readBody(slow, { maxBytes: 100, budget, deadlineMs: 50 });
  expect(!timedOut.ok && timedOut.refusal).toMatchObject({
    status: 408,
    message: "Request Timeout: the body did not arrive in time (0.05 s, plus a second per MiB)",
  });
  expect(budget.inUse).toBe(0);
  const gone = request(10);
  const read = readBody(gone, { maxBytes: 100, budget, deadlineMs: 1000 });
  gone.write("{\"a\"");
  gone.destroy();
  expect(await read).toEqual({ ok: false, clientGone: "the client went away after 4 of 10 bytes of the body" });
  expect(budget.inUse).toBe(0);
});

test("a large body gets a second per MiB received past the deadline", async () => {
  const budget = new BodyBudget(8 * 1024 * 1024);
  const req = request(3 * 1024 * 1024);
  const started = Date.now();
  const read = readBody(req, { maxBytes: 8 * 1024 * 1024, budget, deadlineMs: 50 });
  req.write(Buffer.alloc(1024 * 1024, 0x20)); // 1 MiB at once, then nothing
  const r = await read;
  expect(!r.ok && r.refusal?.status).toBe(408);
  expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // 50 ms + 1 s for the MiB received
});
