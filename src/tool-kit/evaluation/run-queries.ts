// Running labelled queries against one search setting (an index, a namespace, how many results, a reranker): text
// queries through the records search (the index embeds the text), vector queries through /query; a few at a time.
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { namespaceName } from "../../common/namespace-name.js";
import { textField } from "../../ingest/text-records.js";
import { onIndexHost } from "../index-host.js";
import { ToolError } from "../tool-error.js";

export interface LabelledQuery {
  id?: string;
  text?: string;
  vector?: number[];
  relevant: string[];
}

export interface SearchSetting {
  index: string;
  namespace: string;
  topK: number;
  /** A reranking model, given the index's text field. */
  rerank?: string;
}

/** The ids each query brought back, best first, in the order of `queries`. */
export async function runQueries(
  service: Service,
  setting: SearchSetting,
  queries: readonly LabelledQuery[],
  o: { signal: AbortSignal; inFlight: number; name: (i: number) => string; onDone(): void },
): Promise<string[][]> {
  const { index, namespace, topK, rerank } = setting;
  const out: string[][] = new Array(queries.length);
  const one = (model: IndexModel, q: LabelledQuery): Promise<string[]> =>
    q.text !== undefined
      ? service.data
          .searchRecords(
            model.host,
            namespaceName(namespace),
            {
              query: { top_k: topK, inputs: { text: q.text } },
              fields: [],
              ...(rerank && { rerank: { model: rerank, rank_fields: [textField(model) ?? "text"] } }),
            },
            o.signal,
          )
          .then((a) => a.result.hits.map((h) => h._id))
      : service.data
          .query(model.host, { topK, namespace, vector: q.vector, includeValues: false, includeMetadata: false }, o.signal)
          .then((a) => a.matches.map((m) => m.id));
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const i = next++;
      try {
        out[i] = await onIndexHost(service, index, o.signal, (model) => one(model, queries[i]));
      } catch (err) {
        if (err instanceof ToolError || o.signal.aborted) throw err;
        throw new ToolError({ problem: `${o.name(i)} failed on index ${JSON.stringify(index)}: ${err instanceof Error ? err.message : String(err)}`, untouched: "read" });
      }
      o.onDone();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.inFlight, queries.length)) }, worker));
  return out;
}
