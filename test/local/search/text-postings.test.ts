// A field's postings through random writes (new slots, rewrites in place, removals, reused slots) and the settling a
// phrase search does between them: a settled list holds exactly the live documents of its term, in ascending slots,
// each with the count and positions it was added with; seeking finds what a scan from the same place finds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FieldPostings } from "../../../src/local/memory/text-postings.js";

const TERMS = 6;
const SLOTS = 400;

/** A document: for each term it holds, its positions (its count is their number). */
type Doc = Map<number, number[]>;

const doc: fc.Arbitrary<Doc> = fc
  .uniqueArray(fc.integer({ min: 0, max: TERMS - 1 }), { minLength: 1, maxLength: TERMS })
  .chain((terms) => fc.tuple(...terms.map((t) => fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 4 }).map((ps) => [t, ps.sort((a, b) => a - b)] as const))))
  .map((entries) => new Map(entries));

type Step = { kind: "put"; slot: number; doc: Doc } | { kind: "remove"; slot: number } | { kind: "settle" };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("put" as const), slot: fc.integer({ min: 0, max: SLOTS - 1 }), doc }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), slot: fc.integer({ min: 0, max: SLOTS - 1 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "settle" as const }) },
);

function put(postings: FieldPostings, slot: number, d: Doc): void {
  const terms = [...d.keys()];
  postings.add(slot, { terms, counts: terms.map((t) => d.get(t)!.length), length: 10, positionsOf: (i) => d.get(terms[i])! });
}

describe("field postings", () => {
  it("settle into slot order with exactly the live documents, and seek finds what a scan finds", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 600 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: SLOTS })), { minLength: 1, maxLength: 20 }), (steps, seeks) => {
        const postings = new FieldPostings();
        const docs = new Map<number, Doc>();
        const check = () => {
          for (let term = 0; term < TERMS; term++) {
            const holders = [...docs].filter(([, d]) => d.has(term)).sort(([a], [b]) => a - b);
            const list = postings.list(term);
            if (holders.length === 0) {
              expect(list?.live ?? 0).toBe(0);
              continue;
            }
            list!.settle(postings.generations);
            expect(list!.live).toBe(holders.length);
            const live = Array.from({ length: list!.size }, (_, i) => i).filter((i) => list!.generations[i] === postings.generations[list!.slots[i]]);
            expect(live.map((i) => list!.slots[i])).toEqual(holders.map(([slot]) => slot));
            expect(live.map((i) => [list!.counts[i], [...list!.positionsOf(i)]])).toEqual(holders.map(([, d]) => [d.get(term)!.length, d.get(term)]));
            for (let i = 1; i < list!.size; i++) expect(list!.slots[i]).toBeGreaterThanOrEqual(list!.slots[i - 1]);
            for (const [from, slot] of seeks) {
              const start = from % (list!.size + 1);
              let scan = start;
              while (scan < list!.size && list!.slots[scan] < slot) scan++;
              expect(list!.seek(slot, start)).toBe(scan);
            }
          }
        };
        for (const s of steps) {
          if (s.kind === "settle") {
            check();
            continue;
          }
          const old = docs.get(s.slot);
          if (old) postings.remove(s.slot, [...old.keys()]);
          docs.delete(s.slot);
          if (s.kind === "put") {
            put(postings, s.slot, s.doc);
            docs.set(s.slot, s.doc);
          }
        }
        check();
      }),
      { numRuns: 200 },
    );
  });
});
