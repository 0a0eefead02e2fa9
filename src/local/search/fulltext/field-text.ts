// One full-text field of a namespace in memory: its analyzer, its term dictionary (term → id, the postings' key) and
// its postings with positions (../text-postings.ts, shared with the records text path). Kept in step with the
// namespace's documents by add and remove; a removed document's terms are found by analysing its old text again.
import { Analyzer, type FullTextOptions } from "./analyzer.js";
import { FieldPostings } from "../text-postings.js";

export class FieldText {
  readonly analyzer: Analyzer;
  readonly postings = new FieldPostings();
  private readonly ids = new Map<string, number>();
  /** id → term. */
  readonly terms: string[] = [];

  constructor(options: FullTextOptions) {
    this.analyzer = new Analyzer(options);
  }

  /** The term's id, if any document ever held it. */
  id(term: string): number | undefined {
    return this.ids.get(term);
  }

  add(slot: number, text: string): void {
    const { terms, positions } = this.analyzer.analyze(text);
    const stream = new Uint32Array(terms.length);
    const counts = new Map<number, number>();
    for (let i = 0; i < terms.length; i++) {
      let id = this.ids.get(terms[i]);
      if (id === undefined) {
        id = this.terms.length;
        this.ids.set(terms[i], id);
        this.terms.push(terms[i]);
      }
      stream[i] = id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    this.postings.add(slot, { terms: [...counts.keys()], counts: [...counts.values()], length: terms.length, stream, streamPositions: positions });
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
