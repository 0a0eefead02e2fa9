// The lexical model's tokens: NFKC-normalised, lower-cased runs of Unicode letters and digits (a word's inner
// apostrophe or hyphen splits it: "don't" → "don", "t"). No stemming and no stop words: BM25's idf already gives
// common words almost no weight, and a stop-word list would be one language's.
const WORD = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(WORD) ?? [];
}
