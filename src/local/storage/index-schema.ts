// The typed schema of a document index (API version 2026-07), as stored in the inventory: every field a document
// may be ranked by. Metadata fields are never declared (they are indexed for filtering as documents arrive), and
// `semantic_text` is never stored (an index made for a model describes its embed record as one).

/** How a full-text field's text is analysed; defaults filled in at creation, so this is what the index does. */
export interface FullTextSearchRecord {
  /** ISO 639-1 code of one of FULL_TEXT_LANGUAGES. */
  language: string;
  stemming: boolean;
  /** Only true with stemming. */
  stop_words: boolean;
  /** Present when the field is tokenised into character n-grams instead of words (never with stemming). */
  ngram?: { min_gram: number; max_gram: number; prefix_only: boolean };
}

export type SchemaFieldRecord =
  | { type: "dense_vector"; dimension: number; metric: "cosine" | "euclidean" | "dotproduct"; description?: string }
  | { type: "sparse_vector"; description?: string }
  | { type: "string"; full_text_search: FullTextSearchRecord; description?: string };

/** A document index's fields by name: at least one, at most one dense_vector and one sparse_vector, ≤ 100 string. */
export interface IndexSchemaRecord {
  fields: Record<string, SchemaFieldRecord>;
}

/** The languages full-text fields may be analysed in, by ISO 639-1 code, with the English names also accepted. */
export const FULL_TEXT_LANGUAGES: Readonly<Record<string, string>> = {
  ar: "arabic",
  da: "danish",
  de: "german",
  el: "greek",
  en: "english",
  es: "spanish",
  fi: "finnish",
  fr: "french",
  hu: "hungarian",
  it: "italian",
  nl: "dutch",
  no: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sv: "swedish",
  ta: "tamil",
  tr: "turkish",
};
