import { describe, expect, it } from "vitest";
import { jsonSyntaxError } from "../../../src/ingest/sources/json-syntax.js";

describe("jsonSyntaxError", () => {
  it("agrees with JSON.parse on what is valid", () => {
    const texts = [
      '{"id":"a","values":[1,2.5e-3,-0]}', "  {}  ", "[]", "[ ]", "{ }", '{"a":{"b":[{"c":null}]}}', '"\\u00e9\\n"', "true", "-1.5E+2",
      "{", "}", "[1,]", '{"a":1,}', '{"a" 1}', "[1 2]", '{"a":tru}', "01", "1.", ".5", '"abc', '"\\x"', '"\\u12"', "\"a\tb\"", "{}x", "", "   ",
      "root:x:0:0:root:/root:/bin/bash", "[[[[[[", "nul",
    ];
    for (const t of texts) {
      let valid = true;
      try {
        JSON.parse(t);
      } catch {
        valid = false;
      }
      expect(jsonSyntaxError(t) === undefined, JSON.stringify(t)).toBe(valid);
    }
  });

  it("says where and why, never quoting the text", () => {
    expect(jsonSyntaxError("root:x:0:0:root:/root:/bin/bash")).toEqual({ column: 1, rule: "a JSON value (object, list, string, number, true, false or null) was expected" });
    expect(jsonSyntaxError('{"id":"a", "values":[1,2}')).toEqual({ column: 25, rule: '"," or "]" was expected after a list item' });
    expect(jsonSyntaxError('{"id":"a"} trailing')).toEqual({ column: 12, rule: "there is more after the JSON value" });
    expect(jsonSyntaxError('{"id":"a"')).toEqual({ column: 10, rule: "the text ends before the JSON value does" });
    expect(jsonSyntaxError("{id:1}")).toEqual({ column: 2, rule: "a field name in double quotes was expected" });
  });

  it("copes with deep nesting without overflowing the stack", () => {
    expect(jsonSyntaxError("[".repeat(100_000) + "]".repeat(100_000))).toBeUndefined();
    expect(jsonSyntaxError("[".repeat(100_000))).toEqual({ column: 100_001, rule: "the text ends before the JSON value does" });
  });
});
