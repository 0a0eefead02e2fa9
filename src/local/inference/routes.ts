// The inference API on the control-plane origin, as the hosted service serves it from https://api.pinecone.io:
//   POST /embed {model, inputs: [{text}], parameters: {input_type, truncate, dimension}} → EmbeddingsList
//   POST /rerank {model, query, documents, top_n, rank_fields, return_documents, parameters} → RerankResult
//   GET  /models[?type=embed|rerank&vector_type=dense|sparse] → {models}; GET /models/{name} → ModelInfo
// Errors in the control plane's shape: {status, error: {code, message}}.
import { ControlError, invalid } from "../control/errors.js";
import { ModelError } from "../models/errors.js";
import type { Models } from "../models/catalog.js";
import { documentText, parseEmbedRequest, parseRerankRequest } from "./validate.js";

export type InferenceHandler = (ctx: { name: string; query: URLSearchParams; body: () => Promise<Record<string, unknown>> }) => Promise<[number, unknown]>;

/** ModelError → the control plane's error; anything else passes. */
export async function asControl<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ModelError) throw new ControlError(e.status, e.code, e.message);
    throw e;
  }
}

export function inferenceRoutes(models: Models): { pattern: RegExp; methods: Record<string, InferenceHandler> }[] {
  return [
    {
      pattern: /^\/embed\/?$/,
      methods: {
        POST: ({ body }) =>
          asControl(async () => {
            const req = parseEmbedRequest(await body());
            const out = await models.embed(req.model, req.texts, req.options);
            return [200, { model: req.model, vector_type: out.vectorType, data: out.data, usage: { total_tokens: out.tokens } }];
          }),
      },
    },
    {
      pattern: /^\/rerank\/?$/,
      methods: {
        POST: ({ body }) =>
          asControl(async () => {
            const req = parseRerankRequest(await body());
            const texts = req.documents.map((d, i) => documentText(d, i, req.rankFields));
            const scores = await models.rerank(req.model, req.query, texts);
            const ranked = scores
              .map((score, index) => ({ index, score }))
              .sort((a, b) => b.score - a.score || a.index - b.index)
              .slice(0, req.topN ?? scores.length)
              .map((r) => ({ ...r, ...(req.returnDocuments ? { document: req.documents[r.index] } : {}) }));
            return [200, { model: req.model, data: ranked, usage: { rerank_units: 1 } }];
          }),
      },
    },
    {
      pattern: /^\/models\/?$/,
      methods: {
        GET: ({ query }) =>
          asControl(async () => {
            const type = query.get("type");
            const vectorType = query.get("vector_type");
            if (type !== null && type !== "embed" && type !== "rerank") throw invalid(`type must be embed or rerank (got ${JSON.stringify(type)}).`);
            if (vectorType !== null && vectorType !== "dense" && vectorType !== "sparse") {
              throw invalid(`vector_type must be dense or sparse (got ${JSON.stringify(vectorType)}).`);
            }
            const { models: all, unlisted } = await models.listing();
            const shown = all.filter((m) => (type === null || m.type === type) && (vectorType === null || m.vector_type === vectorType));
            // "unlisted" is the local service's own field: why the embeddings server's models are missing.
            return [200, { models: shown, ...(unlisted && type !== "rerank" && vectorType !== "sparse" ? { unlisted } : {}) }];
          }),
      },
    },
    {
      pattern: /^\/models\/([^/]+)\/?$/,
      methods: { GET: ({ name }) => asControl(async () => [200, await models.describe(name)]) },
    },
  ];
}
