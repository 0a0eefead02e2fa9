// list_models — the embedding and reranking models the service offers (hosted: its own; local: local-bm25,
// local-bm25-rerank and the dense models of the user's embeddings server).
import { z } from "zod";
import { escapeCell, markdownTable } from "../../src/tool-kit/format/table.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "list_models",
  title: "List models",
  description:
    "List the embedding and reranking models available: their names for create_index_for_model, embed_texts, rerank_documents " +
    "and search reranking, with vector type, dimensions and limits.",
  inputSchema: {
    type: z.enum(["embed", "rerank"]).optional().describe("Only embedding or only reranking models."),
  },
  outputSchema: {
    models: z
      .array(
        z.object({
          model: z.string().describe("Name."),
          type: z.string().describe("embed or rerank."),
          vectorType: z.string().optional().describe("dense or sparse (embedding models)."),
          dimensions: z.array(z.number()).optional().describe("Dimensions it can produce (dense models)."),
          metrics: z.array(z.string()).optional().describe("Metrics an index for it may use."),
          maxInputs: z.number().optional().describe("Texts (or documents) per request."),
          maxTokens: z.number().optional().describe("Tokens read per text."),
          description: z.string().optional().describe("What it is."),
        }),
      )
      .describe("The models."),
    unlisted: z.string().optional().describe("Why models of the local service's embeddings server are missing (it could not be asked)."),
  },
  annotations: READ_ONLY,
  async run({ type }, { service, signal }) {
    const { models: list, unlisted } = await service.inference.modelListing(type ? { type } : {}, signal);
    const models = list.map((m) => ({
      model: m.model,
      type: m.type,
      ...(m.vector_type && { vectorType: m.vector_type }),
      ...((m.supported_dimensions ?? (m.default_dimension ? [m.default_dimension] : undefined)) && {
        dimensions: m.supported_dimensions ?? [m.default_dimension!],
      }),
      ...(m.supported_metrics && { metrics: m.supported_metrics }),
      ...(typeof m.max_batch_size === "number" && { maxInputs: m.max_batch_size }),
      ...(typeof m.max_sequence_length === "number" && { maxTokens: m.max_sequence_length }),
      ...(m.short_description && { description: m.short_description }),
    }));
    const missing = unlisted ? `\n\n${escapeCell(unlisted, Infinity)}` : "";
    if (models.length === 0) return { structured: { models, ...(unlisted && { unlisted }) }, table: `No ${type ?? ""} models are available.`.replace("  ", " ") + missing };
    const table = markdownTable(
      ["name", "type", "vector type", "dimensions", "max inputs", "max tokens"],
      models.map((m) => [m.model, m.type, m.vectorType, m.dimensions?.join(", ") ?? (m.vectorType === "dense" ? "learnt on first use" : ""), m.maxInputs, m.maxTokens]),
    );
    return { structured: { models, ...(unlisted && { unlisted }) }, table: table + missing };
  },
});
