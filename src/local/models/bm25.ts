// local-bm25: a sparse lexical model that needs no weights. A text becomes its terms' counts (index = murmur3 of
// the term); BM25 then scores a query against documents with the corpus's own statistics — in an index, the
// namespace's records; in a rerank, the documents given.
//
//   score(q, d) = Σ over the query's terms t:  idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
//   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))        (the form Lucene uses: never negative)
//
// A term repeated in the query counts once per repetition (as Lucene sums one clause per term occurrence).
import { murmur3 } from "./murmur3.js";
import { tokenize } from "./tokenize.js";

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Tokens read from one text; with truncate END the rest is ignored, with NONE a longer text is refused. */
export const BM25_MAX_TOKENS = 2048;

export interface TermCounts {
  indices: Uint32Array; // ascending
  values: Float32Array; // the term's count in the text
  tokens: string[]; // the term of each index (the first seen, should two terms share a hash)
  length: number; // tokens read
}

export class TooManyTokens extends Error {
  constructor(readonly tokens: number) {
    super(`has ${tokens} tokens; local-bm25 reads at most ${BM25_MAX_TOKENS} (truncate END reads the first ${BM25_MAX_TOKENS})`);
  }
}

/** A text's term counts (`truncate: "END"` keeps the first BM25_MAX_TOKENS tokens; "NONE" refuses a longer text). */
export function termCounts(text: string, truncate: "END" | "NONE" = "END"): TermCounts {
  let tokens = tokenize(text);
  if (tokens.length > BM25_MAX_TOKENS) {
    if (truncate === "NONE") throw new TooManyTokens(tokens.length);
    tokens = tokens.slice(0, BM25_MAX_TOKENS);
  }
  const counts = new Map<number, { n: number; token: string }>();
  for (const token of tokens) {
    const h = murmur3(token);
    const entry = counts.get(h);
    if (entry) entry.n++;
    else counts.set(h, { n: 1, token });
  }
  const sorted = [...counts.keys()].sort((a, b) => a - b);
  return {
    indices: Uint32Array.from(sorted),
    values: Float32Array.from(sorted, (h) => counts.get(h)!.n),
    tokens: sorted.map((h) => counts.get(h)!.token),
    length: tokens.length,
  };
}

/** The text's terms in order, one per position (the first BM25_MAX_TOKENS tokens, as termCounts reads them). */
export function termStream(text: string): Uint32Array {
  const tokens = tokenize(text);
  const n = Math.min(tokens.length, BM25_MAX_TOKENS);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = murmur3(tokens[i]);
  return out;
}

/** The query's distinct terms with how often each occurs in it. */
export function queryTerms(text: string): Map<number, number> {
  const terms = new Map<number, number>();
  for (const token of tokenize(text)) {
    const h = murmur3(token);
    terms.set(h, (terms.get(h) ?? 0) + 1);
  }
  return terms;
}

export function idf(documents: number, withTerm: number): number {
  return Math.log(1 + (documents - withTerm + 0.5) / (withTerm + 0.5));
}

/** One document's BM25 score, given its matched terms' counts and length and the corpus statistics. */
export function bm25(
  query: Map<number, number>,
  tf: (term: number) => number,
  length: number,
  stats: { documents: number; averageLength: number; withTerm: (term: number) => number },
): number {
  let score = 0;
  const norm = lengthNorm(length, stats.averageLength);
  for (const [term, times] of query) {
    const f = tf(term);
    if (f === 0) continue;
    score += termScore(times * idf(stats.documents, stats.withTerm(term)), f, norm);
  }
  return score;
}

/** The document-length part of BM25's denominator: k1 · (1 − b + b·|d|/avgdl). */
export function lengthNorm(length: number, averageLength: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * length) / (averageLength || 1));
}

/** One matched term's share of a score: `weight` is the query's count of the term times its idf. */
export function termScore(weight: number, tf: number, norm: number): number {
  return weight * ((tf * (BM25_K1 + 1)) / (tf + norm));
}

/** BM25 of a query against a small corpus held in memory (rerank): one score per document, in order. */
export function scoreCorpus(query: string, documents: string[]): number[] {
  const q = queryTerms(query);
  const docs = documents.map((d) => termCounts(d));
  const withTerm = new Map<number, number>();
  let total = 0;
  for (const d of docs) {
    total += d.length;
    for (const h of d.indices) if (q.has(h)) withTerm.set(h, (withTerm.get(h) ?? 0) + 1);
  }
  const stats = { documents: docs.length, averageLength: docs.length ? total / docs.length : 0, withTerm: (t: number) => withTerm.get(t) ?? 0 };
  return docs.map((d) => {
    const at = new Map<number, number>();
    d.indices.forEach((h, i) => at.set(h, d.values[i]));
    return bm25(q, (t) => at.get(t) ?? 0, d.length, stats);
  });
}

/** A rerank score in [0, 1): BM25 has no upper bound, the API promises a relevance between 0 and 1. */
export function normalized(score: number): number {
  return score / (score + 1);
}
