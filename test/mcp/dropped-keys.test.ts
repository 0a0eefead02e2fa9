import { expect, it } from "vitest";
import { protoKeyPath } from "../../src/mcp/dropped-keys.js";

it('names where a "__proto__" key is in a call\'s arguments, and finds none where there is none', () => {
  const parse = (text: string) => JSON.parse(text) as unknown;
  expect(protoKeyPath(parse('{"vectors":[{"id":"a","values":[1,2]},{"id":"b","metadata":{"__proto__":1}}]}'))).toBe("vectors[1].metadata");
  expect(protoKeyPath(parse('{"__proto__":{},"index":"x"}'))).toBe("(the arguments)");
  expect(protoKeyPath(parse('{"filter":{"$and":[{"a":1},{"b":{"__proto__":2}}]}}'))).toBe("filter.$and[1].b");
  expect(protoKeyPath(parse('{"vectors":[{"id":"__proto__","metadata":{"k":"__proto__"}}],"n":[1,2,3]}'))).toBeUndefined();
  expect(protoKeyPath({ constructor: 1, toString: "x" })).toBeUndefined();
  expect(protoKeyPath(undefined)).toBeUndefined();
});
