import fc from "fast-check";
import { expect, test } from "vitest";
import { NotJsonError, parseOffThread } from "../../src/api/parse-off-thread.js";

const bytesOf = (text: string) => {
  const b = Buffer.from(text);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
};

test("the value is JSON.parse's, long lists of numbers included, for any JSON", async () => {
  const numbers = fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()), { minLength: 0, maxLength: 40 });
  const answer = fc.oneof(fc.jsonValue(), numbers, fc.dictionary(fc.string(), fc.oneof(numbers, fc.jsonValue(), fc.array(fc.record({ id: fc.string(), values: numbers })))));
  await fc.assert(
    fc.asyncProperty(answer, async (value) => {
      const text = JSON.stringify(value);
      expect(await parseOffThread(bytesOf(text))).toStrictEqual(JSON.parse(text));
    }),
    { numRuns: 300 },
  );
});

test("a query answer of 1000 × 768 values comes back whole; -0 and an own __proto__ key as JSON.parse reads them", async () => {
  const matches = Array.from({ length: 1000 }, (_, i) => ({ id: `r${i}`, score: 1 - i / 1000, values: Array.from({ length: 768 }, (_, j) => Math.fround(Math.sin(i * 768 + j))), metadata: { n: i } }));
  const text = JSON.stringify({ matches, namespace: "", usage: { readUnits: 1 } });
  expect(await parseOffThread(bytesOf(text))).toStrictEqual(JSON.parse(text));
  const odd = '{"__proto__": [' + Array.from({ length: 20 }, (_, i) => i).join(",") + '], "z": [-0, ' + "1,".repeat(20) + "1]}";
  const parsed = (await parseOffThread(bytesOf(odd))) as Record<string, number[]>;
  expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  expect(Object.keys(parsed)).toEqual(["__proto__", "z"]);
  expect(parsed).toStrictEqual(JSON.parse(odd));
  expect(Object.is(parsed.z[0], -0)).toBe(true);
});

test("bytes that are not JSON: JSON.parse's error, with the bytes given back", async () => {
  const error = await parseOffThread(bytesOf("{not json")).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotJsonError);
  expect((error as NotJsonError).message).toMatch(/JSON/);
  expect(Buffer.from((error as NotJsonError).bytes).toString()).toBe("{not json");
});

test("answers parsed at once each get their own value", async () => {
  const texts = Array.from({ length: 6 }, (_, i) => JSON.stringify({ i, values: Array.from({ length: 5000 }, (_, j) => i * j) }));
  const values = await Promise.all(texts.map((t) => parseOffThread(bytesOf(t))));
  expect(values).toStrictEqual(texts.map((t) => JSON.parse(t)));
});
