// zod schemas of the service's records (indexes, collections, backups, restore jobs, namespaces, imports, vectors). Lenient on purpose: unknown fields are kept (newer API versions add fields),
// and anything a version may omit is optional, so a newer or older service still parses.
import { z } from "zod";
import { withOlderFields } from "./schema-form.js";

const IndexSpecSchema = z.looseObject({
  serverless: z.looseObject({ cloud: z.string(), region: z.string() }).optional(),
  pod: z
    .looseObject({
      environment: z.string(),
      pod_type: z.string().optional(),
      pods: z.number().optional(),
      replicas: z.number().optional(),
      shards: z.number().optional(),
    })
    .optional(),
});

const IndexStatusSchema = z.looseObject({ ready: z.boolean(), state: z.string() });

/** A 2026-07 read capacity: OnDemand, or Dedicated with its nodes. */
const ReadCapacitySchema = z.looseObject({
  mode: z.string(),
  dedicated: z
    .looseObject({ node_type: z.string().optional(), scaling: z.string().optional(), manual: z.looseObject({ replicas: z.number().optional(), shards: z.number().optional() }).nullish() })
    .nullish(),
  status: z.looseObject({ state: z.string().optional(), current_replicas: z.number().nullish(), current_shards: z.number().nullish(), error_message: z.string().nullish() }).nullish(),
});

/** One field of a 2026-07 index schema: typed (`type`), or legacy metadata (`filterable` only). */
const SchemaFieldSchema = z.looseObject({
  type: z.string().optional(),
  dimension: z.number().nullish(),
  metric: z.string().nullish(),
  model: z.string().optional(),
  filterable: z.boolean().optional(),
  full_text_search: z
    .looseObject({ language: z.string().optional(), stemming: z.boolean().optional(), stop_words: z.boolean().optional() })
    .nullish(),
});

// An answer in the 2026-07 shape (deployment + schema) is read into the older fields too (schema-form.ts).
export const IndexModelSchema = z.preprocess(withOlderFields, z.looseObject({
  name: z.string(),
  dimension: z.number().int().nullish(),
  /** Absent for an index with no vector field (documents with full-text fields only). */
  metric: z.string().optional(),
  host: z.string(),
  spec: IndexSpecSchema,
  status: IndexStatusSchema,
  vector_type: z.string().optional(),
  deletion_protection: z.string().optional(),
  tags: z.record(z.string(), z.string()).nullish(),
  /** Present on an index with integrated embedding (made by create-for-model). */
  embed: z
    .looseObject({
      model: z.string(),
      field_map: z.record(z.string(), z.unknown()).nullish(),
      dimension: z.number().nullish(),
      metric: z.string().nullish(),
      vector_type: z.string().nullish(),
      read_parameters: z.record(z.string(), z.unknown()).nullish(),
      write_parameters: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullish(),
  /** 2026-07 on: how and where it is deployed (managed, pod or byoc), and its typed fields. */
  deployment: z.looseObject({ deployment_type: z.string() }).optional(),
  schema: z.looseObject({ fields: z.record(z.string(), SchemaFieldSchema) }).optional(),
  read_capacity: ReadCapacitySchema.nullish(),
  cmek_id: z.string().nullish(),
  source_collection: z.string().nullish(),
  source_backup_id: z.string().nullish(),
}));
export type IndexModel = z.infer<typeof IndexModelSchema>;

export const CollectionModelSchema = z.looseObject({
  name: z.string(),
  status: z.string(),
  environment: z.string(),
  size: z.number().nullish(),
  dimension: z.number().nullish(),
  vector_count: z.number().nullish(),
});
export type CollectionModel = z.infer<typeof CollectionModelSchema>;

export const IndexListSchema = z.looseObject({ indexes: z.array(IndexModelSchema).optional() });
export const CollectionListSchema = z.looseObject({ collections: z.array(CollectionModelSchema).optional() });

export const UpsertResponseSchema = z.looseObject({ upsertedCount: z.number().int().nonnegative().optional() });

/** True when the index holds sparse vectors only (no dimension). */
export function isSparseIndex(index: IndexModel): boolean {
  return index.vector_type === "sparse";
}

export const IndexStatsSchema = z.looseObject({
  namespaces: z.record(z.string(), z.looseObject({ vectorCount: z.number().optional() })).optional(),
  dimension: z.number().nullish(),
  indexFullness: z.number().nullish(),
  totalVectorCount: z.number().optional(),
  metric: z.string().optional(),
  vectorType: z.string().optional(),
});
export type IndexStats = z.infer<typeof IndexStatsSchema>;

/**
 * A list of numbers, checked in one loop and kept as it is: z.array(z.number()) checks each value through zod and
 * copies the list, which for a query of topK 1000 with the values of a 768-d index took ~0.5 s of the event loop.
 */
const Numbers = z.custom<number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== "number" || !Number.isFinite(v[i])) return false;
  return true;
}, "a list of numbers");

