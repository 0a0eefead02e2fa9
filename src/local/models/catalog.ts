// The models the local service really has: the built-in lexical models, and the dense models of the user's own
// OpenAI-compatible embeddings server when one is configured (--embed-url / VECDB_EMBED_URL). Any other name is
// refused with the list of what is available here — never answered with a made-up vector.
import { BM25_MAX_TOKENS, normalized, scoreCorpus, termCounts, TooManyTokens } from "./bm25.js";
import { EmbeddingsServer } from "./openai-server.js";
import { ModelError } from "./errors.js";

export const LOCAL_BM25 = "local-bm25";
export const LOCAL_BM25_RERANK = "local-bm25-rerank";
export const MAX_EMBED_INPUTS = 96;
export const MAX_RERANK_DOCUMENTS = 1000;
const LIST_TTL_MS = 10_000;

export interface ModelInfo {
  model: string;
  short_description: string;
  type: "embed" | "rerank";
  vector_type?: "dense" | "sparse";
  default_dimension?: number;
  supported_dimensions?: number[];
  supported_metrics?: ("cosine" | "euclidean" | "dotproduct")[];
  modality: "text";
  max_sequence_length?: number;
  max_batch_size: number;
  provider_name: string;
  supported_parameters: Record<string, unknown>[];
}

export type Embedding =
  | { vector_type: "dense"; values: number[] }
  | { vector_type: "sparse"; sparse_indices: number[]; sparse_values: number[]; sparse_tokens: string[] };

export interface EmbedOptions {
  inputType?: "query" | "passage";
  truncate?: "END" | "NONE";
  dimension?: number;
}

/** What an index built for a model needs to know of it. */
export interface EmbedModel {
  name: string;
  vectorType: "dense" | "sparse";
  dimension?: number;
  metrics: ("cosine" | "euclidean" | "dotproduct")[];
}

const INPUT_TYPE = { parameter: "input_type", type: "one_of", value_type: "string", required: false, allowed_values: ["query", "passage"], default: "passage" };
const TRUNCATE = { parameter: "truncate", type: "one_of", value_type: "string", required: false, allowed_values: ["END", "NONE"], default: "END" };

const BUILT_IN: ModelInfo[] = [
  {
    model: LOCAL_BM25,
    short_description:
      "Built-in sparse lexical model: Unicode words, lower-cased, hashed to 32-bit indices (murmur3); values are term counts, and a search scores them as BM25 (k1 1.2, b 0.75) with the namespace's statistics.",
    type: "embed",
    vector_type: "sparse",
    supported_metrics: ["dotproduct"],
    modality: "text",
    max_sequence_length: BM25_MAX_TOKENS,
    max_batch_size: MAX_EMBED_INPUTS,
    provider_name: "vecdb-mcp local service",
    supported_parameters: [INPUT_TYPE, TRUNCATE],
  },
  {
    model: LOCAL_BM25_RERANK,
    short_description: "Built-in lexical reranker: each document scored against the query by BM25 over the documents given, mapped to [0, 1) as s / (s + 1).",
    type: "rerank",
    modality: "text",
    max_sequence_length: BM25_MAX_TOKENS,
    max_batch_size: MAX_RERANK_DOCUMENTS,
    provider_name: "vecdb-mcp local service",
    supported_parameters: [],
  },
];

export interface ModelsOptions {
  embedUrl?: string;
  embedKey?: string;
  embedTimeoutMs?: number;
}

export class Models {
  private readonly server: EmbeddingsServer | undefined;
  private listed: { at: number; names: string[] } | undefined;
  private readonly dimensions = new Map<string, number>();

  constructor(opts: ModelsOptions = {}) {
    this.server = opts.embedUrl ? new EmbeddingsServer({ url: opts.embedUrl, key: opts.embedKey, timeoutMs: opts.embedTimeoutMs }) : undefined;
  }

  /** Every model available now (the embeddings server's are left out, with no error, when it does not answer). */
  async list(): Promise<ModelInfo[]> {
    return (await this.listing()).models;
  }

