// Control-plane calls, by resource: indexes (and configure), collections, backups and the restore jobs that make
// indexes from them. Every index host it returns becomes a trusted origin of the HttpClient, so the API key goes only
// to the controller and to hosts the control plane named.
import type { z } from "zod";
import { dataUrlFor } from "./index-url.js";
import { isLoopbackHost } from "../common/loopback.js";
import { ResponseShapeError } from "./errors.js";
import type { HttpClient } from "./http.js";
import { configureIndexBody, createIndexBody, speaksSchemaApi } from "./schema-form.js";
import {
  BackupListSchema,
  BackupScheduleHistorySchema,
  BackupScheduleListSchema,
  BackupScheduleSchema,
  BackupModelSchema,
  CollectionListSchema,
  CollectionModelSchema,
  CreateIndexFromBackupSchema,
  IndexListSchema,
  IndexModelSchema,
  RestoreJobListSchema,
  RestoreJobSchema,
  type BackupModel,
  type BackupSchedule,
  type ScheduledBackup,
  type CollectionModel,
  type IndexModel,
  type RestoreJob,
} from "./records.js";

/** The body of POST /indexes: exactly one of spec.serverless / spec.pod. */
export interface CreateIndexRequest {
  name: string;
  dimension: number;
  metric: "cosine" | "euclidean" | "dotproduct";
  spec: {
    serverless?: { cloud: string; region: string };
    pod?: { environment: string; pod_type: string; pods?: number; replicas?: number; shards?: number; source_collection?: string };
  };
  deletion_protection?: "enabled" | "disabled";
  tags?: Record<string, string>;
}

/** The body of POST /indexes/create-for-model. */
export interface CreateIndexForModelRequest {
  name: string;
  cloud: string;
  region: string;
  embed: {
    model: string;
    field_map: { text: string };
    metric?: string;
    dimension?: number;
    read_parameters?: Record<string, unknown>;
    write_parameters?: Record<string, unknown>;
  };
  deletion_protection?: "enabled" | "disabled";
  tags?: Record<string, string>;
}

/** A read capacity as both versions write it: OnDemand, or Dedicated nodes. */
export type ReadCapacityRequest =
  | { mode: "OnDemand" }
  | { mode: "Dedicated"; dedicated: { node_type?: string; scaling?: "Manual"; manual?: { replicas: number; shards: number } } };

/**
 * The body of PATCH /indexes/{name}, in the 2026-04 names: only what changes. Under 2026-07 it is sent as
 * `deployment` / `schema` / `read_capacity` (schema-form.ts); `embedTextField` names the index's semantic_text field.
 */
export interface ConfigureIndexRequest {
  deletion_protection?: "enabled" | "disabled";
  tags?: Record<string, string>;
  spec?: { pod?: { replicas?: number; pod_type?: string }; serverless?: { read_capacity: ReadCapacityRequest } };
  embed?: { field_map?: Record<string, unknown>; read_parameters?: Record<string, unknown>; write_parameters?: Record<string, unknown> };
}

/** The body of POST /indexes/{name}/backup-schedules (2026-07). */
export interface CreateBackupScheduleRequest {
  name: string;
  schedule: { type: "time-based"; frequency: "daily" | "weekly" | "monthly" };
  retention: { expire_after_days: number };
}

/** The body of PATCH /backup-schedules/{id}: only what changes. */
export interface UpdateBackupScheduleRequest {
  frequency?: "daily" | "weekly" | "monthly";
  retention?: { expire_after_days: number };
  enabled?: boolean;
}

export interface Page<T> { items: T[]; next?: string }

export class ControlPlane {
  private readonly base: string;
  /** The API version speaks 2026-07: indexes are created and configured by `deployment` + `schema`. */
  readonly schemaApi: boolean;

  constructor(
    private readonly http: HttpClient,
    private readonly controllerUrl: string,
  ) {
    this.base = controllerUrl.replace(/\/+$/, "");
    http.trustOrigin(this.base);
    this.schemaApi = speaksSchemaApi(http.apiVersion);
  }

