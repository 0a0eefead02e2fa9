// Control-plane calls of the administration surface: configure an index, backups of serverless indexes, and the
// restore jobs that make indexes from them (2025-04 and later).
import type { z } from "zod";
import { ResponseShapeError } from "./errors.js";
import type { HttpClient } from "./http.js";
import { IndexModelSchema, type IndexModel } from "./records.js";
import {
  BackupListSchema,
  BackupModelSchema,
  CreateIndexFromBackupSchema,
  RestoreJobListSchema,
  RestoreJobSchema,
  type BackupModel,
  type RestoreJob,
} from "./admin-records.js";

/** The body of PATCH /indexes/{name}: only what changes. */
export interface ConfigureIndexRequest {
  deletion_protection?: "enabled" | "disabled";
  tags?: Record<string, string>;
  spec?: { pod?: { replicas?: number; pod_type?: string } };
  embed?: { field_map?: Record<string, unknown>; read_parameters?: Record<string, unknown>; write_parameters?: Record<string, unknown> };
}

export interface Page<T> { items: T[]; next?: string }

export class AdminControl {
  private readonly base: string;

  constructor(
    private readonly http: HttpClient,
    controllerUrl: string,
  ) {
    this.base = controllerUrl.replace(/\/+$/, "");
  }

  /** PATCH /indexes/{name} (202): the index as it is after the change. */
  async configureIndex(name: string, body: ConfigureIndexRequest, signal?: AbortSignal): Promise<IndexModel> {
    return this.call(`/indexes/${encodeURIComponent(name)}`, "PATCH", IndexModelSchema, signal, body);
  }

  /** POST /indexes/{name}/backups (201). Not retried: a lost answer would make a second backup. */
  async createBackup(index: string, body: { name?: string; description?: string }, signal?: AbortSignal): Promise<BackupModel> {
    return this.call(`/indexes/${encodeURIComponent(index)}/backups`, "POST", BackupModelSchema, signal, body);
  }

  /** GET /backups or /indexes/{name}/backups: one page. */
  async listBackups(opts: { index?: string; limit?: number; paginationToken?: string }, signal?: AbortSignal): Promise<Page<BackupModel>> {
    const path = opts.index === undefined ? "/backups" : `/indexes/${encodeURIComponent(opts.index)}/backups`;
    const list = await this.call(`${path}${query(opts)}`, "GET", BackupListSchema, signal);
    return { items: list.data ?? [], ...(list.pagination?.next ? { next: list.pagination.next } : {}) };
  }

  async describeBackup(backupId: string, signal?: AbortSignal): Promise<BackupModel> {
    return this.call(`/backups/${encodeURIComponent(backupId)}`, "GET", BackupModelSchema, signal);
  }

  /** DELETE /backups/{id} (202). Not retried. */
  async deleteBackup(backupId: string, signal?: AbortSignal): Promise<void> {
    await this.http.request<unknown>({ url: `${this.base}/backups/${encodeURIComponent(backupId)}`, method: "DELETE", signal, retry: false });
  }

  /** POST /backups/{id}/create-index (202). Not retried. */
  async createIndexFromBackup(
    backupId: string,
    body: { name: string; tags?: Record<string, string>; deletion_protection?: "enabled" | "disabled" },
    signal?: AbortSignal,
  ): Promise<{ restore_job_id: string; index_id: string }> {
    return this.call(`/backups/${encodeURIComponent(backupId)}/create-index`, "POST", CreateIndexFromBackupSchema, signal, body);
  }

  async listRestoreJobs(opts: { limit?: number; paginationToken?: string }, signal?: AbortSignal): Promise<Page<RestoreJob>> {
    const list = await this.call(`/restore-jobs${query(opts)}`, "GET", RestoreJobListSchema, signal);
    return { items: list.data ?? [], ...(list.pagination?.next ? { next: list.pagination.next } : {}) };
  }

  async describeRestoreJob(jobId: string, signal?: AbortSignal): Promise<RestoreJob> {
    return this.call(`/restore-jobs/${encodeURIComponent(jobId)}`, "GET", RestoreJobSchema, signal);
  }

  private async call<S extends z.ZodType>(path: string, method: "GET" | "POST" | "DELETE" | "PATCH", schema: S, signal?: AbortSignal, body?: unknown): Promise<z.infer<S>> {
    const url = `${this.base}${path}`;
    const answer = await this.http.request<unknown>({ url, method, signal, ...(body !== undefined && { body }), ...(method !== "GET" && { retry: false }) });
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ResponseShapeError(url.split("?")[0], `${issue?.path.join(".") || "body"}: ${issue?.message ?? "does not match the API"}`);
    }
    return parsed.data;
  }
}

function query(opts: { limit?: number; paginationToken?: string }): string {
  const q = new URLSearchParams();
  if (opts.limit !== undefined) q.set("limit", String(opts.limit));
  if (opts.paginationToken !== undefined) q.set("paginationToken", opts.paginationToken);
  const s = q.toString();
  return s ? `?${s}` : "";
}
