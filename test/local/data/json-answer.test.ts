import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { float32Double } from "../../../src/common/float32.js";
import { DeferredJson, Float32Json, sendJsonInSlices } from "../../../src/local/data/json-answer.js";

// A real HTTP server that answers each request with the next body given to it.
let server: Server;
let url = "";
let next: unknown;
beforeAll(async () => {
  server = createServer((_req, res) => void sendJsonInSlices(res, 200, next));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function answer(body: unknown): Promise<{ text: string; length: string | null; chunked: boolean }> {
  next = body;
  const res = await fetch(url);
  return { text: await res.text(), length: res.headers.get("content-length"), chunked: res.headers.get("transfer-encoding") === "chunked" };
}

const float32s = fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 30 }).map((v) => new Float32Json(Float32Array.from(v)));

test("the bytes are JSON.stringify's, for any JSON with stored float32 values and parts made when written in it", async () => {
  const body = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.jsonValue(),
      float32s,
      fc.array(tie("value"), { maxLength: 5 }),
      fc.dictionary(fc.string(), tie("value"), { maxKeys: 5 }),
      tie("value").map((v) => new DeferredJson(() => v)),
    ),
  })).value;
  await fc.assert(
    fc.asyncProperty(body, async (value) => {
      expect((await answer(value)).text).toBe(JSON.stringify(value));
    }),
    { numRuns: 300 },
  );
});

test("each float32 as the shortest decimal that reads back as it: what JSON.stringify writes of its double", async () => {
  // 200,000 bit patterns from a fixed seed, and the edges: zeros, the smallest subnormal, the largest float, powers of two.
  const bits = new Uint32Array(200_000);
  let seed = 0x9e3779b9;
  for (let i = 0; i < bits.length; i++) bits[i] = seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  const edges = [0, -0, 1e-45, -1e-45, 3.4028234663852886e38, 2 ** -126, 2 ** 100, 2 ** -100, 1, 0.1, 1e-7, 1e21, 123456789];
  const random = Array.from(new Float32Array(bits.buffer)).filter(Number.isFinite);
  const values = Float32Array.from([...edges, ...random]);
  const { text } = await answer(new Float32Json(values));
  expect(text).toBe(JSON.stringify(Array.from(values, float32Double)));
});

test("a small answer goes whole with its Content-Length; a large one in slices, the same bytes", async () => {
  const small = await answer({ matches: [{ id: "a", values: new Float32Json(Float32Array.of(0.5, 0.4)) }] });
  expect(small).toEqual({ text: '{"matches":[{"id":"a","values":[0.5,0.4]}]}', length: String(Buffer.byteLength(small.text)), chunked: false });
  const matches = Array.from({ length: 300 }, (_, i) => ({ id: `r${i}`, values: new Float32Json(Float32Array.from({ length: 768 }, (_, j) => Math.sin(i + j))), metadata: { n: i, s: "é" } }));
  const large = await answer({ matches, namespace: "" });
  expect(large.chunked).toBe(true);
  expect(large.length).toBeNull();
  expect(large.text).toBe(JSON.stringify({ matches, namespace: "" }));
});
