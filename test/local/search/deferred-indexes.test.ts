// A namespace loaded from lmdb builds its int8 copy and its metadata index after the load (vectors.ts, deferIndexes):
// writes before, during and after that catch-up, and filters asked before it ends, see exactly the records there are.
import { describe, expect, it } from "vitest";
import { scoreEach, searchNamespace } from "../../../src/local/search/exact.js";
import { compileFilter } from "../../../src/local/search/filter.js";
import { quantizedSearch } from "../../../src/local/search/quantized-search.js";
import { makeQuery } from "../../../src/local/search/score.js";
import { NamespaceVectors } from "../../../src/local/memory/vectors.js";

const noBudget = { take() {}, give() {} };
const dimension = 16;
const vector = (i: number) => Float32Array.from({ length: dimension }, (_, k) => Math.sin(i * 7 + k));

/** The slots whose metadata matches, found by reading every record's JSON (what the index must agree with). */
function matching(nv: NamespaceVectors, filter: Record<string, unknown>): number[] {
  const predicate = compileFilter(filter as never)!.keeps;
  return nv.liveSlots().filter((s) => predicate(JSON.parse(nv.metadataJson[s] ?? "{}")));
}

describe("indexes built after a load", () => {
  it("agree with the records whatever was written before, during and after the catch-up", () => {
    const nv = new NamespaceVectors(dimension, noBudget, "test");
    nv.deferIndexes();
    for (let i = 0; i < 3000; i++) nv.put(`r${i}`, vector(i), undefined, JSON.stringify({ g: i % 3, n: i }));
    const filters = [{ g: 1 }, { n: { $gte: 2900 } }, { g: { $ne: 2 } }, { $or: [{ g: 0 }, { n: { $lt: 10 } }] }];

    // writes before any catch-up: a rewrite, a removal, a new record in a freed slot
    nv.put("r5", vector(5), undefined, JSON.stringify({ g: 2, n: 5 }));
    nv.remove("r2990");
    nv.put("fresh", vector(9999), undefined, JSON.stringify({ g: 1, n: 9999 }));
    expect(quantizedSearch(nv, "cosine", makeQuery(vector(1), undefined), 5), "the int8 copy is not whole yet").toBeUndefined();
    for (const metric of ["cosine", "dotproduct", "euclidean"] as const) {
      // meanwhile the float32 pass answers, exactly
      const q = makeQuery(vector(metric.length), undefined);
      expect(searchNamespace(nv, metric, q, 10).map((h) => h.id)).toEqual(scoreEach(nv, metric, q, 10, nv.liveSlots()).map((h) => h.id));
    }

    nv.catchUp(700); // part-way: some rows indexed, most not
    nv.put("r10", vector(10), undefined, JSON.stringify({ g: 0, n: 10 })); // below the mark
    nv.put("r2500", vector(2500), undefined, JSON.stringify({ g: 0, n: 1 })); // past it
    nv.remove("r100");
    nv.remove("r2800");

    // a filter asked now finishes the metadata index first
    for (const filter of filters) expect(nv.metadataIndex().select(filter, () => nv.liveSlots()).sort((a, b) => a - b)).toEqual(matching(nv, filter));

    while (!nv.catchUp(700));
    nv.put("r7", vector(7), undefined, JSON.stringify({ g: 1, n: 7 }));
    for (const filter of filters) expect(nv.metadataIndex().select(filter, () => nv.liveSlots()).sort((a, b) => a - b)).toEqual(matching(nv, filter));
    for (let t = 0; t < 10; t++) {
      const q = makeQuery(vector(t * 31), undefined);
      expect(quantizedSearch(nv, "cosine", q, 10)?.map((h) => h.id)).toEqual(scoreEach(nv, "cosine", q, 10, nv.liveSlots()).map((h) => h.id));
    }
  });
});
