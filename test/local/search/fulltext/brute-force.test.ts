// Full-text search over the postings in memory equals a brute-force scoring (test/helpers/fulltext-reference.ts) for
// random corpora, writes (puts, overwrites, removals — before or after the postings exist), queries of every kind
// (terms, phrases with and without slop, phrase prefixes, prefixes, wildcards, fuzzy terms, nested bool clauses with
// boosts) and filters mixing metadata with $match_phrase / $match_all / $match_any: the same documents, the same
// scores, and the same top K — also for phrases taken from the documents themselves (and their words all required),
// searched between rewrites.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Analyzer, type FullTextOptions } from "../../../../src/local/search/fulltext/analyzer.js";
import { evaluate } from "../../../../src/local/search/fulltext/evaluate.js";
import type { FullTextQuery, PhraseTerm } from "../../../../src/local/search/fulltext/query.js";
import { documentText, filterMask, searchFullText } from "../../../../src/local/search/fulltext/search.js";
import { checkDocumentFilter } from "../../../../src/local/search/fulltext/filter.js";
import { NamespaceVectors, type MemoryBudget } from "../../../../src/local/memory/vectors.js";
import { ReferenceSearch } from "../../../helpers/fulltext-reference.js";
import type { Json } from "../../../../src/local/data/validate.js";

const noBudget: MemoryBudget = { take() {}, give() {} };
const SCHEMA = new Map<string, FullTextOptions>([
  ["title", { language: "en", stemming: true, stopWords: true }],
  ["body", { language: "en", stemming: false, stopWords: false }],
  ["tags", { language: "en", stemming: false, stopWords: false, ngram: { minGram: 2, maxGram: 3, prefixOnly: false } }],
]);
const WORDS = ["river", "rivers", "stone", "stones", "running", "runs", "lamp", "paper", "the", "a", "of", "e-mail", "cloud", "clouds", "lamps"];
const GROUPS = ["a", "b", "c"];

type Doc = Record<string, unknown>;
type Write = { kind: "put"; id: string; doc: Doc } | { kind: "remove"; id: string };

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(" "));
const doc: fc.Arbitrary<Doc> = fc.record(
  { title: text, body: text, tags: text, g: fc.constantFrom(...GROUPS), n: fc.integer({ min: 0, max: 5 }) },
  { requiredKeys: ["g", "n"] },
);
const id = fc.constantFrom(...Array.from({ length: 14 }, (_, i) => `d${i}`));
const write: fc.Arbitrary<Write> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("put" as const), id, doc }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), id }) },
);

const field = fc.constantFrom("title", "body", "tags");
const term = fc.constantFrom("river", "stone", "run", "running", "lamp", "paper", "cloud", "clouds", "the", "e", "mail", "ri", "ive", "sto", "missing");
const boost = fc.constantFrom(1, 1, 2, 0.5);
const leaf: fc.Arbitrary<FullTextQuery> = fc.oneof(
  fc.record({ kind: fc.constant("term" as const), field, term, boost }),
  fc.record({
    kind: fc.constant("phrase" as const),
    field,
    terms: fc.array(fc.record({ term, offset: fc.integer({ min: 0, max: 3 }) }), { minLength: 2, maxLength: 3 }),
    slop: fc.constantFrom(0, 0, 1, 2),
    prefixLast: fc.boolean(),
    boost,
  }),
  fc.record({ kind: fc.constant("prefix" as const), field, prefix: fc.constantFrom("ri", "st", "run", "c", "x"), boost }),
  fc.record({ kind: fc.constant("wildcard" as const), field, pattern: fc.constantFrom("r*s", "?amp*", "*o*", "cl?ud"), boost }),
  fc.record({ kind: fc.constant("fuzzy" as const), field, term: fc.constantFrom("rivr", "stome", "lmap", "clouds"), distance: fc.constantFrom(0, 1, 2), boost }),
);
const query: fc.Arbitrary<FullTextQuery> = fc.letrec<{ q: FullTextQuery }>((tie) => ({
  q: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record({
      kind: fc.constant("bool" as const),
      must: fc.array(tie("q"), { maxLength: 2 }),
      should: fc.array(tie("q"), { maxLength: 3 }),
      mustNot: fc.array(tie("q"), { maxLength: 1 }),
      boost,
    }),
  ),
})).q;
const matchText = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(" "));
const textField = fc.constantFrom("title", "body");
const simpleFilter: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ g: fc.constantFrom(...GROUPS) }),
  fc.record({ n: fc.record({ $gte: fc.integer({ min: 0, max: 5 }) }) }),
  fc.tuple(textField, fc.constantFrom("$match_phrase", "$match_all", "$match_any"), matchText).map(([f, op, t]) => ({ [f]: { [op]: t } })),
);
const filter: fc.Arbitrary<Json | undefined> = fc.oneof(
  fc.constant(undefined),
  simpleFilter,
  fc.array(simpleFilter, { minLength: 1, maxLength: 3 }).map((fs) => ({ $and: fs })),
  fc.array(simpleFilter, { minLength: 1, maxLength: 3 }).map((fs) => ({ $or: fs })),
);

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** A write to the namespace and to the reference's documents alike. */
function apply(w: Write, nv: NamespaceVectors, docs: Map<string, Doc>): void {
  if (w.kind === "put") {
    nv.put(w.id, new Float32Array(0), undefined, JSON.stringify(w.doc));
    docs.set(w.id, w.doc);
  } else {
    nv.remove(w.id);
    docs.delete(w.id);
  }
}

