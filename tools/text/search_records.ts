// search_records — find records of an index by text (integrated embedding), by a stored record's id, or by a vector;
// optionally reranked. The table shows id · score · the text · the other fields (index_documents' bookkeeping only in
// structuredContent), whole hits within the result budget.
import { z } from "zod";
import type { SearchRecordsRequest } from "../../src/api/data.js";
import type { IndexModel } from "../../src/api/records.js";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, numberList, recordIdArg, ruleError, sparseVectorArg, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { Hit, hitsResult, rerankArg, usageField } from "../../src/tool-kit/text/hits.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { budgetWords, idsArgument } from "../../src/tool-kit/results/budget.js";
import { textField } from "../../src/ingest/text-records.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);

export default defineTool({
  name: "search_records",
  title: "Search records",
  description:
    "Find records by query.text (indexes that embed text), query.id or query.vector, best first.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    query: z
      .object({
        text: z.string().min(1).max(10_000).optional(),
        id: recordIdArg(RULES).optional(),
        vector: z
          .object({
            values: numberList({ min: 1, max: 20_000, ...rule("values is a list of 1–20000 numbers") }).optional(),
            sparseValues: sparseVectorArg(RULES, { nonEmpty: true }).optional(),
          })
          .optional(),
        topK: wholeNumberArg(1, 10_000, rule("must be a whole number from 1 to 10000")),
        filter: filterSchema("only matches").optional(),
      }),
    fields: z.array(z.string().min(1).max(100)).min(1).max(100).optional(),
    rerank: rerankArg.optional().describe("Rerank by query.text."),
  },
  outputSchema: {
    index: z.string().describe("The index searched."),
    namespace: z.string().describe('The namespace searched ("" is the default).'),
    hits: z.array(Hit).describe("The records found, best first."),
    usage: usageField,
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  async run({ index, namespace = "", query, fields, rerank }, { service, signal, config, tools }) {
    const given = (["text", "id", "vector"] as const).filter((k) => query[k] !== undefined);
    if (given.length !== 1) {
      throw new ToolError({
        problem: `Give exactly one of query.text, query.id or query.vector (this call has ${given.length === 0 ? "none" : given.join(" and ")})`,
        next: "call again with one of them — query.text for an index with integrated embedding.",
      });
    }
    const v = query.vector;
    if (v && v.values === undefined && v.sparseValues === undefined) throw new ToolError({ problem: "query.vector needs values or sparseValues" });
    if (v?.sparseValues && v.sparseValues.indices.length !== v.sparseValues.values.length) {
      throw new ToolError({ problem: `query.vector.sparseValues has ${v.sparseValues.indices.length} indices but ${v.sparseValues.values.length} values; they must be the same length` });
    }
    if (rerank && query.text === undefined) {
      throw new ToolError({ problem: "rerank needs query.text: the reranker scores each record against that text", next: "search by text, or leave out rerank." });
    }
    checkFilter(query.filter);
    let embedded: string | undefined;
    const check = (model: IndexModel) => {
      embedded = textField(model);
      if (query.text !== undefined && !model.embed) {
        throw new ToolError({
          problem: `Index ${JSON.stringify(index)} has no integrated embedding, so it cannot search by text`,
          next: "search by query.id (a stored record's vector); or query_vectors with a vector from the model that made the stored ones (embed_texts makes it if list_models shows that model); or, to search text, write it to an index made by create_index_for_model with upsert_records.",
        });
      }
    };
    const body: SearchRecordsRequest = {
      query: {
        top_k: query.topK,
        ...(query.text !== undefined && { inputs: { text: query.text } }),
        ...(query.id !== undefined && { id: query.id }),
        ...(v && {
          vector: {
            ...(v.values && { values: v.values }),
            ...(v.sparseValues && { sparse_indices: v.sparseValues.indices, sparse_values: v.sparseValues.values }),
          },
        }),
        ...(query.filter && { filter: query.filter }),
      },
      ...(fields && { fields }),
      ...(rerank && { rerank: { model: rerank.model, rank_fields: rerank.rankFields, ...(rerank.topN !== undefined && { top_n: rerank.topN }) } }),
    };
    const answer = await onIndexHost(service, index, signal, (model) => service.data.searchRecords(model.host, namespaceName(namespace), body, signal), check);
    const hits: Hit[] = answer.result.hits.map((h) => ({ id: h._id, score: h._score, fields: h.fields ?? {} }));
    const u = answer.usage;
    const usage = {
      ...(u?.read_units !== undefined && { readUnits: u.read_units }),
      ...(u?.embed_total_tokens !== undefined && { embedTotalTokens: u.embed_total_tokens }),
      ...(u?.rerank_units !== undefined && { rerankUnits: u.rerank_units }),
    };
    const structured = { index, namespace, hits, usage };
    const where = namespaceOfIndex(namespace, index);
    if (hits.length === 0) {
      const which = ["describe_index_stats", "list_namespaces"].find((t) => tools.has(t));
      const hint = which ? ` ${which} shows which namespaces hold records.` : "";
      return { structured, table: `No records found in ${where}${query.filter ? " that match the filter" : ""}.${hint}` };
    }
    const how = rerank ? `reranked by ${rerank.model}` : "best first";
    const budget = config.maxResultTokens;
    const n = hits.length;
    return hitsResult(hits, {
      textFields: [embedded ?? "text"],
      only: fields,
      budget,
      head: (shown) => `${shown === n ? n : `${shown} of ${n}`} ${n === 1 ? "record" : "records"} in ${where}, ${how}:`,
      structured: (shown) => ({ index, namespace, hits: shown, usage }),
      rest: (shown) => {
        // Document ids are paths, long in tokens: up to half the budget goes to naming them, and the rows shown make room.
        const ids = idsArgument(hits.slice(shown).map((h) => h.id), budget / 2);
        const read = ids
          ? `fetch_vectors {"index": ${JSON.stringify(index)}, "namespace": ${JSON.stringify(namespace)}, "ids": ${ids}} reads them (their text is in the metadata)`
          : "fetch_vectors reads them by id";
        return (
          `Hits ${shown + 1}–${n} were left out: with every field they would pass this result's budget of ${budgetWords(budget)}. ` +
          `Next step: ${read}; or search again with fewer fields (e.g. "fields": [${JSON.stringify(embedded ?? "text")}]) or a smaller topK.`
        );
      },
    });
  },
});
