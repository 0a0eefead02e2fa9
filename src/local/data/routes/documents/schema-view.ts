// What the documents routes read of a document index's schema: its full-text fields with their analysis, its dense
// and sparse vector fields (at most one each).
import type { FullTextOptions } from "../../../search/fulltext/analyzer.js";
import type { IndexSchemaRecord } from "../../../storage/index-schema.js";
import type { Metric } from "../../../search/score.js";

export interface SchemaView {
  fullText: ReadonlyMap<string, FullTextOptions>;
  dense?: { name: string; dimension: number; metric: Metric };
  sparse?: { name: string };
  /** Every field the schema declares. */
  declared: ReadonlySet<string>;
}

const views = new WeakMap<IndexSchemaRecord, SchemaView>();

export function schemaView(schema: IndexSchemaRecord): SchemaView {
  let view = views.get(schema);
  if (view) return view;
  const fullText = new Map<string, FullTextOptions>();
  let dense: SchemaView["dense"];
  let sparse: SchemaView["sparse"];
  for (const [name, f] of Object.entries(schema.fields)) {
    if (f.type === "dense_vector") dense = { name, dimension: f.dimension, metric: f.metric };
    else if (f.type === "sparse_vector") sparse = { name };
    else {
      const fts = f.full_text_search;
      const ngram = fts.ngram && { minGram: fts.ngram.min_gram, maxGram: fts.ngram.max_gram, prefixOnly: fts.ngram.prefix_only };
      fullText.set(name, { language: fts.language, stemming: fts.stemming, stopWords: fts.stop_words, ...(ngram ? { ngram } : {}) });
    }
  }
  view = { fullText, dense, sparse, declared: new Set(Object.keys(schema.fields)) };
  views.set(schema, view);
  return view;
}
