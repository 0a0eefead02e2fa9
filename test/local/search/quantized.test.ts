// The int8 first pass: the kernel's integer sums are exact (no int32 overflow at the largest dimension), the bound on
// what quantizing lost holds for every row, and a search through it returns exactly what scoring every record does —
// on data where it answers by itself rather than handing over to the float32 pass.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreEach } from "../../../src/local/search/exact.js";
import { QuantizedBlock, padToStep, quantizeQuery } from "../../../src/local/memory/quantized-block.js";
import { quantizedSearch } from "../../../src/local/search/quantized-search.js";
import { makeQuery, type Metric } from "../../../src/local/search/score.js";
import { NamespaceVectors } from "../../../src/local/memory/vectors.js";

const noBudget = { take() {}, give() {} };

function exactDot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

describe("the int8 kernel", () => {
  it.each([1, 63, 64, 65, 768, 1536, 20000])("sums Σ Q·V exactly at dimension %i, extreme values included", (dimension) => {
    const rows = 5;
    const block = QuantizedBlock.create(dimension, rows)!;
    const extreme = (i: number) => (i % 2 === 0 ? 1 : -1);
    const values = [
      Float32Array.from({ length: dimension }, (_, i) => extreme(i)), // every value at ±127
      Float32Array.from({ length: dimension }, () => 1), // the largest positive sum
      Float32Array.from({ length: dimension }, (_, i) => Math.sin(i) * 3),
      new Float32Array(dimension),
      Float32Array.from({ length: dimension }, (_, i) => (i === 0 ? 1000 : 0.001)),
    ];
    values.forEach((v, j) => block.set(j, v));
    for (const qv of [Float32Array.from({ length: dimension }, () => 1), Float32Array.from({ length: dimension }, (_, i) => extreme(i) * 7)]) {
      const q = quantizeQuery(qv, padToStep(dimension));
      block.scoreAll(q, rows);
      for (let j = 0; j < rows; j++) {
        const rowInts = block.rows.subarray(j * block.dimPadQ, (j + 1) * block.dimPadQ);
        expect(block.scores[j]).toBe(exactDot(q.values, rowInts));
      }
    }
  });

  it("bounds |q·v − scale_q·scale_v·Σ Q·V| by (|q| + |q − q̂|)·|v − v̂| + |q − q̂|·|v| for every row", () => {
    const vector = (dimension: number) => fc.array(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(0)), { minLength: dimension, maxLength: dimension });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }).chain((d) => fc.tuple(vector(d), fc.array(vector(d), { minLength: 1, maxLength: 6 }))), ([qRaw, rowsRaw]) => {
        const qv = Float32Array.from(qRaw);
        const block = QuantizedBlock.create(qv.length, rowsRaw.length)!;
        const rowValues = rowsRaw.map((r) => Float32Array.from(r));
        rowValues.forEach((v, j) => block.set(j, v));
        const q = quantizeQuery(qv, padToStep(qv.length));
        block.scoreAll(q, rowValues.length);
        const qNorm = Math.sqrt(exactDot(qv, qv));
        rowValues.forEach((v, j) => {
          const approx = q.scale * block.scale[j] * block.scores[j];
          const bound = (qNorm + q.loss) * block.loss[j] + q.loss * Math.sqrt(exactDot(v, v));
          const exact = exactDot(qv, v);
          expect(Math.abs(exact - approx)).toBeLessThanOrEqual(bound * (1 + 1e-9) + 1e-9 * (1 + Math.abs(exact)));
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe("a search through the int8 pass", () => {
  const dimension = 96;
  const count = 6000;
  const nv = new NamespaceVectors(dimension, noBudget, "test");
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  const centers = Array.from({ length: 12 }, () => Float32Array.from({ length: dimension }, random));
  for (let i = 0; i < count; i++) {
    const c = centers[i % centers.length];
    nv.put(`r${i}`, Float32Array.from(c, (x) => x + random() * 0.5), undefined, undefined);
  }
  for (let i = 0; i < count; i += 7) nv.remove(`r${i}`);

  it.each(["cosine", "dotproduct", "euclidean"] as Metric[])("answers by itself, exactly as scoring every record (%s)", (metric) => {
    for (let t = 0; t < 20; t++) {
      const q = makeQuery(Float32Array.from(centers[t % centers.length], (x) => x + random() * 0.5), undefined);
      const hits = quantizedSearch(nv, metric, q, 10);
      expect(hits, "the int8 pass handed over to the float32 one").toBeDefined();
      expect(hits!.map((h) => [h.id, h.score])).toEqual(scoreEach(nv, metric, q, 10, nv.liveSlots()).map((h) => [h.id, h.score]));
    }
  });
});

describe("the int8 pass shared with the worker thread", () => {
  it("gives the same answers when half the rows are scored on the other core", async () => {
    const dimension = 64;
    const nv = new NamespaceVectors(dimension, noBudget, "test");
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    for (let i = 0; i < 40_000; i++) nv.put(`r${i}`, Float32Array.from({ length: dimension }, random), undefined, undefined);
    const { kernelWorker } = await import("../../../src/local/memory/kernel-worker.js");
    for (let waited = 0; !kernelWorker() && waited < 100; waited++) await new Promise((r) => setTimeout(r, 50));
    expect(kernelWorker(), "the worker thread did not start").toBeDefined();
    for (let t = 0; t < 5; t++) {
      const q = makeQuery(Float32Array.from({ length: dimension }, random), undefined);
      const hits = quantizedSearch(nv, "cosine", q, 10);
      expect(hits!.map((h) => [h.id, h.score])).toEqual(scoreEach(nv, "cosine", q, 10, nv.liveSlots()).map((h) => [h.id, h.score]));
    }
  });
});
