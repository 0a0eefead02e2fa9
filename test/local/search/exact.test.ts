// Search from memory equals brute force: every record scored (search/score.ts), filtered by the filter as a predicate
// (search/filter.ts), ordered by the float32 score then id — for every metric, dense, sparse and hybrid, with and
// without filters, on random data with many ties (duplicated vectors and a small value range).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFilter } from "../../../src/local/search/filter.js";
import { makeQuery, score, type Metric } from "../../../src/local/search/score.js";
import type { SparseVector } from "../../../src/local/storage/codec.js";
import { float32Double } from "../../../src/common/float32.js";
import { client, makeIndex, openEnv, type Env } from "../setup.js";

let env: Env;
beforeAll(() => {
  env = openEnv();
});
afterAll(() => env.close());

let spaceNo = 0;

interface Rec { id: string; values: number[]; sparseValues?: { indices: number[]; values: number[] }; metadata?: Record<string, unknown> }

const genres = ["a", "b", "c", "d"];
const metadataArb = fc.record(
  { genre: fc.constantFrom(...genres), year: fc.integer({ min: 1990, max: 1999 }), tags: fc.subarray(["x", "y", "z"]), ok: fc.boolean() },
  { requiredKeys: [] },
);
const filterArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ genre: fc.constantFrom(...genres) }),
  fc.record({ genre: fc.record({ $ne: fc.constantFrom(...genres) }) }),
  fc.record({ genre: fc.record({ $in: fc.subarray(genres) }) }),
  fc.record({ genre: fc.record({ $nin: fc.subarray(genres) }) }),
  fc.record({ year: fc.record({ $gte: fc.integer({ min: 1989, max: 2000 }), $lt: fc.integer({ min: 1989, max: 2000 }) }) }),
  fc.record({ year: fc.record({ $gt: fc.integer({ min: 1989, max: 2000 }) }) }),
  fc.record({ year: fc.record({ $lte: fc.integer({ min: 1989, max: 2000 }) }) }),
  fc.record({ tags: fc.constantFrom("x", "y", "z") }),
  fc.record({ ok: fc.record({ $exists: fc.boolean() }) }),
  fc.record({ $or: fc.tuple(fc.record({ genre: fc.constantFrom(...genres) }), fc.record({ ok: fc.boolean() })) }),
  fc.record({ $and: fc.tuple(fc.record({ tags: fc.record({ $in: fc.subarray(["x", "y"]) }) }), fc.record({ year: fc.record({ $gt: fc.constant(1994) }) })) }),
);

const small = fc.integer({ min: -4, max: 4 }).map((n) => n / 4); // few distinct values: many ties
const sparseArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 5 })
  .chain((indices) => fc.array(small, { minLength: indices.length, maxLength: indices.length }).map((values) => ({ indices, values })));

