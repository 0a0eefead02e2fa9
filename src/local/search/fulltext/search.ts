// Full-text search of one namespace's documents in memory: the filter answered by the metadata index and the
// full-text postings (filter.ts), the query run over the postings within it (evaluate.ts), the best K ranked as every
// search answer is (by score, then id).
import type { Json } from "../../json.js";
import { BestHits } from "../candidates.js";
import type { NamespaceVectors } from "../../memory/vectors.js";
import type { FullTextOptions } from "./analyzer.js";
import { DocumentText } from "./document-text.js";
import { visit } from "./evaluate.js";
import { selectDocuments } from "./filter.js";
import type { FullTextQuery } from "./query.js";

export interface FullTextHit { slot: number; id: string; score: number }

/** The namespace's full-text fields in memory: built from its records on first use, then kept in step with them. */
export function documentText(nv: NamespaceVectors, schema: ReadonlyMap<string, FullTextOptions>): DocumentText {
  return nv.indexer(`documents ${schemaKey(schema)}`, () => {
    nv.leaveOutOfMetadataIndex(schema.keys()); // filtered by $match_* on the postings, never by value
    return new DocumentText(schema);
  });
}

function schemaKey(schema: ReadonlyMap<string, FullTextOptions>): string {
  return JSON.stringify([...schema].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The slots a filter keeps as a mask (undefined: no filter). */
export function filterMask(nv: NamespaceVectors, text: DocumentText, filter: Json | undefined): Uint8Array | undefined {
  if (filter === undefined) return undefined;
  const mask = new Uint8Array(Math.max(nv.used, 1));
  for (const slot of selectDocuments(filter, nv, text)) mask[slot] = 1;
  return mask;
}

/** The best `topK` documents for the query within the filter; `considered`: the documents the filter left. */
export function searchFullText(nv: NamespaceVectors, text: DocumentText, query: FullTextQuery, topK: number, filter?: Json): { hits: FullTextHit[]; considered: number } {
  const allowed = filterMask(nv, text, filter);
  const best = new BestHits("dotproduct", topK);
  visit(text, query, allowed, (slot, score) => {
    if (best.admits(score)) best.add({ slot, id: nv.ids[slot] ?? "", score });
  });
  return { hits: best.top(), considered: allowed ? allowed.reduce((n, b) => n + b, 0) : nv.count };
}
