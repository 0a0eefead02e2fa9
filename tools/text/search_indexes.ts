// search_indexes — one text searched in several indexes with integrated embedding (the hosted service's own MCP
// server calls it cascading search): each index's hits, merged, de-duplicated by id (the first index listed keeps
// it), then reranked together, since scores of different indexes cannot be compared.
import { z } from "zod";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { Hit, hitsTable, recordsNamespace, rerankArg, usageField } from "../../src/tool-kit/text/hits.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

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
    "Search a text in several indexes with integrated embedding at once: the hits of each are merged, de-duplicated by id and " +
    "reranked together by a reranking model (their own scores cannot be compared across indexes).",
  inputSchema: {
    indexes: z
      .array(
        z.object({
          index: indexArg("Index to search.", RULES),
          namespace: namespaceArg("Its namespace; omitted means the default.", RULES),
        }),
      )
      .min(1)
      .max(10)
      .describe("The indexes (and namespaces) to search, 1–10."),
    query: z
      .object({
        text: z.string().min(1).max(10_000).describe("The text to search for."),
        topK: wholeNumberArg(1, 1000, rule("must be a whole number from 1 to 1000")).describe("Hits taken from each index, 1–1000."),
        filter: filterSchema("only records that match it, in every index").optional(),
      })
      .describe("What to search for."),
    rerank: rerankArg.describe("How the merged hits are reranked."),
  },
  outputSchema: {
    hits: z.array(MergedHit).describe("The merged hits, reranked, best first."),
    searched: z.array(z.object({ index: z.string(), namespace: z.string(), hits: z.number().int() })).describe("Hits found in each index before merging."),
    usage: usageField,
  },
  annotations: READ_ONLY,
  async run({ indexes, query, rerank }, { service, signal }) {
    checkFilter(query.filter);
    const seen = new Set<string>();
    for (const { index, namespace = "" } of indexes) {
      const key = `${index}\u0000${namespace}`;
      if (seen.has(key)) throw new ToolError({ problem: `indexes lists ${JSON.stringify(index)} (namespace ${JSON.stringify(namespace)}) twice` });
      seen.add(key);
    }
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
              recordsNamespace(namespace),
              { query: { top_k: query.topK, inputs: { text: query.text }, ...(query.filter && { filter: query.filter }) } },
              signal,
            ),
          (model) => {
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
    const merged: z.infer<typeof MergedHit>[] = [];
    const ids = new Set<string>();
    for (const { index, namespace, hits } of perIndex) {
      for (const h of hits) {
        if (ids.has(h._id)) continue;
        ids.add(h._id);
        merged.push({ id: h._id, score: h._score, fields: h.fields ?? {}, index, namespace });
      }
    }
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
    const head = `${hits.length} of ${merged.length} distinct records from ${indexes.length} ${indexes.length === 1 ? "index" : "indexes"}, reranked by ${rerank.model}:`;
    const table = hitsTable(hits.map((h) => ({ ...h, extra: [h.index] })), ["index"]);
    return { structured, table: `${head}\n\n${table}` };
  },
});
