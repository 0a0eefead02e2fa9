// Exact scoring by the index's metric.
//   cosine:     dot(q, v) / (|q| |v|), 0 when either vector is all zeros; higher is more similar
//   dotproduct: dot(q, v) (+ the sparse dot product for hybrid records); higher is more similar
//   euclidean:  squared Euclidean distance, as the service documents; LOWER is more similar
import type { SparseVector } from "../storage/codec.js";

export type Metric = "cosine" | "euclidean" | "dotproduct";

export interface Query {
  dense?: Float32Array;
  denseNorm: number;
  sparse?: Map<number, number>;
}

export function makeQuery(dense: Float32Array | undefined, sparse: SparseVector | undefined): Query {
  let n = 0;
  if (dense) for (let i = 0; i < dense.length; i++) n += dense[i] * dense[i];
  let map: Map<number, number> | undefined;
  if (sparse) {
    map = new Map();
    for (let i = 0; i < sparse.indices.length; i++) map.set(sparse.indices[i], sparse.values[i]);
  }
  return { dense, denseNorm: Math.sqrt(n), sparse: map };
}

/** A stored record's scored parts (storage/store.ts's StoredRecord has them). */
export interface Scored { values: Float32Array; norm: number; sparse?: SparseVector }

export function score(metric: Metric, q: Query, r: Scored): number {
  return scoreParts(metric, q, r.values, r.norm, r.sparse);
}

/** The exact score of a record given by its parts (the in-memory search scores its slots with this, too). */
export function scoreParts(metric: Metric, q: Query, v: Float32Array, vNorm: number, sparse: SparseVector | undefined): number {
  let s = 0;
  const qv = q.dense;
  if (qv && qv.length > 0 && v.length === qv.length) {
    if (metric === "euclidean") {
      for (let i = 0; i < v.length; i++) {
        const d = qv[i] - v[i];
        s += d * d;
      }
    } else {
      for (let i = 0; i < v.length; i++) s += qv[i] * v[i];
      if (metric === "cosine") s = q.denseNorm === 0 || vNorm === 0 ? 0 : s / (q.denseNorm * vNorm);
    }
  }
  if (q.sparse && sparse) {
    const { indices, values } = sparse;
    for (let i = 0; i < indices.length; i++) {
      const w = q.sparse.get(indices[i]);
      if (w !== undefined) s += w * values[i];
    }
  }
  return s;
}
