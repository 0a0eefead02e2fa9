// The documents API (2026-07): indexes made from a schema of typed fields (full-text, dense, sparse), and the
// /namespaces/{ns}/documents/* calls on their hosts. Every call names 2026-07 whatever version the server is set to
// speak, since the API exists from that version only.
import { z } from "zod";
import { ResponseShapeError } from "./errors.js";
import type { HttpClient } from "./http.js";
import { dataUrlFor } from "./index-url.js";

export const DOCUMENTS_API_VERSION = "2026-07";

const FullTextSearch = z.looseObject({
  language: z.string().optional(),
  stemming: z.boolean().optional(),
  stop_words: z.boolean().optional(),
  ngram: z.looseObject({ min_gram: z.number(), max_gram: z.number(), prefix_only: z.boolean().optional() }).nullish(),
});

const SchemaField = z.looseObject({
  type: z.string().optional(),
  description: z.string().nullish(),
  dimension: z.number().nullish(),
  metric: z.string().nullish(),
  model: z.string().nullish(),
  full_text_search: FullTextSearch.nullish(),
  filterable: z.boolean().optional(),
});
export type SchemaField = z.infer<typeof SchemaField>;

/** An index as 2026-07 describes it: only what the documents tools read. */
const DocumentIndexSchema = z.looseObject({
  name: z.string(),
  host: z.string().nullish(),
  status: z.looseObject({ ready: z.boolean(), state: z.string() }),
  schema: z.looseObject({ fields: z.record(z.string(), SchemaField) }).nullish(),
  deployment: z.record(z.string(), z.unknown()).nullish(),
  deletion_protection: z.string().nullish(),
});
export type DocumentIndex = z.infer<typeof DocumentIndexSchema>;

/** A field of a new index's schema, as POST /indexes takes it. */
export type NewSchemaField =
  | { type: "string"; full_text_search: { language?: string; stemming?: boolean; stop_words?: boolean; ngram?: { min_gram: number; max_gram: number; prefix_only?: boolean } }; description?: string }
  | { type: "dense_vector"; dimension: number; metric: string; description?: string }
  | { type: "sparse_vector"; description?: string };

export interface CreateDocumentIndexRequest {
  name: string;
  deployment: { deployment_type: "managed"; cloud: string; region: string };
  schema: { fields: Record<string, NewSchemaField> };
  deletion_protection?: "enabled" | "disabled";
  tags?: Record<string, string>;
}

/** One scoring clause of a search (`score_by`). */
export type ScoreBy =
  | { type: "text"; fields: string[]; query: string }
  | { type: "query_string"; query: string }
  | { type: "dense_vector"; fields: [string]; values: number[] }
  | { type: "sparse_vector"; fields: [string]; sparse_values: { indices: number[]; values: number[] } };

export interface SearchDocumentsRequest {
  score_by: ScoreBy[];
  top_k: number;
  include_fields?: string[];
  filter?: Record<string, unknown>;
}

export type Document = Record<string, unknown> & { _id: string };

const Usage = z.looseObject({ read_units: z.number().optional() }).nullish();
const Pagination = z.looseObject({ next: z.string().nullish() }).nullish();
const Match = z.looseObject({ _id: z.string(), _score: z.number().nullable() });
const SearchAnswer = z.looseObject({ matches: z.array(Match), namespace: z.string().optional(), usage: Usage });
export type SearchDocumentsAnswer = z.infer<typeof SearchAnswer>;
const FetchAnswer = z.looseObject({ documents: z.record(z.string(), z.looseObject({ _id: z.string() })), namespace: z.string().optional(), pagination: Pagination, usage: Usage });
const ListAnswer = z.looseObject({ documents: z.array(z.looseObject({ _id: z.string() })), namespace: z.string().optional(), pagination: Pagination, usage: Usage });
const UpsertAnswer = z.looseObject({ upserted_count: z.number().optional() });
const MatchedAnswer = z.looseObject({ matched_records: z.number().nullish() });

export class Documents {
  private readonly base: string;

