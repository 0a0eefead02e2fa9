// The retrieval figures on small cases worked out by hand (binary relevance; log2 gains).
import { describe, expect, test } from "vitest";
import { meanFigures, queryFigures } from "../../../src/tool-kit/evaluation/metrics.js";

const rounded = (f: { recall: number; reciprocalRank: number; ndcg: number }) => [f.recall, f.reciprocalRank, f.ndcg].map((x) => Number(x.toFixed(6)));

describe("queryFigures", () => {
  test("relevant at ranks 2 and 4 of 5, three relevant ids, k = 5", () => {
    // DCG = 1/log2(3) + 1/log2(5) = 0.630930 + 0.430677 = 1.061606; ideal = 1 + 0.630930 + 0.5 = 2.130930; 1.061606 / 2.130930 = 0.498189
    const f = queryFigures(["a", "x", "b", "y", "c"], new Set(["x", "y", "z"]), 5);
    expect(rounded(f)).toEqual([0.666667, 0.5, 0.498189]);
    expect(f).toMatchObject({ found: 2, firstRelevant: 2 });
  });

  test("the cutoff: only the first k count, and the ideal holds at most k relevant ids", () => {
    // k = 1: "x" at rank 2 is past the cutoff; ideal DCG is 1 (one slot), so nothing found is 0.
    expect(rounded(queryFigures(["a", "x"], new Set(["x", "y"]), 1))).toEqual([0, 0, 0]);
    // k = 1, first result relevant: recall 1/2, RR 1, nDCG 1 (the best a list of one can do).
    expect(rounded(queryFigures(["x", "a"], new Set(["x", "y"]), 1))).toEqual([0.5, 1, 1]);
  });

  test("an id that comes back twice counts once; nothing back is all zeros", () => {
    expect(rounded(queryFigures(["x", "x", "y"], new Set(["x", "y"]), 3))).toEqual([1, 1, 1]);
    expect(queryFigures([], new Set(["x"]), 10)).toEqual({ recall: 0, reciprocalRank: 0, ndcg: 0, found: 0 });
  });
});

test("meanFigures averages each figure over the queries, every query counting the same", () => {
  const each = [queryFigures(["x"], new Set(["x"]), 3), queryFigures(["a", "b", "x"], new Set(["x", "y"]), 3), queryFigures([], new Set(["x"]), 3)];
  // recall (1 + 1/2 + 0) / 3 = 0.5; MRR (1 + 1/3 + 0) / 3 = 0.444444; nDCG (1 + 0.5/1.630930 + 0) / 3 = 0.435525
  const m = meanFigures(each);
  expect([m.recall, m.mrr, m.ndcg].map((x) => Number(x.toFixed(6)))).toEqual([0.5, 0.444444, 0.435525]);
  expect(meanFigures([])).toEqual({ recall: 0, mrr: 0, ndcg: 0 });
});
