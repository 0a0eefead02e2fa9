// The lexical model's parts: tokens, murmur3 indices (known values of the reference MurmurHash3_x86_32), counts,
// and BM25 over a corpus in memory (what local-bm25-rerank scores), against values computed by hand.
import { describe, expect, it } from "vitest";
import { murmur3 } from "../../../src/local/models/murmur3.js";
import { tokenize } from "../../../src/local/models/tokenize.js";
import { normalized, scoreCorpus, termCounts, TooManyTokens, BM25_MAX_TOKENS } from "../../../src/local/models/bm25.js";

describe("local-bm25", () => {
  it("tokenises Unicode words, lower-cased and NFKC-normalised", () => {
    expect(tokenize("Héllo, WORLD! Ｆｕｌｌ-width 42x don't 東京")).toEqual(["héllo", "world", "full", "width", "42x", "don", "t", "東京"]);
    expect(tokenize("  …  ")).toEqual([]);
  });

  it("hashes terms with MurmurHash3 x86_32, seed 0", () => {
    expect(murmur3("")).toBe(0);
    expect(murmur3("hello")).toBe(613153351);
    expect(murmur3("The quick brown fox jumps over the lazy dog")).toBe(0x2e4ff723);
  });

  it("counts terms at ascending indices; truncate END keeps the first tokens, NONE refuses", () => {
    const c = termCounts("b a b");
    expect(Array.from(c.indices)).toEqual([murmur3("a"), murmur3("b")].sort((x, y) => x - y));
    expect(c.tokens.map((t, i) => [t, c.values[i]]).sort()).toEqual([["a", 1], ["b", 2]]);
    const long = Array.from({ length: BM25_MAX_TOKENS + 5 }, (_, i) => `w${i}`).join(" ");
    expect(termCounts(long).length).toBe(BM25_MAX_TOKENS);
    expect(() => termCounts(long, "NONE")).toThrow(TooManyTokens);
  });

  it("scores a corpus by BM25 (k1 1.2, b 0.75) as computed by hand", () => {
    // N 3, avgdl 3; "banana": n 2, idf ln(1.6); d1 |3|: 2.2/2.2; d2 |2|: 2.2/1.9.
    const [d1, d2, d3] = scoreCorpus("banana", ["apple banana apple", "banana cherry", "cherry date elderberry fig"]);
    expect(d1).toBeCloseTo(Math.log(1.6), 10);
    expect(d2).toBeCloseTo(Math.log(1.6) * (2.2 / 1.9), 10);
    expect(d3).toBe(0);
    expect(normalized(1)).toBe(0.5);
  });
});
