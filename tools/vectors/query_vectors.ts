// query_vectors — the records nearest to a vector (dense and/or sparse) or to a stored record, best first.
import { z } from "zod";
import type { QueryRequest } from "../../src/api/data.js";
import { isSparseIndex, type IndexModel } from "../../src/api/records.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { checkFilter, filterSchema } from "../../src/tool-kit/args/filter.js";
import { metadataValue, shorten, TABLE_ROWS } from "../../src/tool-kit/format/shorten.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { onIndexHost } from "../../src/tool-kit/index-host.js";
import { namespaceOfIndex } from "../../src/tool-kit/results/index-summary.js";
import { indexArg, namespaceArg, numberList, recordIdArg, ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { base64ValuesArg, compactSparseVectorArg, queryVectors, valuesFormatArg } from "../../src/tool-kit/args/compact-values.js";
import { CompactSparseValuesOutput, inValuesFormat, valuesBase64Output } from "../../src/tool-kit/results/values-format.js";

const MAX_TOP_K = 10_000;
/** Metadata columns in the table; the rest are in structuredContent. */
const MAX_KEY_COLUMNS = 8;

const RULES = { after: "Nothing was queried." };
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
    "Find the records of an index nearest to a query — a dense vector, a sparse vector (or both, for hybrid search), or " +
    "the id of a stored record — optionally only among records whose metadata matches a filter. Use it for similarity " +
    "search once records are stored (the query vector must come from the same embedding model, with the index's dimension; " +
    "describe_index shows it). Give vector and/or sparseVector, or id — not both kinds. Returns up to topK matches best " +
    "first as a table (rank · id · score · the metadata keys present, long values shortened; the first 100 " +
    "matches) and all of them in full as structuredContent.matches.",
  inputSchema: {
    index: indexArg("Name of the index to search (list_indexes shows the names).", RULES),
    namespace: namespaceArg('Namespace to search, up to 512 characters; omitted means the default namespace "".', RULES),
    vector: numberList({ min: 1, max: 20_000, ...rule("vector is a list of 1–20000 numbers") })
      .optional()
      .describe("Dense query vector: exactly the index's dimension numbers. Leave out when querying by id."),
    vectorBase64: base64ValuesArg("vectorBase64", 20_000, RULES)
      .optional()
      .describe("Dense query vector as base64 of little-endian float32, instead of vector."),
    sparseVector: compactSparseVectorArg(RULES, { nonEmpty: true })
      .optional()
      .describe("Sparse query vector (sparse indexes, or hybrid with a dense vector on a dotproduct index). Leave out when querying by id."),
    id: recordIdArg(RULES)
      .optional()
      .describe("Query by a stored record: its id, 1–512 characters; its own values are the query. Leave out vector and sparseVector then."),
    topK: wholeNumberArg(1, MAX_TOP_K, rule(`must be a whole number from 1 to ${MAX_TOP_K}`)).describe(`How many matches to return, 1–${MAX_TOP_K}, best first.`),
    filter: filterSchema("search only among records that match it").optional(),
    includeMetadata: z.boolean().optional().describe("Return each match's metadata (default true)."),
    includeValues: z.boolean().optional().describe("Return each match's vector values (default false; they can be long)."),
    valuesFormat: valuesFormatArg,
  },
  outputSchema: {
    index: z.string().describe("The index searched."),
    namespace: z.string().describe('The namespace searched ("" is the default namespace).'),
    matches: z.array(Match).describe("The matches, best first."),
  },
  annotations: READ_ONLY,
  async run(args, { service, signal }) {
    const { index, namespace = "", id, topK, filter, includeMetadata = true, includeValues = false } = args;
    const { vector, sparseVector } = queryVectors(args, "Nothing was queried.");
    const byVector = vector !== undefined || sparseVector !== undefined;
    if (byVector && id !== undefined) {
      const given = [vector && "vector", sparseVector && "sparseVector"].filter(Boolean).join(" and ");
      throw new ToolError(
        `Give either a query vector or the id of a stored record, not both: this call has ${given} and id. Nothing was queried.\n` +
          `Next step: call again without id to search with the ${given}, or without ${given} to search with record ${JSON.stringify(id)}'s own values.`,
      );
    }
    if (!byVector && id === undefined) {
      throw new ToolError(
        "Nothing to search with: give vector (a dense vector of the index's dimension), sparseVector, or id (a stored record's id). Nothing was queried.\n" +
          "Next step: call again with one of them.",
      );
    }
    if (sparseVector && sparseVector.indices.length !== sparseVector.values.length) {
      throw new ToolError(
        `sparseVector has ${sparseVector.indices.length} indices but ${sparseVector.values.length} values; they must be the same length. Nothing was queried.`,
      );
    }
    checkFilter(filter);
    const checkVector = (model: IndexModel) => {
      if (vector === undefined) return;
      if (isSparseIndex(model)) {
        throw new ToolError(
          `Index ${JSON.stringify(index)} is sparse: it has no dense dimension. Nothing was queried.\nNext step: query it with sparseVector (indices and values) instead of vector.`,
        );
      }
      if (typeof model.dimension === "number" && vector.length !== model.dimension) {
        throw new ToolError(
          `The query vector has ${vector.length} values, but index ${JSON.stringify(index)} has dimension ${model.dimension}. Nothing was queried.\n` +
            `Next step: query with a vector of exactly ${model.dimension} numbers, made by the same embedding model as the stored records.`,
        );
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
    const answer = await onIndexHost(service, index, signal, (model) => service.data.query(model.host, body, signal), checkVector);
    const matches: Match[] = answer.matches.map((m) => {
      const match: Match = { id: m.id, score: m.score ?? 0 };
      if (includeValues && m.values && m.values.length > 0) match.values = m.values;
      if (includeValues && m.sparseValues) match.sparseValues = { indices: m.sparseValues.indices, values: m.sparseValues.values };
      if (includeMetadata && m.metadata) match.metadata = m.metadata;
      return match;
    });
    const structured = { index, namespace, matches: inValuesFormat(matches, args.valuesFormat) };
    const where = namespaceOfIndex(namespace, index);
    if (matches.length === 0) {
      if (id !== undefined) {
        // The service answers an unknown id with no matches; say which it is.
        const found = await onIndexHost(service, index, signal, (model) => service.data.fetch(model.host, [id], namespace, signal));
        if (!Object.hasOwn(found, id)) {
          return {
            structured,
            table: `No record with id ${JSON.stringify(id)} in ${where}, so there is nothing to query by. list_vector_ids shows the ids there are.`,
          };
        }
      }
      const why = filter ? "No record there matches the filter." : "The namespace is empty.";
      return { structured, table: `No matches in ${where}. ${why} describe_index_stats shows which namespaces hold records.` };
    }

    const rows = matches.slice(0, TABLE_ROWS);
    const keys = [...new Set(rows.flatMap((m) => Object.keys(m.metadata ?? {})))];
    const shown = keys.slice(0, MAX_KEY_COLUMNS);
    const table = markdownTable(
      ["rank", "id", "score", ...shown.map((k) => shorten(k))],
      rows.map((m, i) => [i + 1, shorten(m.id), scoreCell(m.score), ...shown.map((k) => metadataValue(m.metadata?.[k]))]),
    );
    const notes: string[] = [];
    if (matches.length > TABLE_ROWS) {
      notes.push(`The other ${matches.length - TABLE_ROWS} matches (ranks ${TABLE_ROWS + 1}–${matches.length}) are in structuredContent.matches.`);
    }
    if (keys.length > shown.length) {
      const hidden = keys.slice(MAX_KEY_COLUMNS).map((k) => JSON.stringify(shorten(k)));
      notes.push(`Metadata keys not shown as columns (their values are in structuredContent.matches): ${hidden.join(", ")}.`);
    }
    const more = notes.length ? `\n\n${notes.join("\n")}` : "";
    const n = matches.length;
    return { structured, table: `${n} ${n === 1 ? "match" : "matches"} in ${where}, best first:\n\n${table}${more}` };
  },
});
