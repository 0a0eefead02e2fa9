// BM25 over one namespace of a local-bm25 index. Each stored record's sparse vector holds its terms' counts (see
// models/bm25.ts), so the namespace itself is the corpus: one pass over it counts the documents, their lengths
// and, for each query term, how many documents hold it; then every document that holds a query term is scored.
import { bm25 } from "../models/bm25.js";
import { BestHits } from "./candidates.js";
import type { Predicate } from "./filter.js";
import type { VectorStore } from "../storage/store.js";

export interface Bm25Hit { id: string; score: number }

export interface Bm25Search {
  /** term → how often it counts (its count in a query text, or a sparse query's weight). */
  query: Map<number, number>;
  topK: number;
  predicate?: Predicate;
  /** Terms every hit must hold (match_terms with strategy "all"). */
  required?: number[];
}

export function searchBm25(store: VectorStore, space: string, namespace: string, s: Bm25Search): { hits: Bm25Hit[]; read: number } {
  let documents = 0;
  let totalLength = 0;
  const withTerm = new Map<number, number>();
  const candidates: { id: string; length: number; tf: Map<number, number> }[] = [];
  const needMeta = s.predicate !== undefined;
  for (const r of store.scan(space, namespace, { metadata: needMeta })) {
    const sparse = r.sparse;
    if (!sparse) continue;
    documents++;
    let length = 0;
    let tf: Map<number, number> | undefined;
    for (let i = 0; i < sparse.indices.length; i++) {
      length += sparse.values[i];
      const term = sparse.indices[i];
      if (s.query.has(term)) {
        withTerm.set(term, (withTerm.get(term) ?? 0) + 1);
        (tf ??= new Map()).set(term, sparse.values[i]);
      }
    }
    totalLength += length;
    if (!tf) continue;
    if (s.required && !s.required.every((t) => hasTerm(sparse.indices, t))) continue;
    if (s.predicate && !s.predicate(r.metadataJson === undefined ? {} : JSON.parse(r.metadataJson))) continue;
    candidates.push({ id: r.id, length, tf });
  }
  const stats = { documents, averageLength: documents ? totalLength / documents : 0, withTerm: (t: number) => withTerm.get(t) ?? 0 };
  // BM25 scores rank as similarities do: higher first, then by id.
  const best = new BestHits("dotproduct", s.topK);
  for (const c of candidates) best.add({ slot: -1, id: c.id, score: bm25(s.query, (t) => c.tf.get(t) ?? 0, c.length, stats) });
  return { hits: best.top().map(({ id, score }) => ({ id, score })), read: documents };
}

function hasTerm(indices: Uint32Array, term: number): boolean {
  return indices.indexOf(term) >= 0; // not assumed sorted: records may also come through /vectors/upsert
}
