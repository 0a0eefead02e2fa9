// search_indexes — one text searched in several indexes with integrated embedding (the hosted service's own MCP
// server calls it cascading search): each index's hits, merged, then reranked together, since scores of different
// indexes cannot be compared. A hit is its index, namespace and id: records of different indexes that share an id
// (index_documents gives "/README.md#1" in every folder) stay apart.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { Hit, hitsResult, rerankArg, usageField } from "../../src/tool-kit/text/hits.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { budgetWords } from "../../src/tool-kit/results/budget.js";
import { estimateTokens } from "../../src/tool-kit/results/tokens.js";
import { textField } from "../../src/ingest/text-records.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);

const MergedHit = Hit.extend({
  index: z.string().describe("The index it came from."),
  namespace: z.string().describe("Its namespace."),
});

export default defineTool({
  name: "search_indexes",
  title: "Search several indexes",
  description:
    "Search several indexes that embed text; the hits are merged and reranked together.",
  inputSchema: {
    indexes: z
      .array(
        z.object({
          index: indexArg(undefined, RULES),
          namespace: namespaceArg(undefined, RULES),
        }),
      )
      .min(1)
      .max(10),
    query: z
      .object({
        text: z.string().min(1).max(10_000),
        topK: wholeNumberArg(1, 1000, rule("must be a whole number from 1 to 1000")).describe("Hits from each index."),
        filter: filterSchema("in every index").optional(),
      }),
    rerank: rerankArg,
  },
  outputSchema: {
    hits: z.array(MergedHit).describe("The merged hits, reranked, best first."),
    searched: z.array(z.object({ index: z.string(), namespace: z.string(), hits: z.number().int() })).describe("Hits found in each index before merging."),
    usage: usageField,
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  async run({ indexes, query, rerank }, { service, signal, config }) {
    checkFilter(query.filter);
    const seen = new Set<string>();
    for (const { index, namespace = "" } of indexes) {
      const key = `${index}\u0000${namespace}`;
      if (seen.has(key)) throw new ToolError({ problem: `indexes lists ${JSON.stringify(index)} (namespace ${JSON.stringify(namespace)}) twice` });
      seen.add(key);
    }
    const textFields = new Set<string>();
    let readUnits = 0;
    let embedTokens = 0;
    const perIndex = await Promise.all(
      indexes.map(async ({ index, namespace = "" }) => {
        const answer = await onIndexHost(
          service,
          index,
          signal,
          (model) =>
            service.data.searchRecords(
              model.host,
              namespaceName(namespace),
              { query: { top_k: query.topK, inputs: { text: query.text }, ...(query.filter && { filter: query.filter }) } },
              signal,
            ),
          (model) => {
            const field = textField(model);
            if (field !== undefined) textFields.add(field);
            if (!model.embed) {
              throw new ToolError({
                problem: `Index ${JSON.stringify(index)} has no integrated embedding, so it cannot be searched by text`,
                next: "call again without it (search_records and query_vectors search one index by id or vector).",
              });
            }
          },
        );
        readUnits += answer.usage?.read_units ?? 0;
        embedTokens += answer.usage?.embed_total_tokens ?? 0;
        return { index, namespace, hits: answer.result.hits };
      }),
    );
    const merged: z.infer<typeof MergedHit>[] = perIndex.flatMap(({ index, namespace, hits }) =>
      hits.map((h) => ({ id: h._id, score: h._score, fields: h.fields ?? {}, index, namespace })),
    );
    const searched = perIndex.map((p) => ({ index: p.index, namespace: p.namespace, hits: p.hits.length }));
    if (merged.length === 0) {
      return { structured: { hits: [], searched, usage: { readUnits, embedTotalTokens: embedTokens } }, table: "No records found in any of the indexes." };
    }
    const missing = merged.find((h) => rerank.rankFields.some((f) => typeof h.fields[f] !== "string"));
    if (missing) {
      const field = rerank.rankFields.find((f) => typeof missing.fields[f] !== "string")!;
      throw new ToolError({
        problem: `Record ${JSON.stringify(missing.id)} of index ${JSON.stringify(missing.index)} has no text field ${JSON.stringify(field)} to rerank by`,
        next: `set rerank.rankFields to a field every index's records hold (fields found: ${Object.keys(missing.fields).map((k) => JSON.stringify(k)).join(", ")}).`,
      });
    }
    const ranked = await service.inference.rerank(
      {
        model: rerank.model,
        query: query.text,
        documents: merged.map((h) => Object.fromEntries(rerank.rankFields.map((f) => [f, h.fields[f]]))),
        rank_fields: rerank.rankFields,
        top_n: Math.min(rerank.topN ?? query.topK, merged.length),
        return_documents: false,
      },
      signal,
    );
    const hits = ranked.data.map((r) => ({ ...merged[r.index], score: r.score }));
    const structured = { hits, searched, usage: { readUnits, embedTotalTokens: embedTokens, rerankUnits: ranked.usage?.rerank_units ?? 0 } };
    const from = `from ${indexes.length} ${indexes.length === 1 ? "index" : "indexes"}`;
    const budget = config.maxResultTokens;
    const n = hits.length;
    return hitsResult(hits, {
      textFields: [...new Set([...textFields, ...rerank.rankFields])],
      withIndex: true,
      budget,
      head: (shown) => `${shown === n ? n : `${shown} of the best ${n}`} of ${merged.length} ${merged.length === 1 ? "hit" : "hits"} ${from}, reranked by ${rerank.model}:`,
      structured: (shown) => ({ ...structured, hits: shown }),
      rest: (shown) => {
        const byIndex = new Map<string, { index: string; namespace: string; ids: string[] }>();
        for (const h of hits.slice(shown)) {
          const key = `${h.index}\u0000${h.namespace}`;
          if (!byIndex.has(key)) byIndex.set(key, { index: h.index, namespace: h.namespace, ids: [] });
          byIndex.get(key)!.ids.push(h.id);
        }
        const calls = [...byIndex.values()].map((g) => `fetch_vectors {"index": ${JSON.stringify(g.index)}, "namespace": ${JSON.stringify(g.namespace)}, "ids": ${JSON.stringify(g.ids)}}`);
        const read = estimateTokens(calls.join("; ")) <= budget / 4 ? `${calls.join("; ")} ${calls.length === 1 ? "reads them" : "read them"}` : "fetch_vectors reads them by id";
        return `Hits ${shown + 1}–${n} were left out: with every field they would pass this result's budget of ${budgetWords(budget)}. Next step: ${read}; or a smaller rerank.topN.`;
      },
    });
  },
});
