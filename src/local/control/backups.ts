// Backups of serverless indexes and the restore jobs that make indexes from them. A backup is kept as a collection
// is: a snapshot copied into a space of its own, which outlives the index; a restore copies it into a new index
// (Initializing until the copy is done) and its job reports Pending → InProgress (percent) → Completed | Failed.
import { randomUUID } from "node:crypto";
import type { Inventory, StoredBackup, StoredRestoreJob } from "../storage/inventory.js";
import type { VectorStore } from "../search/engine.js";
import type { DeclaredNamespaces } from "../storage/declared-namespaces.js";
import { ControlError, invalid, notFound } from "./errors.js";
import type { ControlOperations } from "./operations.js";
import { checkResourceName, parseDeletionProtection, parseReadCapacity, parseTags } from "./validate.js";
import { isObject } from "./json-fields.js";
import { describedSchemaFields } from "./index-model-2026-07.js";
import type { ApiVersion } from "../api-version.js";

type Model = Record<string, unknown>;

export class Backups {
  constructor(
    private readonly inventory: Inventory,
    private readonly store: VectorStore,
    private readonly operations: ControlOperations,
    private readonly log: (line: string) => void,
    private readonly declared?: DeclaredNamespaces,
    /** The time, in ms since the epoch (moved by tests of backup schedules). */
    private readonly now: () => number = Date.now,
  ) {}

  /** At start: resume the snapshots a restart interrupted. */
  start(): void {
    for (const backup of this.inventory.backups.values()) if (backup.status === "Initializing") this.startCopy(backup);
  }

  create(indexName: string, body: Record<string, unknown>, version: ApiVersion = "2026-04", scheduleId?: string): Promise<Model> {
    const name = optionalString(body, "name");
    const description = optionalString(body, "description");
    const unknown = Object.keys(body).find((k) => k !== "name" && k !== "description");
    if (unknown !== undefined) throw invalid(`${unknown} is not a field of a backup request; the fields are name and description.`);
    return this.operations.serial.run(async () => {
      const index = this.inventory.indexes.get(indexName);
      if (!index) throw notFound(`Index ${indexName} not found.`);
      if (!("serverless" in index.spec)) {
        throw invalid(`Backups are only supported for serverless indexes: index ${indexName} is pod-based. Use a collection to snapshot a pod-based index.`);
      }
      if (index.state !== "Ready") throw invalid(`Index ${indexName} is not ready yet (state ${index.state}); wait until it is Ready.`);
      const backupId = randomUUID();
      const backup: StoredBackup = {
        backupId,
        name: name ?? `${index.name}-${new Date(this.now()).toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-")}`,
        ...(description !== undefined ? { description } : {}),
        space: `b:${backupId}`,
        sourceIndexName: index.name,
        sourceIndexId: index.id,
        sourceSpace: index.space,
        status: "Initializing",
        cloud: index.spec.serverless.cloud,
        region: index.spec.serverless.region,
        vectorType: index.vectorType,
        ...(index.dimension !== undefined ? { dimension: index.dimension } : {}),
        metric: index.metric,
        ...(index.schema ? { schema: index.schema } : {}),
        tags: { ...index.tags },
        ...(scheduleId !== undefined ? { scheduleId } : {}),
        createdAt: new Date(this.now()).toISOString(),
      };
      await this.inventory.putBackup(backup);
      this.startCopy(backup);
      return modelOf(version)(backup);
    });
  }

  list(query: URLSearchParams, indexName?: string, version: ApiVersion = "2026-04"): Model {
    if (indexName !== undefined && !this.inventory.indexes.has(indexName)) throw notFound(`Index ${indexName} not found.`);
    const all = [...this.inventory.backups.values()]
      .filter((b) => indexName === undefined || b.sourceIndexName === indexName)
      .sort(byCreation((b) => b.backupId));
    return page(all.map(modelOf(version)), query, version);
  }

