// search_documents — the one search of a documents index: by words (BM25 over the text fields; "all" or "phrase"
// makes them required, as a $match_all / $match_phrase filter), a query string, or both summed; or alone by meaning
// (the query embedded by the index's model) or by the caller's vector. Filters narrow it; whole hits within the
// result budget, text first.
import { z } from "zod";
import type { ScoreBy, SearchDocumentsRequest } from "../../src/api/documents.js";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { indexArg, namespaceArg, numberList, ruleError, sparseVectorArg, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { documentIndex, speakingDocuments, type DocumentSchemaView } from "../../src/tool-kit/documents/document-index.js";
import { embedForMeaning } from "../../src/tool-kit/documents/meaning.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { budgetWords, idsArgument } from "../../src/tool-kit/results/budget.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { Hit, hitsResult } from "../../src/tool-kit/text/hits.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);
const refuse = (problem: string, next?: string) => new ToolError({ problem, untouched: "read", ...(next && { next }) });

const MATCH_OPERATOR = { all: "$match_all", phrase: "$match_phrase" } as const;

const input = {
  index: indexArg(undefined, RULES),
  namespace: namespaceArg(undefined, RULES),
  words: z.string().min(1).max(10_000).optional().describe("Words to find, best matches first."),
  match: z.enum(["any", "all", "phrase"]).optional().describe("any (default); all: every word must occur; phrase: these words in this order."),
  queryString: z.string().min(1).max(10_000).optional().describe('Lucene syntax: body:(tide AND harbor), "old harbor"~2, harb*, tyde~1.'),
  meaning: z.string().min(1).max(10_000).optional().describe("Text to find by meaning (needs a meaning field), alone."),
  vector: z
    .object({
      values: numberList({ min: 1, max: 20_000, ...rule("values is a list of 1–20000 numbers") }).optional(),
      sparseValues: sparseVectorArg(RULES, { nonEmpty: true }).optional(),
    })
    .optional()
    .describe("Your own dense or sparse vector, alone."),
  inFields: z.array(z.string().min(1).max(64)).min(1).max(100).optional().describe("Text fields to search; default all."),
  filter: filterSchema("documents to find").optional(),
  topK: wholeNumberArg(1, 1000, rule("topK is a whole number from 1 to 1000")).optional().describe("Default 10."),
  fields: z.array(z.string().min(1).max(64)).min(1).max(100).optional().describe("Fields to return; default all but vectors."),
};
type Args = z.output<z.ZodObject<typeof input>>;

/** The request's scoring clauses and the filter, from the arguments; every misuse refused before a call. */
async function request(args: Args, view: DocumentSchemaView, embedQuery: (text: string) => Promise<number[] | { indices: number[]; values: number[] }>): Promise<SearchDocumentsRequest> {
  const { words, match, queryString, meaning, vector } = args;
  const given = [words !== undefined && "words", queryString !== undefined && "queryString", meaning !== undefined && "meaning", vector !== undefined && "vector"].filter(Boolean);
  if (given.length === 0) throw refuse("Say what to search for: words, queryString, meaning or vector", "call again with words (the exact words to find) or meaning.");
  if ((meaning !== undefined || vector !== undefined) && given.length > 1) {
    throw refuse(`${meaning !== undefined ? "meaning" : "vector"} searches alone; this call also gives ${given.filter((g) => g !== "meaning" && g !== "vector").join(" and ") || "both meaning and vector"}`, "search by meaning in one call and by words in another.");
  }
  if (match !== undefined && words === undefined) throw refuse("match says how the words must occur, and this call gives no words");
  const inFields = args.inFields ?? view.textFields;
  const unknown = inFields.filter((f) => !view.textFields.includes(f));
  if (unknown.length > 0) throw refuse(`inFields names ${unknown.map((f) => JSON.stringify(f)).join(", ")}, not a text field of this index (${view.textFields.join(", ")})`);
  checkFilter(args.filter);

  const scoreBy: ScoreBy[] = [];
  let required: Record<string, unknown> | undefined;
  if (words !== undefined) {
    scoreBy.push({ type: "text", fields: inFields, query: words });
    if (match === "all" || match === "phrase") {
      const each = inFields.map((f) => ({ [f]: { [MATCH_OPERATOR[match]]: words } }));
      required = each.length === 1 ? each[0] : { $or: each };
    }
  }
  if (queryString !== undefined) scoreBy.push({ type: "query_string", query: queryString });
  if (meaning !== undefined) {
    if (!view.meaning) throw refuse("This index has no meaning field, so it cannot search by meaning", "search by words or queryString; a documents index made with meaning.model can search by meaning.");
    const v = await embedQuery(meaning);
    scoreBy.push(Array.isArray(v) ? { type: "dense_vector", fields: [view.meaning.field], values: v } : { type: "sparse_vector", fields: [view.meaning.field], sparse_values: v });
  }
  if (vector !== undefined) {
    if ((vector.values === undefined) === (vector.sparseValues === undefined)) throw refuse("vector takes values or sparseValues (one of them)");
    if (vector.values) {
      if (!view.dense) throw refuse("This index has no dense vector field");
      scoreBy.push({ type: "dense_vector", fields: [view.dense.field], values: vector.values });
    } else {
      if (!view.sparse) throw refuse("This index has no sparse vector field");
      scoreBy.push({ type: "sparse_vector", fields: [view.sparse.field], sparse_values: vector.sparseValues! });
    }
  }
  const filter = required && args.filter ? { $and: [args.filter, required] } : (required ?? args.filter);
  return { score_by: scoreBy, top_k: args.topK ?? 10, include_fields: args.fields ?? ["*"], ...(filter && { filter }) };
}

export default defineTool({
  name: "search_documents",
  title: "Search documents",
  description:
    "Search a documents index by exact words (match all / phrase), a query string, or by meaning; filters narrow it. Best first.",
  inputSchema: input,
  outputSchema: {
    index: z.string(),
    namespace: z.string(),
    hits: z.array(Hit).describe("The documents found, best first."),
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  async run(args, { service, signal, config }) {
    const { index, namespace = "" } = args;
    const { view } = await documentIndex(service, index, signal, "read");
    const body = await request(args, view, async (text) => (await embedForMeaning(service, view.meaning!, [text], "query", signal))[0]);
    const answer = await onIndexHost(service, index, signal, (model) => speakingDocuments("read", () => service.documents.search(model.host, namespaceName(namespace), body, signal)));
    const vectors = new Set([view.meaning?.field, view.dense?.field, view.sparse?.field].filter((f) => f !== undefined && !args.fields?.includes(f)));
    const hits: Hit[] = answer.matches.map(({ _id, _score, ...rest }) => ({
      id: _id,
      score: _score ?? 0,
      fields: Object.fromEntries(Object.entries(rest).filter(([k]) => !vectors.has(k))),
    }));
    const where = namespaceOfIndex(namespace, index);
    if (hits.length === 0) {
      return { structured: { index, namespace, hits }, table: `No documents in ${where} match${args.filter ? " (with the filter)" : ""}.` };
    }
    const how = args.meaning !== undefined ? "by meaning" : args.match === "phrase" ? "containing the phrase" : args.match === "all" ? "containing every word" : "best first";
    const n = hits.length;
    const budget = config.maxResultTokens;
    return hitsResult(hits, {
      textFields: view.textFields,
      only: args.fields,
      budget,
      head: (shown) => `${shown === n ? n : `${shown} of ${n}`} ${n === 1 ? "document" : "documents"} in ${where}, ${how}:`,
      structured: (shown) => ({ index, namespace, hits: shown }),
      rest: (shown) => {
        const ids = idsArgument(hits.slice(shown).map((h) => h.id), budget / 2);
        const read = ids ? `fetch_documents {"index": ${JSON.stringify(index)}, "namespace": ${JSON.stringify(namespace)}, "ids": ${ids}} reads them` : "fetch_documents reads them by id";
        return `Hits ${shown + 1}–${n} were left out: with every field they would pass this result's budget of ${budgetWords(budget)}. Next step: ${read}; or search again with fewer fields or a smaller topK.`;
      },
    });
  },
});
