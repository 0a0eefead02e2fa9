// The inference API (/embed, /rerank, /models). The hosted service serves it from https://api.pinecone.io — the
// default control-plane origin — and the local service from its control-plane origin too, so the base URL is the
// controller URL in both cases (as the official client does), and the key goes nowhere new.
import { z } from "zod";
import { ResponseShapeError } from "./errors.js";
import type { HttpClient } from "./http.js";

const EmbeddingSchema = z.looseObject({
  vector_type: z.string().optional(),
  values: z.array(z.number()).optional(),
  sparse_values: z.array(z.number()).optional(),
  sparse_indices: z.array(z.number()).optional(),
  sparse_tokens: z.array(z.string()).optional(),
});
const EmbeddingsListSchema = z.looseObject({
  model: z.string(),
  vector_type: z.string(),
  data: z.array(EmbeddingSchema),
  usage: z.looseObject({ total_tokens: z.number().optional() }).optional(),
});
export type EmbeddingsList = z.infer<typeof EmbeddingsListSchema>;

const RerankResultSchema = z.looseObject({
  model: z.string(),
  data: z.array(z.looseObject({ index: z.number(), score: z.number(), document: z.record(z.string(), z.unknown()).nullish() })),
  usage: z.looseObject({ rerank_units: z.number().optional() }).optional(),
});
export type RerankResult = z.infer<typeof RerankResultSchema>;

const ModelInfoSchema = z.looseObject({
  model: z.string(),
  short_description: z.string().optional(),
  type: z.string(),
  vector_type: z.string().nullish(),
  default_dimension: z.number().nullish(),
  supported_dimensions: z.array(z.number()).nullish(),
  max_sequence_length: z.number().nullish(),
  max_batch_size: z.number().nullish(),
  supported_metrics: z.array(z.string()).nullish(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;
const ModelListSchema = z.looseObject({ models: z.array(ModelInfoSchema).optional() });

export interface RerankRequest {
  model: string;
  query: string;
  documents: Record<string, unknown>[];
  top_n?: number;
  rank_fields?: string[];
  return_documents?: boolean;
}

export class Inference {
  private readonly base: string;

  constructor(
    private readonly http: HttpClient,
    controllerUrl: string,
  ) {
    this.base = controllerUrl.replace(/\/+$/, "");
    http.trustOrigin(this.base);
  }

  async embed(
    body: { model: string; inputs: { text: string }[]; parameters?: Record<string, unknown> },
    signal?: AbortSignal,
  ): Promise<EmbeddingsList> {
    return this.post("/embed", body, EmbeddingsListSchema, signal);
  }

  async rerank(body: RerankRequest, signal?: AbortSignal): Promise<RerankResult> {
    return this.post("/rerank", body, RerankResultSchema, signal);
  }

  async listModels(filter: { type?: "embed" | "rerank"; vector_type?: "dense" | "sparse" } = {}, signal?: AbortSignal): Promise<ModelInfo[]> {
    return (await this.modelListing(filter, signal)).models;
  }

  /** The models, and (from the local service) why an embeddings server's models are missing. */
  async modelListing(filter: { type?: "embed" | "rerank"; vector_type?: "dense" | "sparse" } = {}, signal?: AbortSignal): Promise<{ models: ModelInfo[]; unlisted?: string }> {
    const query = new URLSearchParams();
    if (filter.type) query.set("type", filter.type);
    if (filter.vector_type) query.set("vector_type", filter.vector_type);
    const url = `${this.base}/models${query.size > 0 ? `?${query.toString()}` : ""}`;
    const parsed = ModelListSchema.safeParse(await this.http.request<unknown>({ url, method: "GET", signal }));
    if (!parsed.success) throw new ResponseShapeError(`${this.base}/models`, "not a model list");
    const unlisted = (parsed.data as { unlisted?: unknown }).unlisted;
    return { models: parsed.data.models ?? [], ...(typeof unlisted === "string" ? { unlisted } : {}) };
  }

  private async post<S extends z.ZodType>(path: string, body: unknown, schema: S, signal?: AbortSignal): Promise<z.infer<S>> {
    const url = `${this.base}${path}`;
    // Embedding and reranking change nothing: safe to retry.
    const parsed = schema.safeParse(await this.http.request<unknown>({ url, method: "POST", body, signal }));
    if (!parsed.success) throw new ResponseShapeError(url, `not the answer ${path} promises`);
    return parsed.data;
  }
}
