// A fetch answer split into its records' own JSON texts: every record comes back exactly as the service wrote it,
// whatever its ids and metadata hold (quotes, backslashes, brackets inside strings, nesting), in any member order and
// spacing; a record with a field an upsert does not take, or a null, is marked; anything else is refused.
import fc from "fast-check";
import { expect, test } from "vitest";
import { recordsOfFetchAnswer } from "../../src/api/fetch-answer.js";

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ unit: "binary" }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: "binary", maxLength: 8 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const record = fc.record(
  {
    values: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 20 }),
    sparseValues: fc.record({ indices: fc.array(fc.nat(), { maxLength: 5 }), values: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 5 }) }),
    metadata: fc.dictionary(fc.string({ unit: "binary", maxLength: 10 }), json, { maxKeys: 5 }),
  },
  { requiredKeys: ["values"] },
);

test("every record's JSON text is cut out exactly, whatever its strings and nesting hold", () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ unit: "binary", minLength: 1, maxLength: 12 }), record, { maxKeys: 8 }), fc.boolean(), fc.boolean(), (byId, spaced, vectorsLast) => {
      const vectors = Object.fromEntries(Object.entries(byId).map(([id, r]) => [id, { id, ...r }]));
      const others = { namespace: "n\"s{", usage: { readUnits: 1 } };
      const answer = vectorsLast ? { ...others, vectors } : { vectors, ...others };
      const text = JSON.stringify(answer, null, spaced ? 2 : undefined);
      const split = recordsOfFetchAnswer(text);
      expect([...split.keys()]).toEqual(Object.keys(vectors));
      for (const [id, raw] of split) {
        expect(JSON.parse(raw.json)).toEqual(JSON.parse(JSON.stringify(vectors[id])));
        expect(raw.plain).toBe(true);
      }
    }),
  );
});

test("a record with a field an upsert does not take, or a null, is marked; a broken answer is refused", () => {
  const split = recordsOfFetchAnswer('{"vectors":{"a":{"id":"a","values":[1]},"b":{"id":"b","values":[1],"metadata":null},"c":{"id":"c","values":[],"score":0.5}}}');
  expect([...split].map(([id, r]) => [id, r.plain])).toEqual([["a", true], ["b", false], ["c", false]]);
  expect(recordsOfFetchAnswer("{}").size).toBe(0);
  for (const [text, why] of [
    ['{"vectors":{"a":{"id":"a","values":[1,2}}', "not a fetch answer: brackets do not match"],
    ['{"vectors":{"a":{"id":"a","values":[1,2]', 'not a fetch answer: "," or "}" was expected'],
    ['{"vectors":{"a":{"id":"a","values":[[1,2]', "not a fetch answer: an object or list does not end"],
    ['{"vectors":{"a":[1]}}', 'not a fetch answer: record "a" is not an object'],
    ['{"vectors":{"a":{"id":"a"}}} x', "not a fetch answer: text follows the answer"],
    ['{"vectors":{"a" {"id":"a"}}}', 'not a fetch answer: ":" was expected after "a"'],
    ["[]", "not a fetch answer: an object was expected"],
  ]) {
    expect(() => recordsOfFetchAnswer(text), text).toThrow(why);
  }
});
