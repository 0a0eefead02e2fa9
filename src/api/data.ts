// Data-plane calls, given an index's host (as the control plane names it), by resource: vectors (upsert, query,
// fetch, update, delete, list), records (text upsert and search), namespaces and bulk imports.
import type { z } from "zod";
import { ResponseShapeError } from "./errors.js";
import { dataUrlFor } from "./index-url.js";
import { recordsOfFetchAnswer, type RawRecord } from "./fetch-answer.js";
import type { HttpClient } from "./http.js";
import {
  FetchByMetadataSchema,
  FetchResponseSchema,
  ImportListSchema,
  ImportSchema,
  NamespaceListSchema,
  NamespaceSchema,
  StartImportSchema,
  UpdateResponseSchema,
  IndexStatsSchema,
  ListResponseSchema,
  QueryResponseSchema,
  SearchRecordsResponseSchema,
  UpsertResponseSchema,
  type ImportModel,
  type NamespaceDescription,
  type SearchRecordsResponse,
  type FetchedRecord,
  type IndexStats,
  type QueryMatch,
} from "./records.js";

/** The body of POST {host}/query: by `vector` and/or `sparseVector`, or by a stored record's `id`. */
export interface QueryRequest {
  topK: number;
  namespace?: string;
  vector?: number[];
  sparseVector?: { indices: number[]; values: number[] };
  id?: string;
  filter?: Record<string, unknown>;
  includeValues?: boolean;
  includeMetadata?: boolean;
}

/** The body of a records search (the API's snake_case names). */
export interface SearchRecordsRequest {
  query: {
    top_k: number;
    inputs?: { text: string };
    vector?: { values?: number[]; sparse_values?: number[]; sparse_indices?: number[] };
    id?: string;
    filter?: Record<string, unknown>;
  };
  fields?: string[];
  rerank?: { model: string; rank_fields: string[]; top_n?: number; query?: string };
}

export interface UpdateRequest {
  namespace?: string;
  id?: string;
  values?: number[];
  sparseValues?: { indices: number[]; values: number[] };
  setMetadata?: Record<string, unknown>;
  filter?: Record<string, unknown>;
  dryRun?: boolean;
}

export class DataPlane {
  constructor(
    private readonly http: HttpClient,
    private readonly controllerUrl: string,
  ) {}

  dataUrl(host: string): string {
    return dataUrlFor(host, this.controllerUrl);
  }

  async upsert(host: string, body: Buffer /* already-serialised JSON */, signal?: AbortSignal): Promise<{ upsertedCount: number }> {
    const url = `${this.dataUrl(host)}/vectors/upsert`;
    const answer = await this.http.request<unknown>({ url, method: "POST", body, signal });
    const parsed = UpsertResponseSchema.safeParse(answer ?? {});
    if (!parsed.success) throw new ResponseShapeError(url, "upsertedCount is not a non-negative integer");
    return { upsertedCount: parsed.data.upsertedCount ?? 0 };
  }

  /**
   * POST {host}/records/namespaces/{namespace}/upsert: text records as NDJSON (one JSON object a line). The service
   * answers 201 with no body; upserts are idempotent, so retried like vector upserts.
   */
  async upsertRecords(host: string, namespace: string, ndjson: Buffer, signal?: AbortSignal): Promise<void> {
    const url = `${this.dataUrl(host)}/records/namespaces/${encodeURIComponent(namespace)}/upsert`;
    await this.http.request<unknown>({ url, method: "POST", body: ndjson, contentType: "application/x-ndjson", signal });
  }

  /** POST {host}/records/namespaces/{namespace}/search: by text (integrated embedding), vector or id; optionally reranked. */
  async searchRecords(host: string, namespace: string, body: SearchRecordsRequest, signal?: AbortSignal): Promise<SearchRecordsResponse> {
    const url = `${this.dataUrl(host)}/records/namespaces/${encodeURIComponent(namespace)}/search`;
    const parsed = SearchRecordsResponseSchema.safeParse(await this.http.request<unknown>({ url, method: "POST", body, signal }));
    if (!parsed.success) throw new ResponseShapeError(url, "not a records search answer");
    return parsed.data;
  }