  async listIndexes(signal?: AbortSignal): Promise<IndexModel[]> {
    const list = await this.call(`/indexes`, "GET", IndexListSchema, signal);
    const indexes = list.indexes ?? [];
    for (const index of indexes) this.trustHost(index);
    return indexes;
  }

  async describeIndex(name: string, signal?: AbortSignal): Promise<IndexModel> {
    const index = await this.call(`/indexes/${encodeURIComponent(name)}`, "GET", IndexModelSchema, signal);
    this.trustHost(index);
    return index;
  }

  async listCollections(signal?: AbortSignal): Promise<CollectionModel[]> {
    const list = await this.call(`/collections`, "GET", CollectionListSchema, signal);
    return list.collections ?? [];
  }

  async createCollection(body: { name: string; source: string }, signal?: AbortSignal): Promise<CollectionModel> {
    const url = `${this.base}/collections`;
    // Not retried: a create whose answer was lost would come back as 409 ALREADY_EXISTS on the second try.
    const answer = await this.http.request<unknown>({ url, method: "POST", body, signal, retry: false });
    return parse(url, CollectionModelSchema, answer);
  }

  async describeCollection(name: string, signal?: AbortSignal): Promise<CollectionModel> {
    return this.call(`/collections/${encodeURIComponent(name)}`, "GET", CollectionModelSchema, signal);
  }

  /** POST /indexes (201). Not retried, like createCollection. */
  async createIndex(request: CreateIndexRequest, signal?: AbortSignal): Promise<IndexModel> {
    const url = `${this.base}/indexes`;
    const body = this.schemaApi ? createIndexBody(request) : request;
    const index = parse(url, IndexModelSchema, await this.http.request<unknown>({ url, method: "POST", body, signal, retry: false }));
    this.trustHost(index);
    return index;
  }

  /** POST /indexes/create-for-model (201). Not retried, like createIndex. */
  async createIndexForModel(body: CreateIndexForModelRequest, signal?: AbortSignal): Promise<IndexModel> {
    const url = `${this.base}/indexes/create-for-model`;
    const index = parse(url, IndexModelSchema, await this.http.request<unknown>({ url, method: "POST", body, signal, retry: false }));
    this.trustHost(index);
    return index;
  }

  /** DELETE /indexes/{name} (202). Not retried: a delete whose answer was lost would come back as 404. */
  async deleteIndex(name: string, signal?: AbortSignal): Promise<void> {
    const url = `${this.base}/indexes/${encodeURIComponent(name)}`;
    await this.http.request<unknown>({ url, method: "DELETE", signal, retry: false });
  }

  /** DELETE /collections/{name} (202). Not retried. */
  async deleteCollection(name: string, signal?: AbortSignal): Promise<void> {
    const url = `${this.base}/collections/${encodeURIComponent(name)}`;
    await this.http.request<unknown>({ url, method: "DELETE", signal, retry: false });
  }

  /** PATCH /indexes/{name} (202; 200 from 2026-07), configure: the index as it is after the change. */
  async configureIndex(name: string, request: ConfigureIndexRequest, signal?: AbortSignal, embedTextField?: string): Promise<IndexModel> {
    let body: unknown = request;
    if (this.schemaApi) body = configureIndexBody(request, embedTextField);
    else if (request.spec?.serverless) body = { ...request, spec: { serverless: request.spec.serverless } };
    return this.call(`/indexes/${encodeURIComponent(name)}`, "PATCH", IndexModelSchema, signal, body);
  }

  /** POST /indexes/{name}/backup-schedules (2026-07). Not retried: a lost answer would come back as 409. */
  async createBackupSchedule(index: string, body: CreateBackupScheduleRequest, signal?: AbortSignal): Promise<BackupSchedule> {
    return this.call(`/indexes/${encodeURIComponent(index)}/backup-schedules`, "POST", BackupScheduleSchema, signal, body);
  }