  describe(backupId: string, version: ApiVersion = "2026-04"): Model {
    return modelOf(version)(this.get(backupId));
  }

  delete(backupId: string): Promise<void> {
    return this.operations.serial.run(async () => {
      const backup = this.get(backupId);
      const restoring = [...this.inventory.restoreJobs.values()].filter(
        (j) => j.backupId === backupId && (j.status === "Pending" || j.status === "InProgress"),
      );
      if (restoring.length > 0) {
        throw new ControlError(
          412,
          "FAILED_PRECONDITION",
          `Unable to delete a backup. There are indexes being restored from this backup: [${restoring.map((j) => `'${j.targetIndexName}'`).join(", ")}]`,
        );
      }
      await this.inventory.removeBackup(backup);
      this.operations.dropLater(backup.space);
    });
  }

  createIndex(backupId: string, body: Record<string, unknown>): Promise<Model> {
    const name = optionalString(body, "name");
    if (name === undefined) throw new ControlError(422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `name`");
    checkResourceName("Index", name);
    const unknown = Object.keys(body).find((k) => !["name", "tags", "deletion_protection", "read_capacity"].includes(k));
    if (unknown !== undefined) throw invalid(`${unknown} is not a field of a restore request; the fields are name, tags, deletion_protection and read_capacity.`);
    const readCapacity = isObject(body.read_capacity) ? parseReadCapacity(body.read_capacity, "read_capacity") : undefined;
    if (body.read_capacity !== undefined && body.read_capacity !== null && !readCapacity) {
      throw new ControlError(422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: read_capacity: invalid type, expected an object");
    }
    const tags = parseTags(body.tags);
    const deletionProtection = parseDeletionProtection(body.deletion_protection) ?? "disabled";
    return this.operations.serial.run(async () => {
      const backup = this.get(backupId);
      if (backup.status !== "Ready") throw invalid(`Backup ${backupId} is not ready yet (status ${backup.status}); wait until it is Ready.`);
      const restoreJobId = randomUUID();
      const job: StoredRestoreJob = {
        restoreJobId,
        backupId,
        targetIndexName: name,
        targetIndexId: "",
        status: "Pending",
        percentComplete: 0,
        createdAt: new Date().toISOString(),
      };
      const index = await this.operations.addIndex(
        {
          name,
          vectorType: backup.vectorType,
          ...(backup.dimension !== undefined ? { dimension: backup.dimension } : {}),
          metric: backup.metric,
          ...(backup.schema ? { schema: backup.schema } : {}),
          sourceBackupId: backup.backupId,
          spec: { serverless: { cloud: backup.cloud, region: backup.region, ...(readCapacity ? { read_capacity: readCapacity } : {}) } },
          deletionProtection,
          tags: tags ?? { ...backup.tags },
        },
        backup.space,
        restoreJobId,
        (created) => this.inventory.putRestoreJob({ ...job, targetIndexId: created.id }),
      );
      return { restore_job_id: restoreJobId, index_id: index.id };
    });
  }

  listRestoreJobs(query: URLSearchParams, version: ApiVersion = "2026-04"): Model {
    const all = [...this.inventory.restoreJobs.values()].sort(byCreation((j) => j.restoreJobId));
    return page(all.map(restoreJobModel), query, version);
  }

  describeRestoreJob(jobId: string): Model {
    const job = this.inventory.restoreJobs.get(jobId);
    if (!job) throw notFound(`Restore job ${jobId} not found.`);
    return restoreJobModel(job);
  }

  private get(backupId: string): StoredBackup {
    const backup = this.inventory.backups.get(backupId);
    if (!backup) throw notFound(`Backup ${backupId} not found.`);
    return backup;
  }

  private startCopy(backup: StoredBackup): void {
    this.operations.jobs.run(
      [backup.space, backup.sourceSpace],
      async () => {
        await this.store.dropSpace(backup.space); // a snapshot interrupted by a crash starts over
        const stats = await this.store.copySpace(backup.sourceSpace, backup.space);
        await this.declared?.copySpace(backup.sourceSpace, backup.space);
        const declared = this.declared?.list(backup.space).filter((d) => !(d.name in stats.namespaces)).length ?? 0;
        await this.operations.serial.run(async () => {
          const current = this.inventory.backups.get(backup.backupId);
          if (!current) return; // deleted meanwhile; its drop follows
          await this.inventory.putBackup({
            ...current,
            status: "Ready",
            recordCount: stats.totalVectorCount,
            namespaceCount: Object.keys(stats.namespaces).length + declared,
            sizeBytes: stats.bytes,
          });
        });
      },
      (e) => this.log(`backing up index ${backup.sourceIndexName} into backup ${backup.backupId} failed: ${String(e)}`),
    );
  }
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") {
    throw new ControlError(422, "UNPROCESSABLE_ENTITY", `Failed to deserialize the JSON body into the target type: ${key}: invalid type, expected a string`);
  }
  return v;
}

export function byCreation<T extends { createdAt: string }>(id: (t: T) => string) {
  return (a: T, b: T) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : id(a) < id(b) ? -1 : 1);
}

