// Backups, restore jobs, bulk imports and namespaces as the tools show them: flat, camelCase, only what the service gave.
import { z } from "zod";
import type { BackupModel, ImportModel, NamespaceDescription, RestoreJob } from "../../api/records.js";

const present = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

export const BackupSummary = z.object({
  backupId: z.string().describe("Backup id; pass it as backupId to the other backup tools."),
  name: z.string().optional().describe("Backup name."),
  description: z.string().optional().describe("Backup description."),
  sourceIndex: z.string().describe("The index it was taken from."),
  status: z.string().describe("Initializing, Ready, Failed, …"),
  records: z.number().int().optional().describe("Records in the backup."),
  namespaces: z.number().int().optional().describe("Namespaces in the backup."),
  sizeBytes: z.number().int().optional().describe("Size in bytes."),
  dimension: z.number().int().optional().describe("Dense vector length."),
  metric: z.string().optional().describe("cosine, euclidean or dotproduct."),
  cloud: z.string().optional().describe("Cloud provider."),
  region: z.string().optional().describe("Region."),
  createdAt: z.string().optional().describe("When it was taken."),
});
export type BackupSummary = z.infer<typeof BackupSummary>;

export function summarizeBackup(b: BackupModel): BackupSummary {
  return present({
    backupId: b.backup_id,
    name: b.name ?? undefined,
    description: b.description ?? undefined,
    sourceIndex: b.source_index_name,
    status: b.status,
    records: b.record_count ?? undefined,
    namespaces: b.namespace_count ?? undefined,
    sizeBytes: b.size_bytes ?? undefined,
    dimension: b.dimension ?? undefined,
    metric: b.metric ?? undefined,
    cloud: b.cloud,
    region: b.region,
    createdAt: b.created_at ?? undefined,
  });
}

export const RestoreJobSummary = z.object({
  restoreJobId: z.string().describe("Restore job id."),
  backupId: z.string().describe("The backup restored."),
  targetIndex: z.string().describe("The index being created."),
  status: z.string().describe("Pending, InProgress, Completed or Failed."),
  percentComplete: z.number().optional().describe("Progress, 0–100."),
  createdAt: z.string().optional().describe("When it started."),
  completedAt: z.string().optional().describe("When it finished."),
});
export type RestoreJobSummary = z.infer<typeof RestoreJobSummary>;

export function summarizeRestoreJob(j: RestoreJob): RestoreJobSummary {
  return present({
    restoreJobId: j.restore_job_id,
    backupId: j.backup_id,
    targetIndex: j.target_index_name,
    status: j.status,
    percentComplete: j.percent_complete ?? undefined,
    createdAt: j.created_at ?? undefined,
    completedAt: j.completed_at ?? undefined,
  });
}

export const ImportSummary = z.object({
  id: z.string().describe("Import id; pass it as id to describe_bulk_import or cancel_bulk_import."),
  uri: z.string().optional().describe("Where the records come from."),
  status: z.string().describe("Pending, InProgress, Completed, Failed or Cancelled."),
  percentComplete: z.number().optional().describe("Progress, 0–100."),
  recordsImported: z.number().int().optional().describe("Records imported so far."),
  error: z.string().optional().describe("Why it failed, or which records were skipped."),
  createdAt: z.string().optional().describe("When it started."),
  finishedAt: z.string().optional().describe("When it finished."),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export function summarizeImport(i: ImportModel): ImportSummary {
  return present({
    id: i.id,
    uri: i.uri,
    status: i.status,
    percentComplete: i.percentComplete ?? undefined,
    recordsImported: i.recordsImported ?? undefined,
    error: i.error ?? undefined,
    createdAt: i.createdAt ?? undefined,
    finishedAt: i.finishedAt ?? undefined,
  });
}

export const NamespaceSummary = z.object({
  name: z.string().describe('Namespace name ("__default__" is the default namespace).'),
  records: z.number().int().optional().describe("Records in it."),
  filterableFields: z.array(z.string()).optional().describe("Metadata fields its schema marks filterable (absent: all fields)."),
});
export type NamespaceSummary = z.infer<typeof NamespaceSummary>;

export function summarizeNamespace(n: NamespaceDescription): NamespaceSummary {
  const fields = n.schema?.fields ? Object.keys(n.schema.fields) : undefined;
  return present({ name: n.name, records: n.record_count ?? undefined, filterableFields: fields });
}

/** The pagination token of a next page, as every list tool returns it. */
export const nextPageField = z.string().optional().describe("Pass as paginationToken to get the next page; absent on the last page.");
export const paginationTokenArg = z.string().max(1000).optional().describe("From the previous page.");
