// Time-based backup schedules (API version 2026-07): daily, weekly or monthly backups of one serverless index,
// each kept for `expire_after_days`. They run while the service runs: runDue() takes the backups that are due and
// drops those past their retention; the service calls it at start (a run missed while it was stopped happens then,
// once) and every minute, and reads the time from an injectable clock, so tests move time instead of waiting.
import { randomUUID } from "node:crypto";
import type { Inventory, StoredBackupSchedule } from "../storage/inventory.js";
import { ControlError, invalid, notFound, unprocessable } from "./errors.js";
import { int, obj, str } from "./json-fields.js";
import { backupModel2026_07, byCreation, page, type Backups } from "./backups.js";
import type { ControlOperations } from "./operations.js";

type Model = Record<string, unknown>;
type Frequency = StoredBackupSchedule["frequency"];

const FREQUENCIES: Frequency[] = ["daily", "weekly", "monthly"];
const MAX_RETENTION_DAYS = 3650;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The local service has one project; schedules name it so. */
const PROJECT_ID = "local";

/** The first time after `from` that a schedule of this frequency is due again (months by the calendar, UTC). */
function after(from: Date, frequency: Frequency): Date {
  if (frequency === "daily") return new Date(from.getTime() + DAY_MS);
  if (frequency === "weekly") return new Date(from.getTime() + 7 * DAY_MS);
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, last));
  return next;
}

function frequencyOf(v: unknown, field: string): Frequency {
  if (typeof v !== "string" || !FREQUENCIES.includes(v as Frequency)) {
    throw invalid(`${field} must be one of daily, weekly or monthly (got ${JSON.stringify(v)}).`);
  }
  return v as Frequency;
}

function retentionOf(body: Record<string, unknown>, required: boolean): number | undefined {
  const retention = obj(body, "retention", "retention", required);
  if (!retention) return undefined;
  const unknown = Object.keys(retention).find((k) => k !== "expire_after_days");
  if (unknown !== undefined) throw unprocessable(`retention: unknown field \`${unknown}\`, expected \`expire_after_days\``);
  const days = int(retention, "expire_after_days", "retention.expire_after_days");
  if (days === undefined) throw unprocessable("missing field `retention.expire_after_days`");
  if (days < 1 || days > MAX_RETENTION_DAYS) throw invalid(`retention.expire_after_days must be from 1 to ${MAX_RETENTION_DAYS} (got ${days}).`);
  return days;
}