function brute(records: Rec[], metric: Metric, query: { vector?: number[]; sparseVector?: { indices: number[]; values: number[] } }, topK: number, filter?: Record<string, unknown>) {
  const predicate = compileFilter(filter as never)?.keeps;
  const sparse = (s?: { indices: number[]; values: number[] }): SparseVector | undefined =>
    s && { indices: Uint32Array.from(s.indices), values: Float32Array.from(s.values) };
  const q = makeQuery(query.vector && Float32Array.from(query.vector), sparse(query.sparseVector));
  const scored = records
    .filter((r) => !predicate || predicate((r.metadata ?? {}) as never))
    .map((r) => {
      const values = Float32Array.from(r.values);
      let n = 0;
      for (const x of values) n += x * x;
      return { id: r.id, score: score(metric, q, { id: r.id, values, norm: Math.sqrt(n), sparse: sparse(r.sparseValues) }) };
    });
  const sign = metric === "euclidean" ? 1 : -1;
  scored.sort((a, b) => sign * (Math.fround(a.score) - Math.fround(b.score)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, topK).map((h) => ({ id: h.id, values: [], score: float32Double(h.score) }));
}

/** Random records; a third of them copies of earlier ones (equal scores), ids shuffled against insertion order. */
function recordsArb(count: number, dim: number, withSparse: boolean, withDense = true) {
  const one = fc.record({
    values: withDense ? fc.array(fc.oneof(small, fc.double({ min: -1, max: 1, noNaN: true })), { minLength: dim, maxLength: dim }) : fc.constant([]),
    sparse: withSparse ? fc.option(sparseArb, { nil: undefined }) : fc.constant(undefined),
    metadata: fc.option(metadataArb, { nil: undefined }),
  });
  return fc.array(one, { minLength: 1, maxLength: count }).map((list) =>
    list.map((r, i): Rec => {
      const src = i % 3 === 2 ? list[Math.floor(i / 2)] : r;
      return {
        id: `r${(i * 7919) % 10007}`,
        values: src.values,
        ...(src.sparse ? { sparseValues: src.sparse } : {}),
        ...(r.metadata ? { metadata: r.metadata as Record<string, unknown> } : {}),
      };
    }),
  );
}

async function load(metric: Metric, records: Rec[], dim: number, vectorType: "dense" | "sparse") {
  const api = client(env.store, makeIndex({ space: `i:p${++spaceNo}`, dimension: dim, metric, vectorType }));
  for (let i = 0; i < records.length; i += 1000) expect((await api.post("/vectors/upsert", { vectors: records.slice(i, i + 1000) })).status).toBe(200);
  return api;
}

async function check(metric: Metric, records: Rec[], dim: number, vectorType: "dense" | "sparse", query: Record<string, unknown>, topK: number, filter?: Record<string, unknown>, loaded?: ReturnType<typeof client>) {
  const api = loaded ?? (await load(metric, records, dim, vectorType));
  const res = await api.post("/query", { ...query, topK, ...(filter ? { filter } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.matches).toEqual(brute(records, metric, query as never, topK, filter));
}

const metrics: Metric[] = ["cosine", "dotproduct", "euclidean"];

describe("search equals brute force", () => {
  for (const metric of metrics) {
    it(`dense, ${metric}, with and without filters`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 20 }).chain((dim) =>
            fc.tuple(fc.constant(dim), recordsArb(120, dim, false), fc.array(small, { minLength: dim, maxLength: dim }), fc.integer({ min: 1, max: 30 }), fc.option(filterArb, { nil: undefined })),
          ),
          async ([dim, records, vector, topK, filter]) => check(metric, records, dim, "dense", { vector }, topK, filter),
        ),
        { numRuns: 40 },
      );
    });
  }

  it("hybrid (dense + sparse, dotproduct), with and without filters", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }).chain((dim) =>
          fc.tuple(fc.constant(dim), recordsArb(120, dim, true), fc.array(small, { minLength: dim, maxLength: dim }), sparseArb, fc.integer({ min: 1, max: 30 }), fc.option(filterArb, { nil: undefined })),
        ),
        async ([dim, records, vector, sparseVector, topK, filter]) => check("dotproduct", records, dim, "dense", { vector, sparseVector }, topK, filter),
      ),
      { numRuns: 40 },
    );
  });

  it("sparse (a sparse index, and sparse-only queries on a hybrid one), with and without filters", async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb(120, 0, true, false).map((rs) => rs.map((r) => ({ ...r, sparseValues: r.sparseValues ?? { indices: [21], values: [0.5] } }))),
        sparseArb,
        fc.integer({ min: 1, max: 30 }),
        fc.option(filterArb, { nil: undefined }),
        async (records, sparseVector, topK, filter) => check("dotproduct", records, 0, "sparse", { sparseVector }, topK, filter),
      ),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(recordsArb(120, 4, true), sparseArb, fc.integer({ min: 1, max: 30 }), async (records, sparseVector, topK) =>
        check("dotproduct", records, 4, "dense", { sparseVector }, topK),
      ),
      { numRuns: 20 },
    );
  });

  it("after records are rewritten with other metadata and deleted (the indexes follow)", async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb(80, 3, true),
        fc.array(fc.option(metadataArb, { nil: undefined }), { minLength: 80, maxLength: 80 }),
        fc.array(fc.nat(2), { minLength: 80, maxLength: 80 }),
        fc.array(small, { minLength: 3, maxLength: 3 }),
        sparseArb,
        filterArb,
        async (records, metadata, fate, vector, sparseVector, filter) => {
          const api = await load("dotproduct", records, 3, "dense");
          const kept = new Map(records.map((r) => [r.id, r]));
          const rewritten: Rec[] = [];
          records.forEach((r, i) => {
            if (fate[i] === 1) {
              const next: Rec = { id: r.id, values: r.values, ...(r.sparseValues ? { sparseValues: r.sparseValues } : {}), ...(metadata[i] ? { metadata: metadata[i] as Record<string, unknown> } : {}) };
              rewritten.push(next);
              kept.set(r.id, next);
            } else if (fate[i] === 2) kept.delete(r.id);
          });
          if (rewritten.length > 0) expect((await api.post("/vectors/upsert", { vectors: rewritten })).status).toBe(200);
          const gone = records.filter((_, i) => fate[i] === 2).map((r) => r.id);
          if (gone.length > 0) expect((await api.post("/vectors/delete", { ids: [...new Set(gone)] })).status).toBe(200);
          await check("dotproduct", [...kept.values()], 3, "dense", { vector, sparseVector }, 20, filter, api);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("a namespace of 6,000 records with duplicated vectors (the kernel's candidates, widened when ties need it)", async () => {
    const dim = 24;
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const base = Array.from({ length: 200 }, () => Array.from({ length: dim }, rand));
    const records: Rec[] = Array.from({ length: 6000 }, (_, i) => ({
      id: `d${(i * 7919) % 6007}`,
      values: i % 2 === 0 ? base[i % 200] : Array.from({ length: dim }, rand),
      metadata: { genre: genres[i % 4], year: 1990 + (i % 10) },
    }));
    for (const metric of metrics) {
      const api = await load(metric, records, dim, "dense");
      for (const [vector, topK, filter] of [
        [base[0], 10, undefined],
        [base[3], 100, undefined],
        [Array.from({ length: dim }, rand), 25, { genre: { $ne: "a" } }],
        [Array.from({ length: dim }, rand), 5, { year: 1993 }],
        [Array.from({ length: dim }, () => 0), 7, undefined],
      ] as const) {
        await check(metric, records, dim, "dense", { vector }, topK, filter as Record<string, unknown> | undefined, api);
      }
    }
  });
});
