// Retrieval figures for labelled queries, with binary relevance (an id is relevant or not):
//   recall@k   the share of a query's relevant ids found in its first k results;
//   MRR        the mean over queries of 1 / the rank of the first relevant result within the first k (0 when none);
//   nDCG@k     DCG of the first k results (a relevant result at rank r adds 1 / log2(r + 1)) divided by the DCG of
//              the best possible order (every relevant id first, at most k of them).
// Each is averaged over the queries, every query counting the same.

export interface QueryFigures {
  recall: number;
  reciprocalRank: number;
  ndcg: number;
  /** 1-based rank of the first relevant result within the first k, if any. */
  firstRelevant?: number;
  /** Relevant ids found in the first k. */
  found: number;
}

const gain = (rank: number) => 1 / Math.log2(rank + 1);

/** The figures of one query: `results` the ids that came back, best first; `relevant` the ids that should have. */
export function queryFigures(results: readonly string[], relevant: ReadonlySet<string>, k: number): QueryFigures {
  const top = [...new Set(results)].slice(0, k); // an id listed twice counts once
  let found = 0;
  let dcg = 0;
  let firstRelevant: number | undefined;
  top.forEach((id, i) => {
    if (!relevant.has(id)) return;
    found++;
    dcg += gain(i + 1);
    firstRelevant ??= i + 1;
  });
  let ideal = 0;
  for (let r = 1; r <= Math.min(relevant.size, k); r++) ideal += gain(r);
  return {
    recall: relevant.size === 0 ? 0 : found / relevant.size,
    reciprocalRank: firstRelevant === undefined ? 0 : 1 / firstRelevant,
    ndcg: ideal === 0 ? 0 : dcg / ideal,
    found,
    ...(firstRelevant !== undefined && { firstRelevant }),
  };
}

export interface MeanFigures {
  recall: number;
  mrr: number;
  ndcg: number;
}

export function meanFigures(each: readonly QueryFigures[]): MeanFigures {
  const mean = (pick: (f: QueryFigures) => number) => (each.length === 0 ? 0 : each.reduce((s, f) => s + pick(f), 0) / each.length);
  return { recall: mean((f) => f.recall), mrr: mean((f) => f.reciprocalRank), ndcg: mean((f) => f.ndcg) };
}