  constructor(
    private readonly http: HttpClient,
    private readonly controllerUrl: string,
  ) {
    this.base = controllerUrl.replace(/\/+$/, "");
  }

  /** POST /indexes with deployment + schema. Not retried: a lost answer would come back as 409. */
  async createIndex(body: CreateDocumentIndexRequest, signal?: AbortSignal): Promise<DocumentIndex> {
    return this.call(`${this.base}/indexes`, DocumentIndexSchema, body, signal, "POST", false);
  }

  /** GET /indexes/{name} in the 2026-07 shape (its schema). */
  async describeIndex(name: string, signal?: AbortSignal): Promise<DocumentIndex> {
    return this.call(`${this.base}/indexes/${encodeURIComponent(name)}`, DocumentIndexSchema, undefined, signal, "GET");
  }

  /** 202; not retried, so a lost answer is reported rather than written twice over a newer write. */
  async upsert(host: string, namespace: string, documents: Document[], signal?: AbortSignal): Promise<number> {
    const answer = await this.call(this.route(host, namespace, "upsert"), UpsertAnswer, { documents }, signal, "POST", false);
    return answer.upserted_count ?? documents.length;
  }

  async search(host: string, namespace: string, body: SearchDocumentsRequest, signal?: AbortSignal): Promise<SearchDocumentsAnswer> {
    return this.call(this.route(host, namespace, "search"), SearchAnswer, body, signal);
  }

  async fetch(
    host: string,
    namespace: string,
    body: { ids?: string[]; filter?: Record<string, unknown>; include_fields?: string[]; limit?: number; pagination_token?: string },
    signal?: AbortSignal,
  ): Promise<{ documents: Document[]; next?: string }> {
    const answer = await this.call(this.route(host, namespace, "fetch"), FetchAnswer, body, signal);
    return { documents: Object.values(answer.documents) as Document[], ...(answer.pagination?.next && { next: answer.pagination.next }) };
  }

  async list(host: string, namespace: string, body: { prefix?: string; limit?: number; pagination_token?: string }, signal?: AbortSignal): Promise<{ ids: string[]; next?: string }> {
    const answer = await this.call(this.route(host, namespace, "list"), ListAnswer, body, signal);
    return { ids: answer.documents.map((d) => d._id), ...(answer.pagination?.next && { next: answer.pagination.next }) };
  }

  /** By ids, filter or delete_all; the count of a filtered delete when the service gives it. */
  async delete(host: string, namespace: string, body: { ids?: string[]; filter?: Record<string, unknown>; delete_all?: true }, signal?: AbortSignal): Promise<number | undefined> {
    return (await this.call(this.route(host, namespace, "delete"), MatchedAnswer, body, signal, "POST")).matched_records ?? undefined;
  }

  async update(
    host: string,
    namespace: string,
    body: { documents?: Document[]; filter?: Record<string, unknown>; set_fields?: Record<string, unknown>; remove_fields?: string[] },
    signal?: AbortSignal,
  ): Promise<number | undefined> {
    return (await this.call(this.route(host, namespace, "update"), MatchedAnswer, body, signal, "POST", false)).matched_records ?? undefined;
  }

  private route(host: string, namespace: string, operation: string): string {
    return `${dataUrlFor(host, this.controllerUrl)}/namespaces/${encodeURIComponent(namespace)}/documents/${operation}`;
  }

  private async call<S extends z.ZodType>(url: string, schema: S, body: unknown, signal: AbortSignal | undefined, method: "GET" | "POST" = "POST", retry = true): Promise<z.infer<S>> {
    const answer = await this.http.request<unknown>({ url, method, signal, apiVersion: DOCUMENTS_API_VERSION, retry, ...(body !== undefined && { body }) });
    const parsed = schema.safeParse(answer ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ResponseShapeError(url, `${issue && issue.path.length > 0 ? issue.path.join(".") : "body"}: ${issue?.message ?? "does not match the API"}`);
    }
    return parsed.data;
  }
}