  /** POST {host}/vectors/update: sets these metadata fields of one record, keeping its others. Idempotent, so retried. */
  async setMetadata(host: string, body: { id: string; namespace?: string; setMetadata: Record<string, unknown> }, signal?: AbortSignal): Promise<void> {
    await this.http.request<unknown>({ url: `${this.dataUrl(host)}/vectors/update`, method: "POST", body, signal });
  }

  /** POST {host}/vectors/delete: exactly one of ids, filter or deleteAll, in one namespace. Idempotent, so retried. */
  async deleteVectors(
    host: string,
    body: { namespace?: string; ids?: string[]; filter?: Record<string, unknown>; deleteAll?: boolean },
    signal?: AbortSignal,
  ): Promise<void> {
    await this.http.request<unknown>({ url: `${this.dataUrl(host)}/vectors/delete`, method: "POST", body, signal });
  }

  /** POST {host}/describe_index_stats: record counts per namespace (with a filter: of the matching records only). */
  async describeIndexStats(host: string, signal?: AbortSignal, filter?: Record<string, unknown>): Promise<IndexStats> {
    const url = `${this.dataUrl(host)}/describe_index_stats`;
    const body = filter === undefined ? {} : { filter };
    const parsed = IndexStatsSchema.safeParse(await this.http.request<unknown>({ url, method: "POST", body, signal }));
    if (!parsed.success) throw new ResponseShapeError(url, "not an index stats record");
    return parsed.data;
  }

  /** GET {host}/vectors/fetch: the records with these ids (≤ 1000) that exist, by id. */
  async fetch(host: string, ids: string[], namespace?: string, signal?: AbortSignal): Promise<Record<string, FetchedRecord>> {
    const query = new URLSearchParams(ids.map((id): [string, string] => ["ids", id]));
    if (namespace !== undefined) query.set("namespace", namespace);
    const url = `${this.dataUrl(host)}/vectors/fetch?${query.toString()}`;
    const parsed = FetchResponseSchema.safeParse(await this.http.request<unknown>({ url, method: "GET", signal }));
    if (!parsed.success) throw new ResponseShapeError(url.split("?")[0], "not a fetch answer");
    return parsed.data.vectors ?? {};
  }

  /**
   * fetch() for any number of ids, split so that no request's query string is longer than `maxQueryChars`: the ids
   * travel in the URL, and a service (Node's own http server among them) refuses a request line past about 16 KB.
   */
  async fetchMany(
    host: string,
    ids: string[],
    namespace?: string,
    signal?: AbortSignal,
    maxQueryChars = 6000,
  ): Promise<Record<string, FetchedRecord>> {
    const found: Record<string, FetchedRecord> = {};
    for (const g of idGroups(ids, maxQueryChars)) Object.assign(found, await this.fetch(host, g, namespace, signal));
    return found;
  }

