import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { float32ToString } from "../../src/common/float32.js";
import { channelTokens, fitRows, float32Values, idsArgument } from "../../src/tool-kit/results/budget.js";
import { estimateTokens } from "../../src/tool-kit/results/tokens.js";

describe("fitRows", () => {
  const rows = Array.from({ length: 50 }, (_, i) => `row ${i} ${"word ".repeat(100)}`);
  const build = (shown: number) => ({ structured: { rows: rows.slice(0, shown) }, table: rows.slice(0, shown).join("\n"), ...(shown < rows.length && { note: `${rows.length - shown} left out` }) });
  const cost = (i: number) => ({ text: estimateTokens(rows[i]) + 1, structured: estimateTokens(JSON.stringify(rows[i])) + 1 });

  test("whole rows, in order, each channel within the budget", () => {
    const result = fitRows(rows.length, 2000, cost, build);
    const shown = result.structured.rows.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(rows.length);
    expect(result.structured.rows).toEqual(rows.slice(0, shown));
    const used = channelTokens(result);
    expect(used.text).toBeLessThanOrEqual(2000);
    expect(used.structured).toBeLessThanOrEqual(2000);
    expect(result.note).toBe(`${rows.length - shown} left out`);
  });

  test("all rows when they fit; none when the first does not", () => {
    expect(fitRows(rows.length, 1_000_000, cost, build).structured.rows).toHaveLength(50);
    expect(fitRows(rows.length, 50, cost, build).structured.rows).toHaveLength(0);
  });

  test("a note longer than was set aside: fewer rows, still within the budget", () => {
    const long = (shown: number) => ({ ...build(shown), note: "note ".repeat(1500) });
    const result = fitRows(rows.length, 3000, cost, long);
    const used = channelTokens(result);
    expect(Math.max(used.text, used.structured)).toBeLessThanOrEqual(3000);
    expect(result.structured.rows.length).toBeGreaterThan(0);
  });
});

test("idsArgument: the JSON list when it is short enough, else nothing", () => {
  expect(idsArgument(["a", "b"], 100)).toBe('["a","b"]');
  expect(idsArgument(Array.from({ length: 1000 }, (_, i) => `id-${i}`), 100)).toBeUndefined();
});

test("float32Values: the shortest decimal that reads back the same float32", () => {
  const stored = [-0.559, 0.1, 1 / 3, 1e-45, 3.4028234663852886e38, 0].map(Math.fround);
  const printed = float32Values(stored);
  expect(printed).toEqual([-0.559, 0.1, 0.33333334, 1e-45, 3.4028235e38, 0]);
  printed.forEach((v, i) => expect(Math.fround(v)).toBe(stored[i]));
});

test("float32Values: the same numbers as reading each value's shortest float32 decimal, for any double", () => {
  fc.assert(
    fc.property(fc.array(fc.double(), { maxLength: 50 }), (values) => {
      const finite = values.filter((v) => !Number.isFinite(v) || Number.isFinite(Math.fround(v)));
      expect(float32Values(finite)).toEqual(finite.map((v) => (Number.isFinite(v) ? Number(float32ToString(v)) : v)));
    }),
    { numRuns: 2000 },
  );
  expect(() => float32Values([1e39])).toThrow(RangeError); // past the float32 range: refused, as float32ToString does
});