/** The search over the postings equals the reference over `docs`: the same documents, scores and top K. */
function expectSameAsReference(nv: NamespaceVectors, docs: Map<string, Doc>, q: FullTextQuery, f: Json | undefined, topK: number): void {
  const text = documentText(nv, SCHEMA);
  const expected = new ReferenceSearch(docs, SCHEMA).search(q, f);
  const got = new Map(evaluate(text, q, filterMask(nv, text, f)).map((h) => [nv.ids[h.slot]!, h.score]));
  expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [docId, score] of got) expect(close(score, expected.get(docId)!), `${docId}: ${score} vs ${expected.get(docId)}`).toBe(true);
  const top = searchFullText(nv, text, q, topK, f).hits.map((h) => h.score);
  const want = [...expected.values()].sort((a, b) => b - a).slice(0, topK);
  expect(top.length).toBe(want.length);
  top.forEach((s, i) => expect(close(s, want[i])).toBe(true));
}

describe("full-text search equals brute force", () => {
  // a search between writes leaves the postings settled in slot order; the writes after it (rewrites in place,
  // reused slots, removals) break that order again, and the last search must still see every document right
  it("for random corpora, writes, queries and filters, with a search between the writes", () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 30 }), fc.boolean(), fc.nat({ max: 30 }), query, filter, fc.integer({ min: 1, max: 5 }), (writes, indexFirst, searchAfter, q, f, topK) => {
        const nv = new NamespaceVectors(0, noBudget, "test");
        if (indexFirst) documentText(nv, SCHEMA);
        if (f !== undefined) checkDocumentFilter(f, new Set(SCHEMA.keys()), true);
        const docs = new Map<string, Doc>();
        writes.forEach((w, i) => {
          if (indexFirst && i === searchAfter) expectSameAsReference(nv, docs, q, f, topK);
          apply(w, nv, docs);
        });
        expectSameAsReference(nv, docs, q, f, topK);
      }),
      { numRuns: 400 },
    );
  });

  // phrases taken from the documents' own text match often, over few ids rewritten many times (slots rewritten in
  // place and reused): the lookups by galloping through lists settled between writes must find every occurrence;
  // the same words as a bool of required terms ("every word", $match_all) are found by the same lookups
  const fewIds = fc.constantFrom("d0", "d1", "d2", "d3", "d4", "d5");
  const rewrite: fc.Arbitrary<Write> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant("put" as const), id: fewIds, doc }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), id: fewIds }) },
  );
  it("for phrases taken from the documents, and their words all required, searched between rewrites of the same ids", () => {
    fc.assert(
      fc.property(
        fc.array(rewrite, { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat({ max: 40 }), { maxLength: 3 }),
        textField,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 2, max: 3 }),
        fc.constantFrom(0, 0, 1),
        fc.boolean(),
        filter,
        fc.option(fc.record({ boost: fc.constantFrom(1, 2, 0.5), termBoost: fc.constantFrom(1, 3) }), { freq: 2 }),
        (writes, searchesAfter, name, pick, from, length, slop, prefixLast, f, asAll) => {
          const puts = writes.flatMap((w) => (w.kind === "put" && typeof w.doc[name] === "string" ? [w.doc[name] as string] : []));
          if (puts.length === 0) return;
          const { terms, positions } = new Analyzer(SCHEMA.get(name)!).analyze(puts[pick % puts.length]);
          if (terms.length < length) return;
          const at = from % (terms.length - length + 1);
          const phrase: PhraseTerm[] = terms.slice(at, at + length).map((term, i) => ({ term, offset: positions[at + i] - positions[at] }));
          const q: FullTextQuery =
            asAll === null
              ? { kind: "phrase", field: name, terms: phrase, slop, prefixLast, boost: 1 }
              : { kind: "bool", must: phrase.map(({ term }) => ({ kind: "term", field: name, term, boost: asAll.termBoost })), should: [], mustNot: [], boost: asAll.boost };
          if (f !== undefined) checkDocumentFilter(f, new Set(SCHEMA.keys()), true);
          const nv = new NamespaceVectors(0, noBudget, "test");
          documentText(nv, SCHEMA);
          const docs = new Map<string, Doc>();
          writes.forEach((w, i) => {
            if (searchesAfter.includes(i)) expectSameAsReference(nv, docs, q, f, 3);
            apply(w, nv, docs);
          });
          expectSameAsReference(nv, docs, q, f, 3);
        },
      ),
      { numRuns: 400 },
    );
  });
});