/** One page of `all`: `limit` (1–100, default 10; 100 from 2026-07) after the position `paginationToken` names. */
export function page(all: Model[], query: URLSearchParams, version: ApiVersion): Model {
  const rawLimit = query.get("limit");
  const limit = rawLimit === null || rawLimit === "" ? (version === "2026-07" ? 100 : 10) : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid(`limit must be an integer from 1 to 100 (got ${JSON.stringify(rawLimit)}).`);
  const token = query.get("paginationToken");
  let start = 0;
  if (token) {
    const decoded = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, "base64url").toString("utf8") : "";
    start = /^\d+$/.test(decoded) ? Number(decoded) : -1;
    if (start < 0 || Buffer.from(decoded).toString("base64url") !== token) throw invalid("paginationToken is not a token this service issued.");
  }
  const data = all.slice(start, start + limit);
  const next = start + limit < all.length ? Buffer.from(String(start + limit)).toString("base64url") : undefined;
  return { data, ...(next ? { pagination: { next } } : {}) };
}

function backupModel(b: StoredBackup): Model {
  return {
    backup_id: b.backupId,
    source_index_name: b.sourceIndexName,
    source_index_id: b.sourceIndexId,
    name: b.name,
    ...(b.description !== undefined ? { description: b.description } : {}),
    status: b.status,
    cloud: b.cloud,
    region: b.region,
    ...(b.dimension !== undefined ? { dimension: b.dimension } : {}),
    metric: b.metric,
    ...(b.recordCount !== undefined ? { record_count: b.recordCount } : {}),
    ...(b.namespaceCount !== undefined ? { namespace_count: b.namespaceCount } : {}),
    ...(b.sizeBytes !== undefined ? { size_bytes: b.sizeBytes } : {}),
    tags: { ...b.tags },
    created_at: b.createdAt,
  };
}

/** 2026-07 describes a backup's index by its schema instead of dimension and metric. */
export function backupModel2026_07(b: StoredBackup): Model {
  const { dimension: _dimension, metric: _metric, ...rest } = backupModel(b);
  return { ...rest, schema: { fields: describedSchemaFields(b) } };
}

const modelOf = (version: ApiVersion) => (version === "2026-07" ? backupModel2026_07 : backupModel);

function restoreJobModel(j: StoredRestoreJob): Model {
  return {
    restore_job_id: j.restoreJobId,
    backup_id: j.backupId,
    target_index_name: j.targetIndexName,
    target_index_id: j.targetIndexId,
    status: j.status,
    created_at: j.createdAt,
    ...(j.completedAt !== undefined ? { completed_at: j.completedAt } : {}),
    percent_complete: j.percentComplete,
  };
}