  async listBackupSchedules(index: string, opts: { limit?: number; paginationToken?: string }, signal?: AbortSignal): Promise<Page<BackupSchedule>> {
    const list = await this.call(`/indexes/${encodeURIComponent(index)}/backup-schedules${query(opts)}`, "GET", BackupScheduleListSchema, signal);
    return { items: list.data ?? [], ...(list.pagination?.next ? { next: list.pagination.next } : {}) };
  }

  async describeBackupSchedule(scheduleId: string, signal?: AbortSignal): Promise<BackupSchedule> {
    return this.call(`/backup-schedules/${encodeURIComponent(scheduleId)}`, "GET", BackupScheduleSchema, signal);
  }

  async updateBackupSchedule(scheduleId: string, body: UpdateBackupScheduleRequest, signal?: AbortSignal): Promise<BackupSchedule> {
    return this.call(`/backup-schedules/${encodeURIComponent(scheduleId)}`, "PATCH", BackupScheduleSchema, signal, body);
  }

  /** DELETE /backup-schedules/{id} (204). Not retried: a lost answer would come back as 404. */
  async deleteBackupSchedule(scheduleId: string, signal?: AbortSignal): Promise<void> {
    await this.http.request<unknown>({ url: `${this.base}/backup-schedules/${encodeURIComponent(scheduleId)}`, method: "DELETE", signal, retry: false });
  }

  /** The backups a schedule made (and the one it will make next, status Scheduled), one page. */
  async backupScheduleHistory(scheduleId: string, opts: { limit?: number; paginationToken?: string }, signal?: AbortSignal): Promise<Page<ScheduledBackup>> {
    const list = await this.call(`/backup-schedules/${encodeURIComponent(scheduleId)}/history${query(opts)}`, "GET", BackupScheduleHistorySchema, signal);
    return { items: list.data ?? [], ...(list.pagination?.next ? { next: list.pagination.next } : {}) };
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

  /** Not retried unless a GET. */
  private async call<S extends z.ZodType>(path: string, method: "GET" | "POST" | "DELETE" | "PATCH", schema: S, signal?: AbortSignal, body?: unknown): Promise<z.infer<S>> {
    const url = `${this.base}${path}`;
    const answer = await this.http.request<unknown>({ url, method, signal, ...(body !== undefined && { body }), ...(method !== "GET" && { retry: false }) });
    return parse(url.split("?")[0], schema, answer);
  }

  private trustHost(index: IndexModel): void {
    if (typeof index.host === "string" && index.host.trim() !== "") {
      try {
        const url = dataUrlFor(index.host, this.controllerUrl);
        // A remote control plane has no business naming a port on this machine: another local user may listen there.
        if (isLoopbackHost(new URL(url).hostname) && !isLoopbackHost(new URL(this.base).hostname)) return;
        this.http.trustOrigin(url, index.name);
      } catch {
        // an unparsable host is simply never trusted; a call to it is refused later
      }
    }
  }

  /** The index's host is trusted no more (unless it is the controller's own origin). */
  untrustHost(index: IndexModel): void {
    if (typeof index.host !== "string" || index.host.trim() === "") return;
    try {
      const url = dataUrlFor(index.host, this.controllerUrl);
      if (new URL(url).origin !== new URL(this.base).origin) this.http.untrustOrigin(url);
    } catch {
      // never trusted
    }
  }
}

function parse<S extends z.ZodType>(url: string, schema: S, answer: unknown): z.infer<S> {
  const result = schema.safeParse(answer);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join(".") : "body";
    throw new ResponseShapeError(url, `${where}: ${issue?.message ?? "does not match the API"}`);
  }
  return result.data;
}

function query(opts: { limit?: number; paginationToken?: string }): string {
  const q = new URLSearchParams();
  if (opts.limit !== undefined) q.set("limit", String(opts.limit));
  if (opts.paginationToken !== undefined) q.set("paginationToken", opts.paginationToken);
  const s = q.toString();
  return s ? `?${s}` : "";
}