  /** The models there are, and why the embeddings server's are missing when it could not be asked. */
  async listing(): Promise<{ models: ModelInfo[]; unlisted?: string }> {
    this.listed = undefined; // a listing asks the server afresh: it shows what is available now
    let unlisted: string | undefined;
    const remote = await this.remoteNames().catch((e: unknown): string[] => {
      unlisted = `The embeddings server's models are missing: ${e instanceof Error ? e.message : String(e)} Start it (or correct --embed-url), then list again; local-bm25 works without it.`;
      return [];
    });
    return { models: [...BUILT_IN, ...remote.map((name) => this.remoteInfo(name))], ...(unlisted ? { unlisted } : {}) };
  }

  async describe(name: string): Promise<ModelInfo> {
    const local = BUILT_IN.find((m) => m.model === name);
    if (local) return local;
    if (this.server && (await this.remoteNames()).includes(name)) return this.remoteInfo(name);
    throw new ModelError(404, "NOT_FOUND", `Model ${name} not found. ${await this.available()}`);
  }

  /** The embedding model an index may be built for (a probe call learns a dense model's dimension). */
  async embedModel(name: string): Promise<EmbedModel> {
    if (name === LOCAL_BM25) return { name, vectorType: "sparse", metrics: ["dotproduct"] };
    if (name === LOCAL_BM25_RERANK) throw new ModelError(400, "INVALID_ARGUMENT", `Model ${name} is a reranking model, not an embedding model. ${await this.available()}`);
    await this.requireRemote(name);
    return { name, vectorType: "dense", dimension: await this.dimension(name), metrics: ["cosine", "dotproduct", "euclidean"] };
  }

  async embed(name: string, inputs: string[], opts: EmbedOptions = {}): Promise<{ vectorType: "dense" | "sparse"; data: Embedding[]; tokens: number }> {
    if (inputs.length > MAX_EMBED_INPUTS) {
      throw new ModelError(400, "INVALID_ARGUMENT", `inputs has ${inputs.length} texts; ${name} embeds at most ${MAX_EMBED_INPUTS} per request.`);
    }
    if (name === LOCAL_BM25) {
      if (opts.dimension !== undefined) throw new ModelError(400, "INVALID_ARGUMENT", `dimension is not a parameter of ${LOCAL_BM25}: it is sparse (indices up to 2^32).`);
      let tokens = 0;
      const data = inputs.map((text, i): Embedding => {
        let counts;
        try {
          counts = termCounts(text, opts.truncate ?? "END");
        } catch (e) {
          if (e instanceof TooManyTokens) throw new ModelError(400, "INVALID_ARGUMENT", `inputs[${i}].text ${e.message}.`);
          throw e;
        }
        tokens += counts.length;
        return { vector_type: "sparse", sparse_indices: Array.from(counts.indices), sparse_values: Array.from(counts.values), sparse_tokens: counts.tokens };
      });
      return { vectorType: "sparse", data, tokens };
    }
    if (name === LOCAL_BM25_RERANK) throw new ModelError(400, "INVALID_ARGUMENT", `Model ${name} is a reranking model; embed with one of the embedding models. ${await this.available()}`);
    await this.requireRemote(name);
    if (opts.dimension !== undefined) {
      const known = await this.dimension(name);
      if (opts.dimension !== known) {
        throw new ModelError(400, "INVALID_ARGUMENT", `dimension ${opts.dimension} is not available for ${name}: it produces vectors of dimension ${known}.`);
      }
    }
    if (inputs.length === 0) return { vectorType: "dense", data: [], tokens: 0 };
    const { vectors, tokens } = await this.server!.embed(name, inputs).catch((e: unknown) => {
      this.listed = undefined; // the server may be gone or changed: the next call asks it again
      throw e;
    });
    this.learn(name, vectors[0].length);
    return { vectorType: "dense", data: vectors.map((values) => ({ vector_type: "dense", values })), tokens };
  }

