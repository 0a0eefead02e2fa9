// rerank_documents — order documents by relevance to a query with a reranking model.
import { z } from "zod";
import { fieldCell } from "../../src/tool-kit/text/hits.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
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
  async run({ model, query, documents, topN, rankFields = ["text"], returnDocuments = true }, { service, signal }) {
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
    const structured = { model: out.model, results, ...(out.usage?.rerank_units !== undefined && { rerankUnits: out.usage.rerank_units }) };
    const table = markdownTable(
      ["rank", "position", "id", "score", "text"],
      results.map((r, i) => [i + 1, r.position, r.id, r.score.toFixed(4), rankFields.map((f) => fieldCell(docs[r.position][f])).join(" / ")]),
      { whole: true }, // the caller's own documents, as many as it sent
    );
    return { structured, table: `${results.length} of ${docs.length} documents, most relevant first (model ${out.model}):\n\n${table}` };
  },
});
