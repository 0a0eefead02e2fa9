// What search_records and search_indexes share: the rerank argument, a hit as the tools return it, its table.
import { z } from "zod";
import { markdownTable } from "../format/table.js";
import { fitBudget, jsonSize, RESULT_BUDGET_CHARS } from "../results/budget.js";

/** Field columns in a hits table; the rest are in structuredContent. */
const MAX_FIELD_COLUMNS = 6;

export const rerankArg = z.object({
  model: z.string().min(1).max(100).describe("Reranking model (list_models shows them)."),
  rankFields: z.array(z.string().min(1).max(100)).min(1).max(10).describe("Text fields the reranker reads."),
  topN: z.number().int().min(1).max(1000).optional().describe("Hits to keep (default topK)."),
});

export const Hit = z.object({
  id: z.string().describe("Record id."),
  score: z.number().describe("Relevance: the reranker's score when reranked, else the index's similarity score."),
  fields: z.record(z.string(), z.unknown()).describe("The record's fields, in full."),
});
export type Hit = z.infer<typeof Hit>;

export const usageField = z
  .object({
    readUnits: z.number().optional().describe("Read units used."),
    embedTotalTokens: z.number().optional().describe("Tokens embedded for the query."),
    rerankUnits: z.number().optional().describe("Rerank units used."),
  })
  .describe("What the search cost, as the service counts it.");

function scoreCell(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(4);
}

/** A field's value in a cell: text as it is, anything else as JSON. */
export function fieldCell(value: unknown): string {
  return value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * rank · id · [extra columns] · score · the fields, every value whole (the same facts as structuredContent.hits) up to
 * the result budget; hits past it are named by id with a note. Fields past the sixth share one JSON column.
 */
export function hitsTable(hits: (Hit & { extra?: (string | number)[] })[], extraHeaders: string[] = [], only?: string[]): string {
  const fit = fitBudget(hits, (h) => jsonSize(h.fields));
  const whole = hits.slice(0, fit);
  const keys = only ?? [...new Set(whole.flatMap((h) => Object.keys(h.fields)))];
  const shown = keys.slice(0, MAX_FIELD_COLUMNS);
  const others = keys.slice(MAX_FIELD_COLUMNS);
  const table = markdownTable(
    ["rank", "id", ...extraHeaders, "score", ...shown, ...(others.length > 0 ? ["other fields"] : [])],
    whole.map((h, i) => [
      i + 1,
      h.id,
      ...(h.extra ?? []),
      scoreCell(h.score),
      ...shown.map((k) => fieldCell(h.fields[k])),
      ...(others.length > 0 ? [JSON.stringify(Object.fromEntries(others.filter((k) => k in h.fields).map((k) => [k, h.fields[k]])))] : []),
    ]),
    { whole: true },
  );
  if (fit === hits.length) return table;
  const rest = hits.slice(fit).map((h) => h.id);
  return (
    `${table}\n\nPast the ${RESULT_BUDGET_CHARS.toLocaleString("en-US")}-character budget, ${rest.length} more hits by id only: ` +
    `${rest.map((id) => JSON.stringify(id)).join(", ")}. Search again with a smaller topK, or fields, to read them.`
  );
}

/** The API's name of a namespace in a records path: the default one is "__default__". */
export function recordsNamespace(namespace: string): string {
  return namespace === "" ? "__default__" : namespace;
}
