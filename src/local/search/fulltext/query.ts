// A full-text query as the engine runs it (the text clause and query_string syntax both become one): terms already
// analysed by their field's analyzer. Scores follow Lucene's BM25 (k1 1.2, b 0.75, ../../models/bm25.ts):
// - term: boost · idf · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl));
// - phrase: the same with the phrase's frequency in the document as tf and the sum of its terms' idf as idf; with a
//   slop, a phrase occurrence is a start position where every term lies within `slop` positions of its place;
//   a phrase whose last word is a prefix ("quick bro"*) sums the phrases of each term the prefix expands to;
// - prefix and wildcard: a constant `boost` for every document holding an expanded term;
// - fuzzy: the best BM25 term score among the terms within the edit distance;
// - bool: matches when every must clause does, no must_not clause does and, without must clauses, at least one should
//   clause does; its score is boost · the sum of its matching must and should clauses' scores.
export type FullTextQuery =
  | { kind: "term"; field: string; term: string; boost: number }
  | { kind: "phrase"; field: string; terms: PhraseTerm[]; slop: number; prefixLast: boolean; boost: number }
  | { kind: "prefix"; field: string; prefix: string; boost: number }
  | { kind: "wildcard"; field: string; pattern: string; boost: number }
  | { kind: "fuzzy"; field: string; term: string; distance: number; boost: number }
  | { kind: "bool"; must: FullTextQuery[]; should: FullTextQuery[]; mustNot: FullTextQuery[]; boost: number }
  | { kind: "none" };

/** A phrase's term and its place in the phrase (its word's position in the query text: stop words leave gaps). */
export interface PhraseTerm { term: string; offset: number }

/** Prefix, wildcard and fuzzy terms expand to at most this many terms of the field (the most a query reads). */
export const MAX_EXPANSIONS = 128;

/** Whether `term` matches a wildcard pattern (`*` any run of characters, `?` one character). */
export function wildcardMatcher(pattern: string): (term: string) => boolean {
  const source = [...pattern].map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.|+()[\]{}]/g, "\\$&"))).join("");
  const re = new RegExp(`^${source}$`, "su");
  return (term) => re.test(term);
}

/** The Damerau–Levenshtein (optimal string alignment) distance of a and b is at most `max`. */
export function withinEdits(a: string, b: string, max: number): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return false;
  let prev2: number[] = [];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return false;
    prev2 = prev;
    prev = row;
  }
  return prev[y.length] <= max;
}
