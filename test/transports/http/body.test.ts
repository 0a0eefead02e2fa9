// Reading a request body in front of the SDK: size limit, a budget of bytes in flight, a deadline, a client gone.
import { PassThrough } from "node:stream";
import type { IncomingMessage } from "node:http";
import { expect, test } from "vitest";
import { BodyBudget, readBody } from "../../../src/transports/http/body.js";

function request(contentLength?: number) {
  const stream = new PassThrough();
  Object.assign(stream, { headers: contentLength === undefined ? {} : { "content-length": String(contentLength) } });
  return stream as unknown as IncomingMessage & PassThrough;
}

test("a whole body is read as UTF-8; its reservation is held until released", async () => {
  const budget = new BodyBudget(100);
  const req = request(7);
  const read = readBody(req, { maxBytes: 50, budget });
  expect(budget.inUse).toBe(7); // the declared length, reserved up front
  req.end(Buffer.from("{\"é\":1"));
  const r = await read;
  expect(r.ok && r.text).toBe('{"é":1');
  expect(budget.inUse).toBe(7); // held until the request is answered
  if (r.ok) r.release();
  r.ok && r.release(); // once only
  expect(budget.inUse).toBe(0);
});

test("declared over the limit: 413 before reading; past the budget: 503 with Retry-After", async () => {
  const budget = new BodyBudget(100);
  const big = await readBody(request(51), { maxBytes: 50, budget });
  expect(!big.ok && big.refusal?.status).toBe(413);
  const holding = request(80);
  const first = readBody(holding, { maxBytes: 100, budget });
  const second = await readBody(request(30), { maxBytes: 100, budget });
  expect(!second.ok && second.refusal).toMatchObject({ status: 503, headers: { "Retry-After": "2" } });
  holding.end(Buffer.alloc(80, 0x20));
  const done = await first;
  if (done.ok) done.release();
  expect(budget.inUse).toBe(0);
});

test("a chunked body reserves as it arrives and is refused once past the limit", async () => {
  const budget = new BodyBudget(1000);
  const req = request();
  const read = readBody(req, { maxBytes: 10, budget });
  req.write(Buffer.alloc(8));
  req.write(Buffer.alloc(8));
  const r = await read;
  expect(!r.ok && r.refusal?.status).toBe(413);
  expect(budget.inUse).toBe(0);
});

test("a body not complete by the deadline gets 408; a client that goes away is reported, not answered", async () => {
  const budget = new BodyBudget(1000);
  const slow = request(10);
  slow.write("{");
  const timedOut = await readBody(slow, { maxBytes: 100, budget, deadlineMs: 50 });
  expect(!timedOut.ok && timedOut.refusal).toMatchObject({ status: 408, message: "Request Timeout: the body did not arrive within 0.05 s" });
  const gone = request(10);
  const read = readBody(gone, { maxBytes: 100, budget });
  gone.write("{\"a\"");
  gone.destroy();
  expect(await read).toEqual({ ok: false, clientGone: "the client went away after 4 of 10 bytes of the body" });
  expect(budget.inUse).toBe(0);
});