const FetchedRecordSchema = z.looseObject({
  id: z.string(),
  values: Numbers.optional(),
  sparseValues: z.looseObject({ indices: Numbers, values: Numbers }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type FetchedRecord = z.infer<typeof FetchedRecordSchema>;
export const FetchResponseSchema = z.looseObject({ vectors: z.record(z.string(), FetchedRecordSchema).optional() });

const QueryMatchSchema = z.looseObject({
  id: z.string(),
  score: z.number().optional(),
  values: Numbers.optional(),
  sparseValues: z.looseObject({ indices: Numbers, values: Numbers }).optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type QueryMatch = z.infer<typeof QueryMatchSchema>;
export const QueryResponseSchema = z.looseObject({ matches: z.array(QueryMatchSchema).optional(), namespace: z.string().optional() });

export const ListResponseSchema = z.looseObject({
  vectors: z.array(z.looseObject({ id: z.string() })).optional(),
  pagination: z.looseObject({ next: z.string().nullish() }).nullish(),
  namespace: z.string().optional(),
});

export const SearchRecordsResponseSchema = z.looseObject({
  result: z.looseObject({
    hits: z.array(z.looseObject({ _id: z.string(), _score: z.number(), fields: z.record(z.string(), z.unknown()).nullish() })),
  }),
  usage: z.looseObject({ read_units: z.number().optional(), embed_total_tokens: z.number().optional(), rerank_units: z.number().optional() }).optional(),
});
export type SearchRecordsResponse = z.infer<typeof SearchRecordsResponseSchema>;

// Backups, restore jobs, namespaces, imports, update and fetch by metadata (2025-04 and later).

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

/** A count the 2026-07 data plane writes as a decimal string (uint64), earlier versions as a number. */
const Count = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]);

export const NamespaceSchema = z.looseObject({
  name: z.string(),
  record_count: Count.nullish(),
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

// Backup schedules (control plane) and namespace aliases (data plane), 2026-07 on.

export const BackupScheduleSchema = z.looseObject({
  schedule_id: z.string(),
  name: z.string(),
  index_id: z.string().optional(),
  schedule_type: z.string().optional(),
  frequency: z.string(),
  retention_expire_after_days: z.number().int(),
  enabled: z.boolean(),
  next_scheduled_run: z.string().nullish(),
  created_at: z.string().nullish(),
});
export type BackupSchedule = z.infer<typeof BackupScheduleSchema>;
export const BackupScheduleListSchema = z.looseObject({ data: z.array(BackupScheduleSchema).optional(), pagination: Pagination });

const ScheduledBackupSchema = z.looseObject({
  backup_id: z.string(),
  source_index_name: z.string().optional(),
  name: z.string().nullish(),
  status: z.string(),
  record_count: z.number().nullish(),
  namespace_count: z.number().nullish(),
  size_bytes: z.number().nullish(),
  created_at: z.string().nullish(),
  scheduled_execution_at: z.string().nullish(),
});
export type ScheduledBackup = z.infer<typeof ScheduledBackupSchema>;
export const BackupScheduleHistorySchema = z.looseObject({ data: z.array(ScheduledBackupSchema).optional(), pagination: Pagination });

export const NamespaceAliasSchema = z.looseObject({
  name: z.string(),
  target_namespace: z.string(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});
export type NamespaceAlias = z.infer<typeof NamespaceAliasSchema>;
export const NamespaceAliasListSchema = z.looseObject({
  namespace_aliases: z.array(NamespaceAliasSchema).optional(),
  pagination: Pagination,
  total_count: z.number().nullish(),
});
