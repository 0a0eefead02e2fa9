// A backup schedule found among its index's schedules. The tools that act on one schedule name its index too: the
// API addresses a schedule by id alone, and its answer names the index by id only, so this is how a call is held to
// the index it names (and to --indexes).
import type { BackupSchedule } from "../api/records.js";
import type { Service } from "../api/service.js";
import type { Untouched } from "./refusal.js";
import { ToolError } from "./tool-error.js";

export async function scheduleOfIndex(service: Service, index: string, scheduleId: string, signal: AbortSignal, untouched: Untouched): Promise<BackupSchedule> {
  let paginationToken: string | undefined;
  do {
    const page = await service.control.listBackupSchedules(index, { limit: 100, ...(paginationToken && { paginationToken }) }, signal);
    const found = page.items.find((s) => s.schedule_id === scheduleId);
    if (found) return found;
    paginationToken = page.next;
  } while (paginationToken);
  throw new ToolError({
    problem: `Backup schedule ${JSON.stringify(scheduleId)} not found in index ${JSON.stringify(index)}`,
    untouched,
    next: "call list_backup_schedules to see the index's schedules, then call again with one of them.",
  });
}