function onlyFields(body: Record<string, unknown>, known: string[]): void {
  const unknown = Object.keys(body).find((k) => !known.includes(k) && body[k] !== undefined);
  if (unknown !== undefined) throw unprocessable(`unknown field \`${unknown}\`, expected one of ${known.map((k) => `\`${k}\``).join(", ")}`);
}

const alreadyScheduled = () => new ControlError(409, "ALREADY_EXISTS", "This index already has an enabled backup schedule. Disable or delete it first.");

export class BackupSchedules {
  constructor(
    private readonly inventory: Inventory,
    private readonly backups: Backups,
    private readonly operations: ControlOperations,
    private readonly log: (line: string) => void,
    /** The time, in ms since the epoch (the wall clock unless a test moves it). */
    private readonly now: () => number = Date.now,
  ) {}

  list(indexName: string, query: URLSearchParams): Model {
    const index = this.indexNamed(indexName);
    const mine = [...this.inventory.schedules.values()].filter((s) => s.indexId === index.id).sort(byCreation((s) => s.scheduleId));
    return page(mine.map(scheduleModel), query, "2026-07");
  }

  create(indexName: string, body: Record<string, unknown>): Promise<Model> {
    onlyFields(body, ["name", "schedule", "retention"]);
    const name = str(body, "name", "name", true)!;
    if (name.trim() === "" || name.length > 256) throw invalid("name must be 1 to 256 characters, not only spaces.");
    const schedule = obj(body, "schedule", "schedule", true)!;
    const unknown = Object.keys(schedule).find((k) => k !== "type" && k !== "frequency");
    if (unknown !== undefined) throw unprocessable(`schedule: unknown field \`${unknown}\`, expected one of \`type\`, \`frequency\``);
    const type = str(schedule, "type", "schedule.type", true)!;
    if (type !== "time-based") throw invalid(`schedule.type must be time-based, the only kind of schedule (got ${JSON.stringify(type)}).`);
    const frequency = frequencyOf(str(schedule, "frequency", "schedule.frequency", true), "schedule.frequency");
    const retentionDays = retentionOf(body, true)!;
    return this.operations.serial.run(async () => {
      const index = this.indexNamed(indexName);
      if (!("serverless" in index.spec)) throw invalid(`Backups are only supported for serverless indexes: index ${indexName} is not serverless.`);
      if (this.enabledFor(index.id)) throw alreadyScheduled();
      const created = new Date(this.now());
      const stored: StoredBackupSchedule = {
        scheduleId: randomUUID(),
        name,
        indexId: index.id,
        indexName: index.name,
        frequency,
        retentionDays,
        enabled: true,
        nextRunAt: after(created, frequency).toISOString(),
        createdAt: created.toISOString(),
      };
      await this.inventory.putSchedule(stored);
      return scheduleModel(stored);
    });
  }

  describe(scheduleId: string): Model {
    return scheduleModel(this.get(scheduleId));
  }

  update(scheduleId: string, body: Record<string, unknown>): Promise<Model> {
    onlyFields(body, ["frequency", "retention", "enabled"]);
    const frequency = body.frequency === undefined || body.frequency === null ? undefined : frequencyOf(body.frequency, "frequency");
    const retentionDays = retentionOf(body, false);
    if (body.enabled !== undefined && body.enabled !== null && typeof body.enabled !== "boolean") {
      throw unprocessable("enabled: invalid type, expected a boolean");
    }
    const enabled = body.enabled as boolean | undefined | null;
    return this.operations.serial.run(async () => {
      const current = this.get(scheduleId);
      const next: StoredBackupSchedule = { ...current, ...(frequency ? { frequency } : {}), ...(retentionDays ? { retentionDays } : {}) };
      const now = new Date(this.now());
      if (enabled === true && !current.enabled) {
        if (this.enabledFor(current.indexId)) throw alreadyScheduled();
        // Re-enabling enqueues a backup at once, then the cadence resumes.
        next.enabled = true;
        next.nextRunAt = now.toISOString();
      } else if (enabled === false) {
        next.enabled = false;
        delete next.nextRunAt;
      } else if (frequency && current.enabled && frequency !== current.frequency) {
        next.nextRunAt = after(now, frequency).toISOString();
      }
      await this.inventory.putSchedule(next);
      return scheduleModel(next);
    });
  }

  delete(scheduleId: string): Promise<void> {
    return this.operations.serial.run(async () => {
      this.get(scheduleId);
      await this.inventory.removeSchedule(scheduleId);
    });
  }

  history(scheduleId: string, query: URLSearchParams): Model {
    this.get(scheduleId);
    const made = [...this.inventory.backups.values()].filter((b) => b.scheduleId === scheduleId).sort(byCreation((b) => b.backupId));
    return page(
      made.map((b) => {
        const { tags, ...rest } = backupModel2026_07(b);
        return { ...rest, tags: tags && Object.keys(tags).length > 0 ? tags : null };
      }),
      query,
      "2026-07",
    );
  }

  /**
   * Takes the backups that are due (one per schedule, however many runs were missed) and deletes the scheduled
   * backups past their retention; returns the ids of the backups started.
   */
  runDue(): Promise<string[]> {
    // One check at a time, in turn: the minute's timer and a caller's check must not both take the same due backup.
    const run = this.previous.then(() => this.checkDue());
    this.previous = run.catch(() => undefined);
    return run;
  }

  private previous: Promise<unknown> = Promise.resolve();

  private async checkDue(): Promise<string[]> {
    const now = new Date(this.now());
    const started: string[] = [];
    for (const schedule of [...this.inventory.schedules.values()]) {
      const index = this.inventory.indexes.get(schedule.indexName);
      if (!index || index.id !== schedule.indexId) {
        await this.operations.serial.run(() => this.inventory.removeSchedule(schedule.scheduleId)); // its index is gone
        continue;
      }
      if (schedule.enabled && schedule.nextRunAt !== undefined && Date.parse(schedule.nextRunAt) <= now.getTime()) {
        let next = after(new Date(schedule.nextRunAt), schedule.frequency);
        while (next.getTime() <= now.getTime()) next = after(next, schedule.frequency);
        try {
          const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
          const backup = await this.backups.create(index.name, { name: `${schedule.name}-${stamp}` }, "2026-07", schedule.scheduleId);
          started.push(String(backup.backup_id));
        } catch (e) {
          this.log(`scheduled backup of index ${index.name} (schedule ${schedule.scheduleId}) failed: ${e instanceof Error ? e.message : String(e)}`);
        }
        await this.operations.serial.run(async () => {
          const current = this.inventory.schedules.get(schedule.scheduleId);
          if (current?.enabled) await this.inventory.putSchedule({ ...current, nextRunAt: next.toISOString() });
        });
      }
      for (const backup of [...this.inventory.backups.values()]) {
        if (backup.scheduleId !== schedule.scheduleId) continue;
        if (Date.parse(backup.createdAt) + schedule.retentionDays * DAY_MS > now.getTime()) continue;
        await this.backups.delete(backup.backupId).catch((e: unknown) => this.log(`expired backup ${backup.backupId} not deleted yet: ${String(e)}`));
      }
    }
    return started;
  }

  private enabledFor(indexId: string): StoredBackupSchedule | undefined {
    return [...this.inventory.schedules.values()].find((s) => s.indexId === indexId && s.enabled);
  }

  private indexNamed(name: string) {
    const index = this.inventory.indexes.get(name);
    if (!index) throw notFound(`Index ${name} not found.`);
    return index;
  }

  private get(scheduleId: string): StoredBackupSchedule {
    const schedule = this.inventory.schedules.get(scheduleId);
    if (!schedule) throw notFound("Backup schedule not found.");
    return schedule;
  }
}

function scheduleModel(s: StoredBackupSchedule): Model {
  return {
    schedule_id: s.scheduleId,
    name: s.name,
    index_id: s.indexId,
    project_id: PROJECT_ID,
    schedule_type: "time-based",
    frequency: s.frequency,
    retention_expire_after_days: s.retentionDays,
    enabled: s.enabled,
    next_scheduled_run: s.enabled && s.nextRunAt !== undefined ? s.nextRunAt : null,
    created_at: s.createdAt,
  };
}
