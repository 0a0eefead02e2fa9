// query_vectors — the records nearest to a vector (dense and/or sparse) or to a stored record, best first.
import { z } from "zod";
import type { QueryRequest } from "../../src/api/data.js";
import { isSparseIndex, type IndexModel } from "../../src/api/records.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { budgetWords, fitRows, float32Values, idsArgument } from "../../src/tool-kit/results/budget.js";
import { estimateJsonTokens, estimateTokens } from "../../src/tool-kit/results/tokens.js";
import { markdownRow, markdownTable, type Cell } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { LazyRows } from "../../src/tool-kit/results/lazy-rows.js";
import { indexArg, namespaceArg, numberList, numberListProblem, recordIdArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { base64ValuesArg, compactSparseVectorArg, queryVectors, valuesFormatArg } from "../../src/tool-kit/args/compact-values.js";
import { CompactSparseValuesOutput, inValuesFormat, valuesBase64Output } from "../../src/tool-kit/results/values-format.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const MAX_TOP_K = 10_000;

const RULES = { untouched: "read" } as const;
const rule = (text: string) => ruleError(text, RULES);

const Match = z.object({
  id: z.string().describe("Record id."),
  score: z.number().describe("Similarity score under the index's metric (higher is closer for cosine and dotproduct, lower for euclidean)."),
  values: z.array(z.number()).optional().describe("Dense values (with includeValues)."),
  valuesBase64: valuesBase64Output,
  sparseValues: CompactSparseValuesOutput.optional().describe("Sparse values (with includeValues)."),
  metadata: z.record(z.string(), z.unknown()).optional().describe("The record's metadata, in full (with includeMetadata)."),
});
type Match = z.infer<typeof Match>;

function scoreCell(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(4);
}

export default defineTool({
  name: "query_vectors",
  title: "Query vectors",
  description:
    "Similarity search: the records nearest to a dense and/or sparse vector (same embedding model as the stored " +
    "records) or to a stored record's id, optionally filtered; best first.",
  inputSchema: {
    index: indexArg(undefined, RULES),
    namespace: namespaceArg(undefined, RULES),
    vector: numberList({ min: 1, max: 20_000, ...ruleError("vector is a list of 1–20000 numbers", { ...RULES, detail: numberListProblem }) })
      .optional()
      .describe("Dense, of the index's dimension."),
    vectorBase64: base64ValuesArg("vectorBase64", 20_000, RULES)
      .optional()
      .describe("Instead of vector: base64 of little-endian float32."),
    sparseVector: compactSparseVectorArg(RULES, { nonEmpty: true })
      .optional()
      .describe("Sparse indexes, or with vector on dotproduct."),
    id: recordIdArg(RULES)
      .optional()
      .describe("A stored record, instead of a vector."),
    topK: wholeNumberArg(1, MAX_TOP_K, rule(`must be a whole number from 1 to ${MAX_TOP_K}`)),
    filter: filterSchema("only matching records", { grammar: true }).optional(),
    includeMetadata: z.boolean().optional().describe("Default true."),
    includeValues: z.boolean().optional().describe("Default false (long)."),
    valuesFormat: valuesFormatArg,
  },
  outputSchema: {
    index: z.string().describe("The index searched."),
    namespace: z.string().describe('The namespace searched ("" is the default namespace).'),
    matches: z.array(Match).describe("The matches, best first."),
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  answerSize: (args) => ({ index: args.index, records: args.topK, values: args.includeValues ?? false }),
  async run(args, { service, signal, config }) {
    const { index, namespace = "", id, topK, filter, includeMetadata = true, includeValues = false } = args;
    const { vector, sparseVector } = queryVectors(args, "read");
    const byVector = vector !== undefined || sparseVector !== undefined;
    if (byVector && id !== undefined) {
      const given = [vector && "vector", sparseVector && "sparseVector"].filter(Boolean).join(" and ");
      throw new ToolError({
        problem: `Give either a query vector or the id of a stored record, not both: this call has ${given} and id`,
        next: `call again without id to search with the ${given}, or without ${given} to search with record ${JSON.stringify(id)}'s own values.`,
      });
    }
    if (!byVector && id === undefined) {
      throw new ToolError({
        problem: "Nothing to search with: give vector (a dense vector of the index's dimension), sparseVector, or id (a stored record's id)",
        next: "call again with one of them.",
      });
    }
    if (sparseVector && sparseVector.indices.length !== sparseVector.values.length) {
      throw new ToolError({ problem: `sparseVector has ${sparseVector.indices.length} indices but ${sparseVector.values.length} values; they must be the same length` });
    }
    checkFilter(filter);
    const checkVector = (model: IndexModel) => {
      if (vector === undefined) return;
      if (isSparseIndex(model)) {
        throw new ToolError({
          problem: `Index ${JSON.stringify(index)} is sparse: it has no dense dimension`,
          next: "query it with sparseVector (indices and values) instead of vector.",
        });
      }
      if (typeof model.dimension === "number" && vector.length !== model.dimension) {
        throw new ToolError({
          problem: `The query vector has ${vector.length} values, but index ${JSON.stringify(index)} has dimension ${model.dimension}`,
          next: `query with a vector of exactly ${model.dimension} numbers, made by the same embedding model as the stored records.`,
        });
      }
    };

    const body: QueryRequest = {
      topK,
      namespace,
      ...(vector !== undefined && { vector }),
      ...(sparseVector !== undefined && { sparseVector }),
      ...(id !== undefined && { id }),
      ...(filter !== undefined && { filter }),
      includeMetadata,
      includeValues,
    };
    let metric = "";
    const answer = await onIndexHost(service, index, signal, (model) => ((metric = model.metric ?? ""), service.data.query(model.host, body, signal)), checkVector);
    // Each match is made when the result reads it: only those within the budget have their values converted.
    const matchAt = (i: number, values: boolean): Match => {
      const m = answer.matches[i];
      const match: Match = { id: m.id, score: m.score ?? 0 };
      if (values && m.values && m.values.length > 0) match.values = float32Values(m.values);
      if (values && m.sparseValues) match.sparseValues = { indices: m.sparseValues.indices, values: float32Values(m.sparseValues.values) };
      if (includeMetadata && m.metadata) match.metadata = m.metadata;
      return values ? inValuesFormat([match], args.valuesFormat)[0] : match;
    };
    const matches = new LazyRows(answer.matches.length, (i) => matchAt(i, includeValues));
    const where = namespaceOfIndex(namespace, index);
    if (matches.length === 0) {
      const structured = { index, namespace, matches: [] as Match[] };
      if (id !== undefined) {
        // The service answers an unknown id with no matches; say which it is.
        const found = await onIndexHost(service, index, signal, (model) => service.data.fetch(model.host, [id], namespace, signal));
        if (!Object.hasOwn(found, id)) {
          return {
            structured,
            table: `No record with id ${JSON.stringify(id)} in ${where}, so there is nothing to query by.`,
            note: "list_vector_ids shows the ids there are.",
          };
        }
      }
      const why = filter ? "No record there matches the filter." : "The namespace is empty.";
      return { structured, table: `No matches in ${where}. ${why}`, note: "describe_index_stats shows which namespaces hold records." };
    }

    const closer = metric === "euclidean" ? " (euclidean: lower scores are closer)" : "";
    const budget = config.maxResultTokens;
    const withValues = includeValues && answer.matches.some((m) => (m.values && m.values.length > 0) || m.sparseValues);
    const result = answerWith(matches, withValues);
    if (!withValues || result.structured.matches.length > 0) return result;
    // Not even the best match fits with its values: the ranking is still worth having, so every match comes without
    // values, and the note says how to read the values one record at a time.
    const bare = answerWith(new LazyRows(matches.length, (i) => matchAt(i, false)), false);
    const first = JSON.stringify(answer.matches[0].id);
    const valuesNote =
      `Values were left out of every match: one match's values alone pass this result's budget of ${budgetWords(budget)}. ` +
      `Next step: fetch_vectors {"index": ${JSON.stringify(index)}, "namespace": ${JSON.stringify(namespace)}, "ids": [${first}], ` +
      `"includeValues": true, "valuesFormat": "base64"} reads one record's values a call (or ask the user to raise --max-result-tokens).`;
    return { ...bare, note: bare.note ? `${valuesNote}\n${bare.note}` : valuesNote };

    // Whole matches, best first, up to the budget; the note says what was left out and the call that gets it.
    function answerWith(shownMatches: LazyRows<Match>, values: boolean) {
      const headers = ["rank", "id", "score", ...(includeMetadata ? ["metadata"] : []), ...(values ? ["values", "sparse values"] : [])];
      const row = (m: Match, i: number): Cell[] => [
        i + 1,
        m.id,
        scoreCell(m.score),
        ...(includeMetadata ? [m.metadata && JSON.stringify(m.metadata)] : []),
        ...(values ? [valuesCell(m), m.sparseValues && JSON.stringify(m.sparseValues)] : []),
      ];
      const n = shownMatches.length;
      return fitRows(
        n,
        budget,
        (i) => ({ text: estimateTokens(markdownRow(row(shownMatches.at(i), i), headers.length, { whole: true })), structured: estimateJsonTokens(shownMatches.at(i)) }),
        (shown) => {
          const table = markdownTable(headers, shownMatches.slice(0, shown).map(row), { whole: true }); // within the budget (results/budget.ts)
          const head = shown === n ? `${n} ${n === 1 ? "match" : "matches"} in ${where}, best first${closer}:` : `${shown} of ${n} matches in ${where}, best first${closer}:`;
          return {
            structured: { index, namespace, matches: shownMatches.slice(0, shown) },
            table: `${head}\n\n${table}`,
            ...(shown < n && { note: leftOut(shown, values) }),
          };
        },
      );
    }

    function leftOut(shown: number, values: boolean): string {
      const n = matches.length;
      const rest = answer.matches.slice(shown).map((m) => m.id);
      const what = `Matches ${shown + 1}–${n} were left out: with their ${values ? "values" : "metadata"} they would pass this result's budget of ${budgetWords(budget)}.`;
      const ids = idsArgument(rest, budget / 4);
      const fetch = ids ? `fetch_vectors {"index": ${JSON.stringify(index)}, "namespace": ${JSON.stringify(namespace)}, "ids": ${ids}${values ? ', "includeValues": true, "valuesFormat": "base64"' : ""}}` : "fetch_vectors with their ids";
      if (values) {
        return `${what} Next step: the same query with "includeValues": false gives all ${n} matches with their metadata; ${fetch} reads the values of the rest (fewer ids a call if that is too long).`;
      }
      return `${what} Next step: ${fetch} reads the rest, or the same query with "includeMetadata": false gives all ${n} by id and score.`;
    }
  },
});

/** Dense values in a cell: the numbers, or their base64 (valuesFormat "base64"). */
function valuesCell(m: Match): string | undefined {
  return m.values ? JSON.stringify(m.values) : m.valuesBase64;
}
