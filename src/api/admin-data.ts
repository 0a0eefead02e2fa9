// Data-plane calls of the administration surface, given an index's host: namespaces, update (by id or by filter),
// fetch by metadata, and bulk imports.
import type { z } from "zod";
import { dataUrlFor } from "./data.js";
import { ResponseShapeError } from "./errors.js";
import type { HttpClient } from "./http.js";
import type { FetchedRecord } from "./records.js";
import {
  FetchByMetadataSchema,
  ImportListSchema,
  ImportSchema,
  NamespaceListSchema,
  NamespaceSchema,
  StartImportSchema,
  UpdateResponseSchema,
  type ImportModel,
  type NamespaceDescription,
} from "./admin-records.js";

export interface UpdateRequest {
  namespace?: string;
  id?: string;
  values?: number[];
  sparseValues?: { indices: number[]; values: number[] };
  setMetadata?: Record<string, unknown>;
  filter?: Record<string, unknown>;
  dryRun?: boolean;
}

export class AdminData {
  constructor(
    private readonly http: HttpClient,
    private readonly controllerUrl: string,
  ) {}

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
    const url = `${dataUrlFor(host, this.controllerUrl)}/namespaces/${encodeURIComponent(namespace)}`;
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
    const url = `${dataUrlFor(host, this.controllerUrl)}/bulk/imports/${encodeURIComponent(id)}`;
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
    const url = `${dataUrlFor(host, this.controllerUrl)}${path}`;
    const answer = await this.http.request<unknown>({ url, method, signal, ...(body !== undefined && { body }), retry });
    const parsed = schema.safeParse(answer ?? {});
    if (!parsed.success) throw new ResponseShapeError(url.split("?")[0], `${parsed.error.issues[0]?.path.join(".") || "body"}: does not match the API`);
    return parsed.data;
  }
}
