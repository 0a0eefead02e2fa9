// The inventory of indexes and collections, kept in one lmdb sub-database of the root env and mirrored in
// memory. Only one process uses a data dir (see lock.ts), so the in-memory maps are the truth between
// commits; every mutation resolves only once lmdb has committed it and flushed it to disk.
import type { Database, RootDatabase } from "lmdb";
import type { IndexSchemaRecord } from "./index-schema.js";

export type Metric = "cosine" | "euclidean" | "dotproduct";
export type VectorType = "dense" | "sparse";

export interface PodSpecRecord {
  environment: string;
  pod_type: string;
  pods: number;
  replicas: number;
  shards: number;
  metadata_config?: { indexed?: string[] };
  source_collection?: string;
}
export interface ReadCapacityRecord {
  mode: "OnDemand" | "Dedicated";
  dedicated?: { node_type: string; scaling: string; manual: { replicas: number; shards: number } };
}
export interface MetadataSchemaRecord { fields: Record<string, { filterable: true }> }
export interface ServerlessSpecRecord {
  cloud: string;
  region: string;
  source_collection?: string;
  read_capacity?: ReadCapacityRecord;
  schema?: MetadataSchemaRecord;
}
/** Bring-your-own-cloud (created with API version 2026-07 only): an environment, and dedicated read capacity. */
interface ByocSpecRecord {
  environment: string;
  read_capacity?: ReadCapacityRecord;
}
export type SpecRecord = { serverless: ServerlessSpecRecord } | { pod: PodSpecRecord } | { byoc: ByocSpecRecord };

/** An index with integrated embedding: the model that turns its records' text into vectors, and how. */
export interface StoredEmbed {
  model: string;
  fieldMap: { text: string };
  readParameters: Record<string, unknown>;
  writeParameters: Record<string, unknown>;
}

export interface StoredIndex {
  name: string;
  id: string;
  /** The VectorStore space holding this index's records. */
  space: string;
  vectorType: VectorType;
  dimension?: number;
  metric: Metric;
  spec: SpecRecord;
  deletionProtection: "enabled" | "disabled";
  tags: Record<string, string>;
  port: number;
  /** Initializing while its records are being copied in from a collection. */
  state: "Initializing" | "Ready";
  /** Set while Initializing: the collection (or backup) space being copied in. */
  copyFrom?: string;
  /** Set while Initializing from a backup: the restore job that follows the copy. */
  restoreJobId?: string;
  /** Set for an index made by create-for-model. */
  embed?: StoredEmbed;
  /**
   * Set for a document index (made with API version 2026-07 from a schema other than the reserved `_values` /
   * `_sparse_values`): its typed fields. vectorType / dimension / metric then mirror its dense_vector field, if any.
   */
  schema?: IndexSchemaRecord;
  /** Set for an index restored from a backup: that backup's id. */
  sourceBackupId?: string;
  createdAt: string;
}

/** A backup of a serverless index: a snapshot of its records in a space of its own, kept after the index goes. */
export interface StoredBackup {
  backupId: string;
  name: string;
  description?: string;
  space: string;
  sourceIndexName: string;
  sourceIndexId: string;
  sourceSpace: string;
  status: "Initializing" | "Ready";
  cloud: string;
  region: string;
  vectorType: VectorType;
  dimension?: number;
  metric: Metric;
  /** The source's document schema, when it was a document index: a restore makes a document index again. */
  schema?: IndexSchemaRecord;
  tags: Record<string, string>;
  /** Set for a backup a backup schedule made (its history, and its retention). */
  scheduleId?: string;
  recordCount?: number;
  namespaceCount?: number;
  sizeBytes?: number;
  createdAt: string;
}

/** A restore of a backup into a new index; its state follows the copy (see control/backups.ts). */
export interface StoredRestoreJob {
  restoreJobId: string;
  backupId: string;
  targetIndexName: string;
  targetIndexId: string;
  status: "Pending" | "InProgress" | "Completed" | "Failed";
  percentComplete: number;
  createdAt: string;
  completedAt?: string;
}

/** A time-based backup schedule of one index (API version 2026-07); its history is the backups with its id. */
export interface StoredBackupSchedule {
  scheduleId: string;
  name: string;
  indexId: string;
  indexName: string;
  frequency: "daily" | "weekly" | "monthly";
  retentionDays: number;
  enabled: boolean;
  /** When the next backup is due (ISO); absent while disabled. */
  nextRunAt?: string;
  createdAt: string;
}

