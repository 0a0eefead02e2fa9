// zod schemas of the records the administration calls return (backups, restore jobs, namespaces, imports, update,
// fetch by metadata). Lenient like records.ts: unknown fields kept, what a version may omit optional.
import { z } from "zod";
import { FetchedRecordSchema } from "./records.js";

const Pagination = z.looseObject({ next: z.string().nullish() }).nullish();

export const BackupModelSchema = z.looseObject({
  backup_id: z.string(),
  source_index_name: z.string(),
  source_index_id: z.string().optional(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  status: z.string(),
  cloud: z.string().optional(),
  region: z.string().optional(),
  dimension: z.number().nullish(),
  metric: z.string().nullish(),
  record_count: z.number().nullish(),
  namespace_count: z.number().nullish(),
  size_bytes: z.number().nullish(),
  tags: z.record(z.string(), z.string()).nullish(),
  created_at: z.string().nullish(),
});
export type BackupModel = z.infer<typeof BackupModelSchema>;
export const BackupListSchema = z.looseObject({ data: z.array(BackupModelSchema).optional(), pagination: Pagination });

export const RestoreJobSchema = z.looseObject({
  restore_job_id: z.string(),
  backup_id: z.string(),
  target_index_name: z.string(),
  target_index_id: z.string().optional(),
  status: z.string(),
  created_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  percent_complete: z.number().nullish(),
});
export type RestoreJob = z.infer<typeof RestoreJobSchema>;
export const RestoreJobListSchema = z.looseObject({ data: z.array(RestoreJobSchema).optional(), pagination: Pagination });
export const CreateIndexFromBackupSchema = z.looseObject({ restore_job_id: z.string(), index_id: z.string() });

export const NamespaceSchema = z.looseObject({
  name: z.string(),
  record_count: z.number().nullish(),
  schema: z.looseObject({ fields: z.record(z.string(), z.looseObject({ filterable: z.boolean().optional() })) }).nullish(),
});
export type NamespaceDescription = z.infer<typeof NamespaceSchema>;
export const NamespaceListSchema = z.looseObject({
  namespaces: z.array(NamespaceSchema).optional(),
  pagination: Pagination,
  total_count: z.number().nullish(),
});

export const ImportSchema = z.looseObject({
  id: z.string(),
  uri: z.string().optional(),
  status: z.string(),
  createdAt: z.string().nullish(),
  finishedAt: z.string().nullish(),
  percentComplete: z.number().nullish(),
  recordsImported: z.number().nullish(),
  error: z.string().nullish(),
});
export type ImportModel = z.infer<typeof ImportSchema>;
export const ImportListSchema = z.looseObject({ data: z.array(ImportSchema).optional(), pagination: Pagination });
export const StartImportSchema = z.looseObject({ id: z.string() });

export const UpdateResponseSchema = z.looseObject({ matchedRecords: z.number().nullish() });
export const FetchByMetadataSchema = z.looseObject({
  vectors: z.record(z.string(), FetchedRecordSchema).optional(),
  namespace: z.string().optional(),
  pagination: Pagination,
});
