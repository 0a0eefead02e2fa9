// BM25 over a field's postings (text-postings.ts), term at a time: each query term's live postings add their share
// to their slots' scores, in the query's term order — the very sums models/bm25.ts's bm25() makes for one document,
// so the scores are the same to the bit. A candidate is a document holding at least one query term (a term with a
// weight of 0 still makes one), kept by the filter's slots and holding every required term; the best K by score,
// then by id, are the answer.
import { idf, lengthNorm, termScore } from "../models/bm25.js";
import type { FieldPostings } from "../memory/text-postings.js";
import { BestHits } from "./candidates.js";

export interface TextQuery {
  /** term → how often it counts (its count in a query text, or a sparse query's weight). */
  terms: Map<number, number>;
  topK: number;
  /** The slots a filter keeps (from the metadata index); absent: all. */
  allowed?: Uint8Array;
  /** Terms every hit must hold (match_terms with strategy "all"). */
  required?: number[];
}

export interface TextHit { slot: number; id: string; score: number }

/** Per-slot working arrays, kept between searches (a search is synchronous) and cleared where it wrote. */
interface Scratch { scores: Float64Array; norms: Float64Array; seen: Uint8Array }
const scratches = new WeakMap<FieldPostings, Scratch>();

function scratchFor(postings: FieldPostings): Scratch {
  const capacity = postings.slotCapacity;
  let s = scratches.get(postings);
  if (!s || s.seen.length < capacity) {
    s = { scores: new Float64Array(capacity), norms: new Float64Array(capacity), seen: new Uint8Array(capacity) };
    scratches.set(postings, s);
  }
  return s;
}

export function searchPostings(postings: FieldPostings, ids: readonly (string | undefined)[], q: TextQuery): { hits: TextHit[]; read: number } {
  const { scores, norms, seen } = scratchFor(postings);
  const touched: number[] = [];
  try {
    return { hits: scoreAndRank(postings, ids, q, scores, norms, seen, touched), read: postings.documents };
  } finally {
    for (const slot of touched) {
      scores[slot] = 0;
      seen[slot] = 0;
    }
  }
}

function scoreAndRank(
  postings: FieldPostings,
  ids: readonly (string | undefined)[],
  q: TextQuery,
  scores: Float64Array,
  norms: Float64Array,
  seen: Uint8Array,
  touched: number[],
): TextHit[] {
  const averageLength = postings.averageLength;
  const allowed = q.allowed;
  const generations = postings.generations;
  for (const [term, times] of q.terms) {
    const list = postings.list(term);
    if (!list) continue;
    const weight = times * idf(postings.documents, list.live);
    const { slots, counts } = list;
    for (let i = 0; i < list.size; i++) {
      const slot = slots[i];
      if (list.generations[i] !== generations[slot]) continue;
      if (allowed && (slot >= allowed.length || allowed[slot] === 0)) continue;
      if (seen[slot] === 0) {
        seen[slot] = 1;
        touched.push(slot);
        norms[slot] = lengthNorm(postings.lengths[slot], averageLength);
      }
      const f = counts[i];
      if (f !== 0) scores[slot] += termScore(weight, f, norms[slot]);
    }
  }
  let candidates = touched;
  if (q.required && q.required.length > 0) candidates = holdingAll(postings, touched, seen, q.required);
  return best(candidates, scores, ids, q.topK);
}

/** The touched slots that hold every required term (`seen` marks the touched ones and is reused as a counter). */
function holdingAll(postings: FieldPostings, touched: number[], seen: Uint8Array, required: number[]): number[] {
  const held = new Uint16Array(seen.length);
  for (const term of required) {
    const list = postings.list(term);
    if (!list) return [];
    for (let i = 0; i < list.size; i++) {
      const slot = list.slots[i];
      if (seen[slot] === 1 && list.generations[i] === postings.generations[slot]) held[slot]++;
    }
  }
  return touched.filter((slot) => held[slot] === required.length);
}

/** The best `k` slots by score (higher first), ties by id: the one order of search answers (candidates.ts). */
function best(candidates: number[], scores: Float64Array, ids: readonly (string | undefined)[], k: number): TextHit[] {
  const top = new BestHits("dotproduct", k); // higher is better, as for a dot product
  for (const slot of candidates) {
    if (top.admits(scores[slot])) top.add({ slot, id: ids[slot] ?? "", score: scores[slot] });
  }
  return top.top();
}