export interface StoredCollection {
  name: string;
  id: string;
  space: string;
  source: string;
  sourceSpace: string;
  environment: string;
  dimension?: number;
  status: "Initializing" | "Ready";
  size?: number;
  vectorCount?: number;
  createdAt: string;
}

const INDEX = "index:";
const COLLECTION = "collection:";
const DROP = "drop:";
const BACKUP = "backup:";
const RESTORE = "restore:";
const SCHEDULE = "schedule:";

export class Inventory {
  readonly indexes = new Map<string, StoredIndex>();
  readonly collections = new Map<string, StoredCollection>();
  /** By backup id. */
  readonly backups = new Map<string, StoredBackup>();
  /** By restore job id. */
  readonly restoreJobs = new Map<string, StoredRestoreJob>();
  /** By schedule id. */
  readonly schedules = new Map<string, StoredBackupSchedule>();
  private readonly db: Database<unknown, string>;

  constructor(root: RootDatabase) {
    this.db = root.openDB<unknown, string>({ name: "vecdb-inventory", encoding: "json" });
    for (const { key, value } of this.db.getRange({})) {
      if (key.startsWith(INDEX)) this.indexes.set(key.slice(INDEX.length), value as StoredIndex);
      else if (key.startsWith(COLLECTION)) this.collections.set(key.slice(COLLECTION.length), value as StoredCollection);
      else if (key.startsWith(BACKUP)) this.backups.set(key.slice(BACKUP.length), value as StoredBackup);
      else if (key.startsWith(RESTORE)) this.restoreJobs.set(key.slice(RESTORE.length), value as StoredRestoreJob);
      else if (key.startsWith(SCHEDULE)) this.schedules.set(key.slice(SCHEDULE.length), value as StoredBackupSchedule);
    }
  }

  async putIndex(index: StoredIndex): Promise<void> {
    this.indexes.set(index.name, index);
    await this.db.put(INDEX + index.name, index);
    await this.db.flushed;
  }

  async putCollection(collection: StoredCollection): Promise<void> {
    this.collections.set(collection.name, collection);
    await this.db.put(COLLECTION + collection.name, collection);
    await this.db.flushed;
  }

  async putBackup(backup: StoredBackup): Promise<void> {
    this.backups.set(backup.backupId, backup);
    await this.db.put(BACKUP + backup.backupId, backup);
    await this.db.flushed;
  }

  async removeBackup(backup: StoredBackup): Promise<void> {
    this.backups.delete(backup.backupId);
    await this.removeWithSpace(BACKUP + backup.backupId, backup.space);
  }

  async putRestoreJob(job: StoredRestoreJob): Promise<void> {
    this.restoreJobs.set(job.restoreJobId, job);
    await this.db.put(RESTORE + job.restoreJobId, job);
    await this.db.flushed;
  }

  async putSchedule(schedule: StoredBackupSchedule): Promise<void> {
    this.schedules.set(schedule.scheduleId, schedule);
    await this.db.put(SCHEDULE + schedule.scheduleId, schedule);
    await this.db.flushed;
  }

  async removeSchedule(scheduleId: string): Promise<void> {
    this.schedules.delete(scheduleId);
    await this.db.remove(SCHEDULE + scheduleId);
    await this.db.flushed;
  }

  async removeIndex(index: StoredIndex): Promise<void> {
    this.indexes.delete(index.name);
    await this.removeWithSpace(INDEX + index.name, index.space);
  }

  async removeCollection(collection: StoredCollection): Promise<void> {
    this.collections.delete(collection.name);
    await this.removeWithSpace(COLLECTION + collection.name, collection.space);
  }

  /** Removes the record at `key` and, in the same commit, notes its space as to be dropped (finished by clearDrop). */
  private async removeWithSpace(key: string, space: string): Promise<void> {
    await this.db.transaction(() => {
      this.db.removeSync(key);
      this.db.putSync(DROP + space, true);
    });
    await this.db.flushed;
  }

  /** Spaces whose record is gone but whose drop may not have finished (e.g. a crash in between). */
  pendingDrops(): string[] {
    const spaces: string[] = [];
    for (const key of this.db.getKeys({ start: DROP, end: DROP + "\uffff" })) spaces.push(key.slice(DROP.length));
    return spaces;
  }

  async clearDrop(space: string): Promise<void> {
    await this.db.remove(DROP + space);
  }
}