  /**
   * The whole records with these ids that exist, each as the JSON text the service sent (fetch-answer.ts), for
   * copying: any number of ids, split as fetchMany splits them, the groups fetched `parallel` at a time.
   */
  async fetchRecords(host: string, ids: string[], namespace: string, signal?: AbortSignal, parallel = 4): Promise<Map<string, RawRecord>> {
    const groups = idGroups(ids, 6000);
    const found = new Map<string, RawRecord>();
    const answers: string[] = new Array(groups.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < groups.length; i = next++) {
        const query = new URLSearchParams(groups[i].map((id): [string, string] => ["ids", id]));
        query.set("namespace", namespace);
        answers[i] = await this.http.request<string>({ url: `${this.dataUrl(host)}/vectors/fetch?${query.toString()}`, method: "GET", signal, raw: true });
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, groups.length) }, worker));
    for (const text of answers) {
      let records: Map<string, RawRecord>;
      try {
        records = recordsOfFetchAnswer(text);
      } catch (err) {
        throw new ResponseShapeError(`${this.dataUrl(host)}/vectors/fetch`, (err as Error).message);
      }
      for (const [id, record] of records) found.set(id, record);
    }
    return found;
  }

  /**
   * The metadata of the records with these ids that exist (any number of ids, split as fetchMany splits them). The
   * answer is checked for what is used — records by id, each with its metadata — not value by value: index_documents
   * fetches thousands of records for a few metadata fields, and checking every value of each cost more than the rest.
   */
  async fetchMetadata(host: string, ids: string[], namespace?: string, signal?: AbortSignal): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
    for (const g of idGroups(ids, 6000)) {
      const query = new URLSearchParams(g.map((id): [string, string] => ["ids", id]));
      if (namespace !== undefined) query.set("namespace", namespace);
      const url = `${this.dataUrl(host)}/vectors/fetch?${query.toString()}`;
      const body = await this.http.request<unknown>({ url, method: "GET", signal });
      const vectors = isObject(body) ? (body.vectors ?? {}) : undefined;
      if (!isObject(vectors)) throw new ResponseShapeError(url.split("?")[0], "not a fetch answer");
      for (const [id, record] of Object.entries(vectors)) {
        if (!isObject(record) || (record.metadata !== undefined && !isObject(record.metadata))) throw new ResponseShapeError(url.split("?")[0], "not a fetch answer");
        found.set(id, (record.metadata as Record<string, unknown> | undefined) ?? {});
      }
    }
    return found;
  }

  /** POST {host}/query: the topK nearest records, best first. */
  async query(host: string, body: QueryRequest, signal?: AbortSignal): Promise<{ matches: QueryMatch[]; namespace?: string }> {
    const url = `${this.dataUrl(host)}/query`;
    const parsed = QueryResponseSchema.safeParse(await this.http.request<unknown>({ url, method: "POST", body, signal }));
    if (!parsed.success) throw new ResponseShapeError(url, "not a query answer");
    return { matches: parsed.data.matches ?? [], namespace: parsed.data.namespace };
  }

  /** GET {host}/vectors/list: one page of record ids (in id order) and the token of the next page, if any. */
  async listIds(
    host: string,
    opts: { namespace?: string; prefix?: string; limit?: number; paginationToken?: string },
    signal?: AbortSignal,
  ): Promise<{ ids: string[]; next?: string }> {
    const query = new URLSearchParams();
    if (opts.namespace !== undefined) query.set("namespace", opts.namespace);
    if (opts.prefix !== undefined) query.set("prefix", opts.prefix);
    if (opts.limit !== undefined) query.set("limit", String(opts.limit));
    if (opts.paginationToken !== undefined) query.set("paginationToken", opts.paginationToken);
    const url = `${this.dataUrl(host)}/vectors/list?${query.toString()}`;
    const parsed = ListResponseSchema.safeParse(await this.http.request<unknown>({ url, method: "GET", signal }));
    if (!parsed.success) throw new ResponseShapeError(url.split("?")[0], "not a list answer");
    const next = parsed.data.pagination?.next;
    return { ids: (parsed.data.vectors ?? []).map((v) => v.id), ...(next ? { next } : {}) };
  }

  async listNamespaces(
    host: string,
    opts: { prefix?: string; limit?: number; paginationToken?: string },
    signal?: AbortSignal,
  ): Promise<{ namespaces: NamespaceDescription[]; next?: string; total?: number }> {
    const q = new URLSearchParams();
    if (opts.prefix !== undefined) q.set("prefix", opts.prefix);
    if (opts.limit !== undefined) q.set("limit", String(opts.limit));
    if (opts.paginationToken !== undefined) q.set("paginationToken", opts.paginationToken);
    const list = await this.call(host, `/namespaces?${q}`, "GET", NamespaceListSchema, signal);
    return {
      namespaces: list.namespaces ?? [],
      ...(list.pagination?.next ? { next: list.pagination.next } : {}),
      ...(typeof list.total_count === "number" ? { total: list.total_count } : {}),
    };
  }

  describeNamespace(host: string, namespace: string, signal?: AbortSignal): Promise<NamespaceDescription> {
    return this.call(host, `/namespaces/${encodeURIComponent(namespace)}`, "GET", NamespaceSchema, signal);
  }

  /** POST /namespaces. Not retried: a lost answer would come back as 409 on the second try. */
  createNamespace(host: string, body: { name: string; schema?: { fields: Record<string, { filterable: boolean }> } }, signal?: AbortSignal) {
    return this.call(host, "/namespaces", "POST", NamespaceSchema, signal, body, false);
  }

  /** DELETE /namespaces/{namespace}. Not retried: a lost answer would come back as 404. */
  async deleteNamespace(host: string, namespace: string, signal?: AbortSignal): Promise<void> {
    const url = `${this.dataUrl(host)}/namespaces/${encodeURIComponent(namespace)}`;
    await this.http.request<unknown>({ url, method: "DELETE", signal, retry: false });
  }

  /** POST /vectors/update: {} by id; {matchedRecords} by filter. Idempotent, so retried. */
  async update(host: string, body: UpdateRequest, signal?: AbortSignal): Promise<{ matchedRecords?: number }> {
    const answer = await this.call(host, "/vectors/update", "POST", UpdateResponseSchema, signal, body);
    return typeof answer.matchedRecords === "number" ? { matchedRecords: answer.matchedRecords } : {};
  }

  async fetchByMetadata(
    host: string,
    body: { namespace?: string; filter: Record<string, unknown>; limit?: number; paginationToken?: string },
    signal?: AbortSignal,
  ): Promise<{ vectors: Record<string, FetchedRecord>; next?: string }> {
    const answer = await this.call(host, "/vectors/fetch_by_metadata", "POST", FetchByMetadataSchema, signal, body);
    return { vectors: answer.vectors ?? {}, ...(answer.pagination?.next ? { next: answer.pagination.next } : {}) };
  }

  /** POST /bulk/imports. Not retried: a lost answer would start a second import. */
  startImport(host: string, body: { uri: string; integrationId?: string; errorMode?: { onError: "abort" | "continue" } }, signal?: AbortSignal) {
    return this.call(host, "/bulk/imports", "POST", StartImportSchema, signal, body, false);
  }

  async listImports(host: string, opts: { limit?: number; paginationToken?: string }, signal?: AbortSignal): Promise<{ imports: ImportModel[]; next?: string }> {
    const q = new URLSearchParams();
    if (opts.limit !== undefined) q.set("limit", String(opts.limit));
    if (opts.paginationToken !== undefined) q.set("paginationToken", opts.paginationToken);
    const list = await this.call(host, `/bulk/imports?${q}`, "GET", ImportListSchema, signal);
    return { imports: list.data ?? [], ...(list.pagination?.next ? { next: list.pagination.next } : {}) };
  }

  describeImport(host: string, id: string, signal?: AbortSignal): Promise<ImportModel> {
    return this.call(host, `/bulk/imports/${encodeURIComponent(id)}`, "GET", ImportSchema, signal);
  }

  async cancelImport(host: string, id: string, signal?: AbortSignal): Promise<void> {
    const url = `${this.dataUrl(host)}/bulk/imports/${encodeURIComponent(id)}`;
    await this.http.request<unknown>({ url, method: "DELETE", signal, retry: false });
  }

  private async call<S extends z.ZodType>(
    host: string,
    path: string,
    method: "GET" | "POST" | "DELETE" | "PATCH",
    schema: S,
    signal?: AbortSignal,
    body?: unknown,
    retry = true,
  ): Promise<z.infer<S>> {
    const url = `${this.dataUrl(host)}${path}`;
    const answer = await this.http.request<unknown>({ url, method, signal, ...(body !== undefined && { body }), retry });
    const parsed = schema.safeParse(answer ?? {});
    if (!parsed.success) throw new ResponseShapeError(url.split("?")[0], `${parsed.error.issues[0]?.path.join(".") || "body"}: does not match the API`);
    return parsed.data;
  }
}

/** Ids in groups whose query string stays under `maxQueryChars` (and at most 1,000 ids, the API's limit). */
function idGroups(ids: readonly string[], maxQueryChars: number): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let length = 0;
  for (const id of ids) {
    const cost = encodeURIComponent(id).length + 5; // "&ids=" + the encoded id
    if (group.length > 0 && (length + cost > maxQueryChars || group.length >= 1000)) {
      groups.push(group);
      group = [];
      length = 0;
    }
    group.push(id);
    length += cost;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
