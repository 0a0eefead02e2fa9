// embed_texts — texts → vectors with an embedding model, for upsert_vectors / query_vectors on any index.
// The tools in tools/inference/ act on models, not on an index: they name no index and --indexes does not limit them.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { ordinal } from "../../src/tool-kit/format/ordinal.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { budgetWords, fitRows } from "../../src/tool-kit/results/budget.js";
import { estimateJsonTokens } from "../../src/tool-kit/results/tokens.js";

const MAX_INPUTS = 96;

const Embedding = z.object({
  values: z.array(z.number()).optional().describe("Dense vector (dense models)."),
  sparseValues: z
    .object({ indices: z.array(z.number()).describe("Positions."), values: z.array(z.number()).describe("Weights.") })
    .optional()
    .describe("Sparse vector (sparse models)."),
  sparseTokens: z.array(z.string()).optional().describe("The token of each sparse index, when the model says."),
});

export default defineTool({
  name: "embed_texts",
  title: "Embed texts",
  description:
    "Turn texts into vectors with an embedding model (list_models shows them), e.g. to write them with upsert_vectors or search " +
    "with query_vectors on an index of the model's dimension. Use inputType passage for stored texts, query for searches.",
  inputSchema: {
    model: z.string().min(1).max(100).describe("Embedding model name."),
    inputs: z.array(z.string().min(1).max(100_000)).min(1).max(MAX_INPUTS).describe(`The texts, 1–${MAX_INPUTS}.`),
    inputType: z.enum(["query", "passage"]).describe("passage for texts to store, query for texts to search with."),
    truncate: z.enum(["END", "NONE"]).optional().describe("END cuts a text past the model's token limit; NONE refuses it."),
    dimension: z.number().int().min(1).max(20_000).optional().describe("Output dimension, for models that offer several."),
  },
  outputSchema: {
    model: z.string().describe("The model."),
    vectorType: z.string().describe("dense or sparse."),
    embeddings: z.array(Embedding).describe("One per input, in order."),
    totalTokens: z.number().int().optional().describe("Tokens the model read."),
  },
  annotations: READ_ONLY,
  budgetedResult: true,
  async run({ model, inputs, inputType, truncate, dimension }, { service, signal, config }) {
    const out = await service.inference.embed(
      {
        model,
        inputs: inputs.map((text) => ({ text })),
        parameters: { input_type: inputType, ...(truncate && { truncate }), ...(dimension !== undefined && { dimension }) },
      },
      signal,
    );
    if (out.data.length !== inputs.length) throw new ToolError({ problem: `The service returned ${out.data.length} embeddings for ${inputs.length} texts, so none can be matched to its text.`, untouched: false });
    const embeddings = out.data.map((e) => ({
      ...(e.values && { values: e.values }),
      ...(e.sparse_indices && { sparseValues: { indices: e.sparse_indices, values: e.sparse_values ?? [] } }),
      ...(e.sparse_tokens && { sparseTokens: e.sparse_tokens }),
    }));
    const sizes = embeddings.map((e) => e.values?.length ?? e.sparseValues?.indices.length ?? 0);
    const size = out.vector_type === "sparse" ? `${Math.min(...sizes)}–${Math.max(...sizes)} non-zeros` : String(sizes[0]);
    const budget = config.maxResultTokens;
    const n = embeddings.length;
    // Whole vectors, in input order, up to the budget; the note names the inputs to embed again for the rest.
    return fitRows(
      n,
      budget,
      (i) => ({ text: 0, structured: estimateJsonTokens(embeddings[i]) }),
      (shown) => {
        const structured = { model: out.model, vectorType: out.vector_type, embeddings: embeddings.slice(0, shown), ...(out.usage?.total_tokens !== undefined && { totalTokens: out.usage.total_tokens }) };
        const table = markdownTable(
          ["model", "vector type", "count", out.vector_type === "sparse" ? "non-zeros" : "dimension", "tokens"],
          [[out.model, out.vector_type, shown, size, out.usage?.total_tokens]],
        );
        const where = shown === n ? "The vectors are in structuredContent.embeddings, one per input in order." : `The vectors of the first ${shown} of the ${n} inputs are in structuredContent.embeddings, in order.`;
        const note =
          shown < n
            ? `The vectors of inputs ${shown + 1}–${n} were left out: they would pass this result's budget of ${budgetWords(budget)}. ` +
              (shown === 0
                ? "Next step: a bigger --max-result-tokens (one vector takes more), or a smaller dimension where the model offers one."
                : `Next step: embed_texts again with the same model and inputType and the inputs from the ${ordinal(shown + 1)} on, ${shown} at a time.`)
            : undefined;
        return { structured, table: `${table}\n\n${where}`, ...(note && { note }) };
      },
    );
  },
});
