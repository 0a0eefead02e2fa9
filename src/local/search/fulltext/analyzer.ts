// How a full-text field's text becomes terms, as the service documents it: NFKC-normalised, lower-cased runs of
// Unicode letters and digits (punctuation and spaces split: "black-throated" → black, throated), tokens longer than 40
// characters dropped; then, as the field asks, stop words removed and words stemmed in its language, or each word cut
// into character n-grams. Every term keeps the position of the word it came from (a removed stop word leaves a gap, so
// a phrase matches only with the same spacing; a word's n-grams share its position).
import { tokenize } from "../../models/tokenize.js";
import { language } from "./languages.js";

export interface FullTextOptions {
  language: string;
  stemming: boolean;
  stopWords: boolean;
  ngram?: { minGram: number; maxGram: number; prefixOnly: boolean };
}

export interface Analysed {
  /** The terms in text order. */
  terms: string[];
  /** Each term's position (its word's index in the text). */
  positions: number[];
  /** Words read (the 10,000-token limit counts these). */
  words: number;
}

const MAX_TOKEN_CHARS = 40;
const STEM_CACHE_LIMIT = 200_000;

export class Analyzer {
  private readonly stem?: (word: string) => string;
  private readonly stopWords?: ReadonlySet<string>;
  private readonly stems = new Map<string, string>();

  constructor(readonly options: FullTextOptions) {
    const lang = language(options.language);
    if (!lang) throw new Error(`unknown full-text language ${JSON.stringify(options.language)}`);
    if (options.stemming && !options.ngram) this.stem = lang.stem;
    if (options.stopWords && !options.ngram) this.stopWords = new Set(lang.stopWords);
  }

  analyze(text: string): Analysed {
    const words = tokenize(text);
    const terms: string[] = [];
    const positions: number[] = [];
    for (let p = 0; p < words.length; p++) {
      const word = words[p];
      if (word.length > MAX_TOKEN_CHARS) continue;
      if (this.options.ngram) {
        for (const gram of ngrams(word, this.options.ngram)) {
          terms.push(gram);
          positions.push(p);
        }
        continue;
      }
      if (this.stopWords?.has(word)) continue;
      terms.push(this.stemmed(word));
      positions.push(p);
    }
    return { terms, positions, words: words.length };
  }

  /** A query term taken as written (a prefix, a wildcard pattern, a fuzzy term): normalised, neither stemmed nor cut. */
  normalize(term: string): string {
    return term.normalize("NFKC").toLowerCase();
  }

  private stemmed(word: string): string {
    if (!this.stem) return word;
    let s = this.stems.get(word);
    if (s === undefined) {
      s = this.stem(word);
      if (this.stems.size >= STEM_CACHE_LIMIT) this.stems.clear();
      this.stems.set(word, s);
    }
    return s;
  }
}

/** Words a text holds, as the 10,000-token limit of a full-text value counts them. */
export function wordCount(text: string): number {
  return tokenize(text).length;
}

function ngrams(word: string, { minGram, maxGram, prefixOnly }: NonNullable<FullTextOptions["ngram"]>): string[] {
  const chars = [...word];
  const out: string[] = [];
  const starts = prefixOnly ? 1 : chars.length;
  for (let s = 0; s < starts; s++) {
    for (let n = minGram; n <= maxGram && s + n <= chars.length; n++) out.push(chars.slice(s, s + n).join(""));
  }
  return out;
}
