// One full-text field of a namespace in memory: its analyzer, its term dictionary (term → id, the postings' key) and
// its postings with positions (../text-postings.ts, shared with the records text path). Kept in step with the
// namespace's documents by add and remove; a removed document's terms are found by analysing its old text again.
import { Analyzer, type FullTextOptions } from "./analyzer.js";
import { FieldPostings } from "../../memory/text-postings.js";

export class FieldText {
  readonly analyzer: Analyzer;
  readonly postings = new FieldPostings();
  private readonly ids = new Map<string, number>();
  /** id → term. */
  readonly terms: string[] = [];
  private seen = new Uint32Array(1024);

  constructor(options: FullTextOptions) {
    this.analyzer = new Analyzer(options);
  }

  /** The term's id, if any document ever held it. */
  id(term: string): number | undefined {
    return this.ids.get(term);
  }

  add(slot: number, text: string): void {
    const { terms, positions } = this.analyzer.analyze(text);
    // per distinct term (in order of first appearance): its count, then its positions grouped (a counting sort)
    const ids = new Int32Array(terms.length);
    const distinct: number[] = [];
    const seen = this.scratch(this.terms.length + terms.length);
    for (let i = 0; i < terms.length; i++) {
      let id = this.ids.get(terms[i]);
      if (id === undefined) {
        id = this.terms.length;
        this.ids.set(terms[i], id);
        this.terms.push(terms[i]);
      }
      ids[i] = id;
      if (seen[id] === 0) distinct.push(id);
      seen[id]++;
    }
    const counts = new Uint32Array(distinct.length);
    const starts = new Uint32Array(distinct.length + 1);
    for (let k = 0; k < distinct.length; k++) {
      counts[k] = seen[distinct[k]];
      starts[k + 1] = starts[k] + counts[k];
      seen[distinct[k]] = k + 1; // from here: the term's place in `distinct`, plus one
    }
    const grouped = new Uint32Array(terms.length);
    const fill = starts.slice(0, distinct.length);
    for (let i = 0; i < terms.length; i++) grouped[fill[seen[ids[i]] - 1]++] = positions[i];
    for (const id of distinct) seen[id] = 0;
    this.postings.add(slot, { terms: distinct, counts, length: terms.length, positionsOf: (k) => grouped.subarray(starts[k], starts[k + 1]) });
  }

  /** A zeroed per-term array of at least `n` entries, reused between documents (add leaves it zeroed). */
  private scratch(n: number): Uint32Array {
    if (this.seen.length < n) this.seen = new Uint32Array(Math.max(n, this.seen.length * 2));
    return this.seen;
  }

  remove(slot: number, text: string): void {
    const distinct = new Set<number>();
    for (const term of this.analyzer.analyze(text).terms) {
      const id = this.ids.get(term);
      if (id !== undefined) distinct.add(id);
    }
    this.postings.remove(slot, [...distinct]);
  }

  /** Term ids whose term passes `test` (prefix, wildcard and fuzzy expansion), at most `limit` of them. */
  expand(test: (term: string) => boolean, limit: number): number[] {
    const out: number[] = [];
    for (let id = 0; id < this.terms.length && out.length < limit; id++) {
      if (this.postings.documentFrequency(id) > 0 && test(this.terms[id])) out.push(id);
    }
    return out;
  }
}
