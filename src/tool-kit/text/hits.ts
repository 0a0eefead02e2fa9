// What search_records and search_indexes share: the rerank argument, a hit as the tools return it, its table.
import { z } from "zod";
import { markdownRow, markdownTable } from "../format/table.js";
import { fitRows } from "../results/budget.js";
import { estimateJsonTokens, estimateTokens } from "../results/tokens.js";
import type { ToolResult } from "../tool.js";

/** Field columns in a hits table besides the text; the rest share one JSON column. */
const MAX_FIELD_COLUMNS = 6;

export const rerankArg = z.object({
  model: z.string().min(1).max(100).describe("See list_models."),
  rankFields: z.array(z.string().min(1).max(100)).min(1).max(10),
  topN: z.number().int().min(1).max(1000).optional(),
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
 * What index_documents writes beside a chunk's text and where it came from (src/ingest/documents/document-records.ts):
 * hashes, the chunk's number, the file's chunk count, size and times, and the chunking. A run needs them; a reader does
 * not, so tables leave them out unless asked for by name (structuredContent keeps them).
 */
const BOOKKEEPING_FIELDS: ReadonlySet<string> = new Set(["contentHash", "fileHash", "chunk", "chunks", "fileBytes", "modifiedMs", "modified", "chunking"]);

/** A record index_documents wrote: it carries both of its hashes. */
function isDocumentChunk(fields: Record<string, unknown>): boolean {
  return typeof fields.contentHash === "string" && typeof fields.fileHash === "string";
}

/** A field left out of the table: a bookkeeping name, and every hit that has it a document chunk (a user's own
 * "modified" or "chunk" field stays). */
function isBookkeeping(key: string, hits: readonly Hit[]): boolean {
  return BOOKKEEPING_FIELDS.has(key) && hits.every((h) => !(key in h.fields) || isDocumentChunk(h.fields));
}

/** A hit in a table: with the index (and namespace) it came from when several were searched. */
export type TableHit = Hit & { index?: string; namespace?: string };

export interface HitsTableOptions {
  /** The fields that hold the text (the index's embedded field): the columns right after the score. */
  textFields: readonly string[];
  /** The fields asked for by name, in order (shown even when bookkeeping); otherwise every field a hit has. */
  only?: readonly string[];
  /** Columns for the index (and the namespace, when any is not the default) of each hit. */
  withIndex?: boolean;
  /** No score column (documents read by id or filter have none). */
  withoutScore?: boolean;
}

/** The columns of a hits table and each hit's cells: id · [index · namespace] · score · text · the other fields. */
export function hitsColumns(hits: readonly TableHit[], opts: HitsTableOptions): { headers: string[]; cells: (h: TableHit) => string[] } {
  const present = opts.only ?? [...new Set(hits.flatMap((h) => Object.keys(h.fields)))].filter((k) => !isBookkeeping(k, hits));
  const text = opts.textFields.filter((k) => present.includes(k) || hits.some((h) => k in h.fields));
  const rest = present.filter((k) => !text.includes(k));
  const shown = rest.slice(0, MAX_FIELD_COLUMNS);
  const others = rest.slice(MAX_FIELD_COLUMNS);
  const withNamespace = opts.withIndex === true && hits.some((h) => h.namespace);
  const headers = [
    "id",
    ...(opts.withIndex ? ["index"] : []),
    ...(withNamespace ? ["namespace"] : []),
    ...(opts.withoutScore ? [] : ["score"]),
    ...text,
    ...shown,
    ...(others.length > 0 ? ["other fields"] : []),
  ];
  const cells = (h: TableHit) => [
    h.id,
    ...(opts.withIndex ? [h.index ?? ""] : []),
    ...(withNamespace ? [h.namespace ?? ""] : []),
    ...(opts.withoutScore ? [] : [scoreCell(h.score)]),
    ...text.map((k) => fieldCell(h.fields[k])),
    ...shown.map((k) => fieldCell(h.fields[k])),
    ...(others.length > 0 ? [JSON.stringify(Object.fromEntries(others.filter((k) => k in h.fields).map((k) => [k, h.fields[k]])))] : []),
  ];
  return { headers, cells };
}

/**
 * A search's result: the hits, best first and whole (every field), as many as keep each channel within `budget`
 * tokens; `rest(shown)` is the note for the hits left out.
 */
export function hitsResult<H extends TableHit, S>(
  hits: readonly H[],
  opts: HitsTableOptions & {
    budget: number;
    head: (shown: number) => string;
    structured: (shown: H[]) => S;
    rest: (shown: number) => string;
  },
): ToolResult<S> {
  const { headers, cells } = hitsColumns(hits, opts);
  return fitRows(
    hits.length,
    opts.budget,
    (i) => ({ text: estimateTokens(markdownRow(cells(hits[i]), headers.length, { whole: true })), structured: estimateJsonTokens(hits[i]) }),
    (shown) => {
      const kept = hits.slice(0, shown);
      const table = markdownTable(headers, kept.map(cells), { whole: true }); // within the budget (results/budget.ts)
      return {
        structured: opts.structured(kept),
        table: `${opts.head(shown)}\n\n${table}`,
        ...(shown < hits.length && { note: opts.rest(shown) }),
      };
    },
  );
}

