// Exact top K read straight from lmdb, for a query that comes while its namespace is still loading into memory after a
// restart (memory/mirror.ts decides when: when scanning costs less than finishing the load). Each record is scored
// where it lies — a view of lmdb-js's read buffer, nothing copied but a sparse part — with the same exact scores
// (search/score.ts: the values and the norm stored with them are those memory holds) and the same order as the search
// in memory, so the answer is the one the loaded namespace would give.
import { BestHits, type Hit } from "./candidates.js";
import type { Predicate } from "./filter.js";
import { scoreParts, type Metric, type Query } from "./score.js";
import { decodeRecordParts } from "../storage/codec.js";
import { idFromKey } from "../storage/keys.js";

const EMPTY = new Float32Array(0);

/**
 * The best `topK` records of `range` (a namespace's records, each value valid until the next) for the query, among
 * those whose metadata `keep` accepts. Hits carry no slot (-1): they are not in memory yet.
 */
export function scanSearch(range: Iterable<{ key: Buffer; value: Buffer }>, metric: Metric, q: Query, topK: number, keep?: Predicate): { hits: Hit[]; considered: number } {
  const best = new BestHits(metric, topK);
  let considered = 0;
  let scratch = EMPTY;
  for (const { key, value } of range) {
    const parts = decodeRecordParts(value);
    if (keep && !keep(parts.metadataJson === undefined ? {} : (JSON.parse(parts.metadataJson) as Record<string, unknown>))) continue;
    considered++;
    const dense = parts.dense;
    let values: Float32Array;
    if (dense.byteOffset % 4 === 0) values = new Float32Array(dense.buffer, dense.byteOffset, dense.length / 4);
    else {
      // (a value lmdb-js maps in place may sit at any offset; a float32 view needs 4-byte alignment)
      if (scratch.length !== dense.length / 4) scratch = new Float32Array(dense.length / 4);
      new Uint8Array(scratch.buffer).set(dense);
      values = scratch;
    }
    const score = scoreParts(metric, q, values, parts.norm, parts.sparse);
    if (best.admits(score)) best.add({ slot: -1, id: idFromKey(key) ?? parts.longId ?? "", score });
  }
  return { hits: best.top(), considered };
}
