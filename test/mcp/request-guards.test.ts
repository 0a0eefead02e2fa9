// The checks in front of every request handler: params depth, zod issues as one short line.
import { expect, test } from "vitest";
import { shortIssue, tooDeepAt } from "../../src/mcp/request-guards.js";

test("tooDeepAt names the first path past the limit, and walks 100,000 levels without overflowing", () => {
  expect(tooDeepAt({ a: [{ b: 1 }] }, 3)).toBeUndefined();
  expect(tooDeepAt({ a: [{ b: {} }] }, 3)).toBe("params.a[0].b");
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = { $and: [deep] };
  expect(tooDeepAt(deep, 64)).toMatch(/^params(\.\$and\[0\]){32}$/);
  expect(tooDeepAt({ values: new Array(1_000_000).fill(0.5) }, 2)).toBeUndefined();
});

test("shortIssue: one line naming the field and the rule", () => {
  expect(shortIssue({ code: "invalid_type", path: ["params", "name"], expected: "string", input: undefined })).toBe("params.name is required (string)");
  expect(shortIssue({ code: "invalid_type", path: ["params", "name"], expected: "string", input: 5 })).toBe("params.name must be a string");
  expect(shortIssue({ code: "invalid_value", path: ["params", "level"], values: ["debug", "info"] })).toBe('params.level must be one of "debug", "info"');
});
