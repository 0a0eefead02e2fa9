// What search_records and search_indexes share: the rerank argument, a hit as the tools return it, its table.
import { z } from "zod";
import { metadataValue, shorten, TABLE_ROWS } from "../format/shorten.js";
import { markdownTable } from "../format/table.js";

/** Field columns in a hits table; the rest are in structuredContent. */
const MAX_FIELD_COLUMNS = 6;

export const rerankArg = z.object({
  model: z.string().min(1).max(100).describe("Reranking model (list_models with type rerank shows them; locally local-bm25-rerank)."),
  rankFields: z.array(z.string().min(1).max(100)).min(1).max(10).describe('Text fields the reranker reads, e.g. ["chunk_text"].'),
  topN: z.number().int().min(1).max(1000).optional().describe("Results to keep after reranking (default topK)."),
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

/** rank · id · [extra columns] · score · the fields (each shortened), the first TABLE_ROWS hits. */
export function hitsTable(hits: (Hit & { extra?: (string | number)[] })[], extraHeaders: string[] = [], only?: string[]): string {
  const rows = hits.slice(0, TABLE_ROWS);
  const keys = only ?? [...new Set(rows.flatMap((h) => Object.keys(h.fields)))];
  const shown = keys.slice(0, MAX_FIELD_COLUMNS);
  const table = markdownTable(
    ["rank", "id", ...extraHeaders, "score", ...shown.map((k) => shorten(k))],
    rows.map((h, i) => [i + 1, shorten(h.id), ...(h.extra ?? []), scoreCell(h.score), ...shown.map((k) => metadataValue(h.fields[k], 80))]),
  );
  const notes: string[] = [];
  if (hits.length > TABLE_ROWS) notes.push(`The other ${hits.length - TABLE_ROWS} hits are in structuredContent.hits.`);
  if (keys.length > shown.length) notes.push(`Fields not shown as columns (in structuredContent.hits): ${keys.slice(shown.length).map((k) => JSON.stringify(shorten(k))).join(", ")}.`);
  notes.push("Long texts are shortened here; structuredContent.hits has them in full.");
  return `${table}\n\n${notes.join("\n")}`;
}

/** The API's name of a namespace in a records path: the default one is "__default__". */
export function recordsNamespace(namespace: string): string {
  return namespace === "" ? "__default__" : namespace;
}
