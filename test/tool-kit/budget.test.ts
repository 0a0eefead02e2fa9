import { describe, expect, test } from "vitest";
import { fitBudget, float32Values, jsonSize } from "../../src/tool-kit/results/budget.js";

describe("fitBudget", () => {
  test("counts whole items until the next one would pass the budget", () => {
    expect(fitBudget([5, 5, 5], (n) => n, 10)).toBe(2);
    expect(fitBudget([5, 5], (n) => n, 10)).toBe(2);
    expect(fitBudget([11, 1], (n) => n, 10)).toBe(0);
    expect(fitBudget([], (n: number) => n, 10)).toBe(0);
  });
  test("jsonSize is the JSON length, 0 for undefined", () => {
    expect(jsonSize({ a: "bc" })).toBe(10);
    expect(jsonSize(undefined)).toBe(0);
  });
});

test("float32Values: the shortest decimal that reads back the same float32", () => {
  const stored = [-0.559, 0.1, 1 / 3, 1e-45, 3.4028234663852886e38, 0].map(Math.fround);
  const printed = float32Values(stored);
  expect(printed).toEqual([-0.559, 0.1, 0.33333334, 1e-45, 3.4028235e38, 0]);
  printed.forEach((v, i) => expect(Math.fround(v)).toBe(stored[i]));
});
