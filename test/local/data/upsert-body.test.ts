// The service's fast reading of upsert bodies (upsert-body.ts) must store exactly what JSON.parse + the record
// checks store, or step aside; the long way keeps every error message.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRecord } from "../../../src/local/data/records.js";
import type { DataPlaneIndex } from "../../../src/local/data/types.js";
import { readUpsertBody } from "../../../src/local/data/upsert-body.js";
import { parseBody, type Json } from "../../../src/local/data/validate.js";

const dense: DataPlaneIndex = { name: "d", space: "s", dimension: 3, metric: "dotproduct", vectorType: "dense" };

/** The records each way would store, or the error the long way gives. */
function both(text: string, index = dense) {
  const body = Buffer.from(text);
  const fast = readUpsertBody(body);
  const long = () => {
    const parsed = parseBody(body);
    return { vectors: (parsed.vectors as Json[]).map((v, i) => parseRecord(v, i, index)), namespace: parsed.namespace };
  };
  return { fast: fast && { vectors: fast.vectors.map((v, i) => parseRecord(v, i, index)), namespace: fast.namespace }, long };
}

describe("readUpsertBody", () => {
  it("stores what the long way stores: ids, float32 values, metadata, sparse values, namespace", () => {
    const value = fc.double({ noNaN: true, noDefaultInfinity: true, min: -3e38, max: 3e38 });
    const record = fc.record(
      {
        id: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes("\u0000")),
        values: fc.array(value, { minLength: 3, maxLength: 3 }),
        metadata: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
        sparseValues: fc.constant({ indices: [1, 7], values: [0.5, 0.25] }),
      },
      { requiredKeys: ["id", "values"] },
    );
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 5 }), fc.option(fc.string({ maxLength: 8 })), fc.boolean(), (vectors, namespace, spaced) => {
        const body = { vectors, ...(namespace !== null && { namespace }) };
        const text = spaced ? JSON.stringify(body, null, 2) : JSON.stringify(body);
        const { fast, long } = both(text);
        const plainIds = vectors.every((v) => !/[\\\u0000-\u001f"]/.test(v.id));
        if (plainIds) expect(fast, text).toBeDefined();
        if (fast) expect(fast).toEqual(long());
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads each value as Math.fround of its decimal, however long", () => {
    const { fast } = both('{"vectors":[{"id":"a","values":[0.12345678918063641,1E5,-0.0]}]}');
    expect(Array.from(fast!.vectors[0].values)).toEqual([Math.fround(0.12345678918063641), 100000, -0]);
  });

  it("steps aside for anything else, so the long way words the error", () => {
    for (const text of [
      "", "{}", "[]", '{"vectors":[]', '{"vectors":[{"id":"a","values":[1,2,3]}],"extra":1}', '{"vectors":{}}',
      '{"vectors":[{"id":"a","values":[1,2,1e39]}]}', '{"vectors":[{"id":"a","values":[1,2,null]}]}', '{"vectors":[{"id":"a","values":[1,2,"3"]}]}',
      '{"vectors":[{"id":"a\\u0041","values":[1,2,3]}]}', '{"vectors":[{"id":"a","id":"b","values":[1,2,3]}]}', '{"vectors":[{"id":"a","vector":[1,2,3]}]}',
      '{"vectors":[{"id":"a","values":[1,2,3]}],"vectors":[]}', '{"vectors":[{"id":"a","values":[1,2,3]}]} x', '\ufeff{"vectors":[]}',
      '{"vectors":[{"id":"a","values":[1,2,3],"metadata":{"k":}}]}', '{"namespace":"n"}',
    ]) {
      expect(readUpsertBody(Buffer.from(text)), text).toBeUndefined();
    }
  });

  it("leaves the record checks to parseRecord: a wrong dimension is refused with the same words", () => {
    const text = '{"vectors":[{"id":"a","values":[1,2]}]}';
    const fast = readUpsertBody(Buffer.from(text))!;
    const long = parseBody(Buffer.from(text)).vectors as Json[];
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    expect(message(() => parseRecord(fast.vectors[0], 0, dense))).toBe(message(() => parseRecord(long[0], 0, dense)));
    expect(message(() => parseRecord(fast.vectors[0], 0, dense))).toMatch(/: dimension 2 does not match the dimension of the index 3$/);
  });
});
