// rerank_documents — order documents by relevance to a query with a reranking model.
import { z } from "zod";
import { fieldCell } from "../../src/tool-kit/text/hits.js";
import { markdownRow, markdownTable, type Cell } from "../../src/tool-kit/format/table.js";
import { budgetWords, countWithin, fitRows } from "../../src/tool-kit/results/budget.js";
import { estimateJsonTokens, estimateTokens } from "../../src/tool-kit/results/tokens.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const MAX_DOCUMENTS = 1000;

export default defineTool({
  name: "rerank_documents",
  title: "Rerank documents",
  description:
    "Order documents by relevance to a query with a reranking model (list_models with type rerank shows them). A document is a " +
    'text, or an object with a text field and any others, e.g. {"id": "a", "text": "…"}.',
  inputSchema: {
    model: z.string().min(1).max(100).describe("Reranking model name."),
    query: z.string().min(1).max(10_000).describe("What the documents should be relevant to."),
    documents: z.array(z.unknown()).min(1).max(MAX_DOCUMENTS).describe(`The documents, 1–${MAX_DOCUMENTS}: texts or objects.`),
    topN: z.number().int().min(1).max(MAX_DOCUMENTS).optional().describe("How many to return (default all)."),
    rankFields: z.array(z.string().min(1).max(100)).min(1).max(10).optional().describe('Fields the model reads (default ["text"]).'),
    returnDocuments: z.boolean().optional().describe("Return each document with its score (default true)."),
  },
  outputSchema: {
    model: z.string().describe("The model."),
    results: z
      .array(
        z.object({
          position: z.number().int().describe("The document's position in the call (0-based)."),
          id: z.string().optional().describe("The document's id field, if it has one."),
          score: z.number().describe("Relevance, 0–1, higher is more relevant."),
          document: z.record(z.string(), z.unknown()).optional().describe("The document (with returnDocuments)."),
        }),
      )
      .describe("Most relevant first."),
    rerankUnits: z.number().optional().describe("Rerank units used."),
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  async run({ model, query, documents, topN, rankFields = ["text"], returnDocuments = true }, { service, signal, config }) {
    const docs = documents.map((d, i) => {
      if (typeof d === "string") return { text: d };
      if (typeof d !== "object" || d === null || Array.isArray(d)) {
        throw new ToolError({ problem: `documents[${i}] is ${d === null ? "null" : Array.isArray(d) ? "a list" : typeof d}; give a text or an object with a text field` });
      }
      return d as Record<string, unknown>;
    });
    docs.forEach((d, i) => {
      const missing = rankFields.find((f) => typeof d[f] !== "string");
      if (missing !== undefined) {
        throw new ToolError({
          problem: `documents[${i}] has no text field ${JSON.stringify(missing)} (rankFields is ${JSON.stringify(rankFields)})`,
          next: "give each document that field, or set rankFields to the field that holds its text.",
        });
      }
    });
    const out = await service.inference.rerank(
      { model, query, documents: docs, rank_fields: rankFields, return_documents: returnDocuments, ...(topN !== undefined && { top_n: topN }) },
      signal,
    );
    const results = out.data.map((r) => {
      const id = docs[r.index]?.id;
      return {
        position: r.index,
        ...(typeof id === "string" && { id }),
        score: r.score,
        ...(returnDocuments && { document: (r.document ?? docs[r.index]) as Record<string, unknown> }),
      };
    });
    const headers = ["rank", "position", "id", "score", ...(returnDocuments ? ["text"] : [])];
    const row = (r: (typeof results)[number], i: number): Cell[] => [
      i + 1,
      r.position,
      r.id,
      r.score.toFixed(4),
      ...(returnDocuments ? [rankFields.map((f) => fieldCell(docs[r.position][f])).join(" / ")] : []),
    ];
    const budget = config.maxResultTokens;
    const n = results.length;
    // The most relevant first, whole, up to the budget; without the documents every position and score fits.
    return fitRows(
      n,
      budget,
      (i) => ({ text: estimateTokens(markdownRow(row(results[i], i), headers.length, { whole: true })), structured: estimateJsonTokens(results[i]) }),
      (shown) => {
        const structured = { model: out.model, results: results.slice(0, shown), ...(out.usage?.rerank_units !== undefined && { rerankUnits: out.usage.rerank_units }) };
        const table = markdownTable(headers, results.slice(0, shown).map(row), { whole: true }); // within the budget (results/budget.ts)
        const head = `${shown === n ? n : `${shown} of the best ${n}`} of ${docs.length} documents, most relevant first (model ${out.model}):`;
        const note = shown < n ? leftOut(shown) : undefined;
        return { structured, table: `${head}\n\n${table}`, ...(note && { note }) };
      },
    );

    function leftOut(shown: number): string {
      const what = `Results ${shown + 1}–${n} were left out: with their ${returnDocuments ? "documents" : "positions and scores"} they would pass this result's budget of ${budgetWords(budget)}.`;
      // How many results fit with positions and scores only (the documents are the caller's own).
      const bare = countWithin(results.map((r) => estimateJsonTokens({ position: r.position, id: r.id, score: r.score }) + estimateTokens(markdownRow(row(r, 0).slice(0, 4), 4))), budget);
      if (returnDocuments && bare === n) {
        return `${what} Next step: the same call with "returnDocuments": false gives every position and score (position is the document's place in documents).`;
      }
      return `${what} Next step: rerank the documents in parts of at most ${bare}${returnDocuments ? ' with "returnDocuments": false' : ""}, or a bigger --max-result-tokens.`;
    }
  },
});
