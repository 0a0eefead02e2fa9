// Full-text search written out by brute force, for tests and the bench to hold the engine to: every document analysed
// again, the statistics counted from scratch, each query clause decided document by document — the semantics of
// src/local/search/fulltext/query.ts, without postings, dictionaries or workspaces.
import { Analyzer, type FullTextOptions } from "../../src/local/search/fulltext/analyzer.js";
import { wildcardMatcher, withinEdits, type FullTextQuery, type PhraseTerm } from "../../src/local/search/fulltext/query.js";
import { compileFilter } from "../../src/local/search/filter.js";
import type { Json, JsonObject } from "../../src/local/data/validate.js";

type Doc = Record<string, unknown>;
interface Analysed { terms: string[]; positions: number[]; tf: Map<string, number> }
interface FieldStats { docs: Map<string, Analysed>; df: Map<string, number>; n: number; avgdl: number }

const K1 = 1.2;
const B = 0.75;

export class ReferenceSearch {
  private readonly fields = new Map<string, FieldStats & { analyzer: Analyzer }>();

  constructor(private readonly docs: ReadonlyMap<string, Doc>, schema: ReadonlyMap<string, FullTextOptions>) {
    for (const [name, options] of schema) {
      const analyzer = new Analyzer(options);
      const analysed = new Map<string, Analysed>();
      const df = new Map<string, number>();
      let total = 0;
      for (const [id, doc] of docs) {
        const value = doc[name];
        if (typeof value !== "string") continue;
        const { terms, positions } = analyzer.analyze(value);
        const tf = new Map<string, number>();
        for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
        for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
        analysed.set(id, { terms, positions, tf });
        total += terms.length;
      }
      this.fields.set(name, { analyzer, docs: analysed, df, n: analysed.size, avgdl: analysed.size ? total / analysed.size : 0 });
    }
  }

  /** Every document the query matches within the filter, with its score. */
  search(q: FullTextQuery, filter?: Json): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, doc] of this.docs) {
      if (filter !== undefined && !this.keeps(filter as JsonObject, id, doc)) continue;
      const r = this.clause(q, id);
      if (r !== undefined) out.set(id, r);
    }
    return out;
  }

  private idf(f: FieldStats, term: string): number {
    const n = f.df.get(term) ?? 0;
    return Math.log(1 + (f.n - n + 0.5) / (n + 0.5));
  }

  private bm25(f: FieldStats, weight: number, tf: number, length: number): number {
    return (weight * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * length) / (f.avgdl || 1)));
  }

  /** The clause's score for the document, or undefined when it does not match. */
  private clause(q: FullTextQuery, id: string): number | undefined {
    if (q.kind === "none") return undefined;
    if (q.kind === "bool") {
      const must = q.must.map((c) => this.clause(c, id));
      const should = q.should.map((c) => this.clause(c, id));
      if (must.some((s) => s === undefined)) return undefined;
      if (q.mustNot.some((c) => this.clause(c, id) !== undefined)) return undefined;
      if (must.length === 0 && should.every((s) => s === undefined)) return undefined;
      let score = 0;
      for (const s of must) score += s!;
      for (const s of should) if (s !== undefined) score += s;
      return q.boost * score;
    }
    const f = this.fields.get(q.field);
    const d = f?.docs.get(id);
    if (!f || !d) return undefined;
    switch (q.kind) {
      case "term": {
        const tf = d.tf.get(q.term) ?? 0;
        return tf === 0 ? undefined : this.bm25(f, q.boost * this.idf(f, q.term), tf, d.terms.length);
      }
      case "prefix":
        return [...d.tf.keys()].some((t) => t.startsWith(q.prefix)) ? q.boost : undefined;
      case "wildcard": {
        const test = wildcardMatcher(q.pattern);
        return [...d.tf.keys()].some(test) ? q.boost : undefined;
      }
      case "fuzzy": {
        let best: number | undefined;
        for (const [t, tf] of d.tf) {
          if (!withinEdits(t, q.term, q.distance)) continue;
          const s = this.bm25(f, q.boost * this.idf(f, t), tf, d.terms.length);
          if (best === undefined || s > best) best = s;
        }
        return best;
      }
      case "phrase": {
        if (!q.prefixLast) return this.phrase(f, d, q.terms, q.slop, q.boost);
        const last = q.terms[q.terms.length - 1];
        let score: number | undefined;
        for (const t of f.df.keys()) {
          if (!t.startsWith(last.term)) continue;
          const s = this.phrase(f, d, [...q.terms.slice(0, -1), { term: t, offset: last.offset }], q.slop, q.boost);
          if (s !== undefined) score = (score ?? 0) + s;
        }
        return score;
      }
    }
  }

  private phrase(f: FieldStats, d: Analysed, terms: PhraseTerm[], slop: number, boost: number): number | undefined {
    const freq = phraseCount(d, terms, slop);
    if (freq === 0) return undefined;
    let weight = 0;
    for (const t of terms) weight += this.idf(f, t.term);
    return this.bm25(f, boost * weight, freq, d.terms.length);
  }

  private keeps(filter: JsonObject, id: string, doc: Doc): boolean {
    return Object.entries(filter).every(([key, value]) => {
      if (key === "$and") return (value as JsonObject[]).every((f) => this.keeps(f, id, doc));
      if (key === "$or") return (value as JsonObject[]).some((f) => this.keeps(f, id, doc));
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        return Object.entries(value).every(([op, arg]) => {
          if (!op.startsWith("$match_")) return compileFilter({ [key]: { [op]: arg } })!.keeps(doc);
          const f = this.fields.get(key)!;
          const d = f.docs.get(id);
          const { terms, positions } = f.analyzer.analyze(arg as string);
          if (!d || terms.length === 0) return false;
          if (op === "$match_any") return terms.some((t) => d.tf.has(t));
          if (op === "$match_all") return terms.every((t) => d.tf.has(t));
          return phraseCount(d, terms.map((term, i) => ({ term, offset: positions[i] - positions[0] })), 0) > 0;
        });
      }
      return compileFilter({ [key]: value as Json })!.keeps(doc);
    });
  }
}

/** Start positions of the first term from which every term lies within `slop` of its place. */
function phraseCount(d: Analysed, terms: PhraseTerm[], slop: number): number {
  let count = 0;
  for (let k = 0; k < d.terms.length; k++) {
    if (d.terms[k] !== terms[0].term) continue;
    const start = d.positions[k] - terms[0].offset;
    const all = terms.every((t) => d.terms.some((term, i) => term === t.term && Math.abs(d.positions[i] - (start + t.offset)) <= slop));
    if (all) count++;
  }
  return count;
}