  /** Relevance of each document to the query, in [0, 1), in the documents' order. */
  async rerank(name: string, query: string, documents: string[]): Promise<number[]> {
    if (name !== LOCAL_BM25_RERANK) {
      const what = name === LOCAL_BM25 || (await this.remoteNames().catch((): string[] => [])).includes(name) ? `Model ${name} is an embedding model, not a reranking model.` : `Model ${name} is not available on the local service.`;
      throw new ModelError(400, "INVALID_ARGUMENT", `${what} ${await this.available()}`);
    }
    if (documents.length > MAX_RERANK_DOCUMENTS) {
      throw new ModelError(400, "INVALID_ARGUMENT", `documents has ${documents.length} entries; ${name} ranks at most ${MAX_RERANK_DOCUMENTS}.`);
    }
    return scoreCorpus(query, documents).map(normalized);
  }

  /** "Available here: …. To add dense models …" — the sentence every refusal ends with. */
  async available(): Promise<string> {
    let failure = "";
    const remote = await this.remoteNames().catch((e: unknown) => {
      failure = e instanceof Error ? e.message : String(e);
      return undefined;
    });
    const names = [`${LOCAL_BM25} (sparse embedding)`, `${LOCAL_BM25_RERANK} (rerank)`, ...(remote ?? []).map((n) => `${n} (dense embedding, from ${this.server!.base})`)];
    const how = this.server
      ? remote === undefined
        ? ` The embeddings server's models are not listed: ${failure}`
        : ""
      : " Dense models come from an OpenAI-compatible embeddings server you run (Ollama, LM Studio, llama.cpp, vLLM, TEI): start the local service with --embed-url http://127.0.0.1:11434/v1 (or set VECDB_EMBED_URL).";
    return `Available on the local service: ${names.join(", ")}.${how}`;
  }

  private async requireRemote(name: string): Promise<void> {
    if (!this.server) throw new ModelError(400, "INVALID_ARGUMENT", `Model ${name} is not available on the local service. ${await this.available()}`);
    const names = await this.remoteNames(); // an unreachable server is a 503 naming it, not "unknown model"
    if (!names.includes(name)) throw new ModelError(400, "INVALID_ARGUMENT", `Model ${name} is not available on the local service. ${await this.available()}`);
  }

  private async remoteNames(): Promise<string[]> {
    if (!this.server) return [];
    if (this.listed && Date.now() - this.listed.at < LIST_TTL_MS) return this.listed.names;
    const names = (await this.server.models()).filter((n) => n !== LOCAL_BM25 && n !== LOCAL_BM25_RERANK);
    this.listed = { at: Date.now(), names };
    return names;
  }

  private async dimension(name: string): Promise<number> {
    const known = this.dimensions.get(name);
    if (known !== undefined) return known;
    const { vectors } = await this.server!.embed(name, ["dimension probe"]);
    return this.learn(name, vectors[0].length);
  }

  private learn(name: string, dimension: number): number {
    const known = this.dimensions.get(name);
    if (known !== undefined && known !== dimension) {
      throw new ModelError(502, "UNAVAILABLE", `The embeddings server returned ${dimension} values for ${name}, which gave ${known} before; its model changed. Indexes built for it expect ${known}.`);
    }
    this.dimensions.set(name, dimension);
    return dimension;
  }

  private remoteInfo(name: string): ModelInfo {
    const dimension = this.dimensions.get(name);
    return {
      model: name,
      short_description: `Dense model of the embeddings server at ${this.server!.base} (OpenAI-compatible). input_type and truncate are accepted; the server embeds queries and passages alike.`,
      type: "embed",
      vector_type: "dense",
      ...(dimension !== undefined ? { default_dimension: dimension, supported_dimensions: [dimension] } : {}),
      supported_metrics: ["cosine", "dotproduct", "euclidean"],
      modality: "text",
      max_batch_size: MAX_EMBED_INPUTS,
      provider_name: `OpenAI-compatible server at ${this.server!.base}`,
      supported_parameters: [INPUT_TYPE, TRUNCATE],
    };
  }
}
