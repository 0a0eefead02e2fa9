// Backup schedules, the backups they made, and namespace aliases as the tools show them: flat, camelCase, only what
// the service gave.
import { z } from "zod";
import type { BackupSchedule, NamespaceAlias, ScheduledBackup } from "../../api/records.js";

const present = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

export const FREQUENCIES = ["daily", "weekly", "monthly"] as const;

export const ScheduleSummary = z.object({
  scheduleId: z.string().describe("Schedule id; pass it as scheduleId to the other schedule tools."),
  name: z.string().describe("Schedule name."),
  frequency: z.string().describe("daily, weekly or monthly."),
  retentionDays: z.number().int().describe("Days each backup it makes is kept."),
  enabled: z.boolean().describe("Whether it runs."),
  nextRun: z.string().optional().describe("When it runs next (absent while disabled)."),
  createdAt: z.string().optional().describe("When it was made."),
});
export type ScheduleSummary = z.infer<typeof ScheduleSummary>;

export function summarizeSchedule(s: BackupSchedule): ScheduleSummary {
  return present({
    scheduleId: s.schedule_id,
    name: s.name,
    frequency: s.frequency,
    retentionDays: s.retention_expire_after_days,
    enabled: s.enabled,
    nextRun: s.next_scheduled_run ?? undefined,
    createdAt: s.created_at ?? undefined,
  });
}

/** The schedules as a table. */
export function scheduleRows(schedules: readonly ScheduleSummary[]): (string | number | undefined)[][] {
  return schedules.map((s) => [s.scheduleId, s.name, s.frequency, s.retentionDays, s.enabled ? "yes" : "no", s.nextRun]);
}
export const SCHEDULE_COLUMNS = ["scheduleId", "name", "frequency", "retention days", "enabled", "next run"];

export const ScheduledBackupSummary = z.object({
  backupId: z.string().describe("Backup id (describe_backup, create_index_from_backup)."),
  name: z.string().optional().describe("Backup name."),
  status: z.string().describe("Scheduled, Initializing, Ready or InitializationFailed."),
  records: z.number().int().optional().describe("Records in it, once Ready."),
  namespaces: z.number().int().optional().describe("Namespaces in it, once Ready."),
  sizeBytes: z.number().int().optional().describe("Size in bytes, once Ready."),
  createdAt: z.string().optional().describe("When it was taken."),
  scheduledAt: z.string().optional().describe("Scheduled: when it will be taken."),
});
export type ScheduledBackupSummary = z.infer<typeof ScheduledBackupSummary>;

export function summarizeScheduledBackup(b: ScheduledBackup): ScheduledBackupSummary {
  return present({
    backupId: b.backup_id,
    name: b.name ?? undefined,
    status: b.status,
    records: b.record_count ?? undefined,
    namespaces: b.namespace_count ?? undefined,
    sizeBytes: b.size_bytes ?? undefined,
    createdAt: b.created_at ?? undefined,
    scheduledAt: b.scheduled_execution_at ?? undefined,
  });
}

export const AliasSummary = z.object({
  alias: z.string().describe("Alias name; reads through it are served by its target."),
  target: z.string().describe("The namespace it points at (__default__: the default namespace)."),
  createdAt: z.string().optional().describe("When it was made."),
  updatedAt: z.string().optional().describe("When it was last repointed."),
});
export type AliasSummary = z.infer<typeof AliasSummary>;

export function summarizeAlias(a: NamespaceAlias): AliasSummary {
  return present({ alias: a.name, target: a.target_namespace, createdAt: a.created_at ?? undefined, updatedAt: a.updated_at ?? undefined });
}
