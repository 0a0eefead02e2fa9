// update_backup_schedule — changes a schedule's frequency or retention, or turns it off and on (API 2026-07). A
// shorter retention may remove backups already made, so it asks first.
import { z } from "zod";
import type { UpdateBackupScheduleRequest } from "../../src/api/control.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { frequencyArg, retentionDaysArg, scheduleIdArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { confirmDestruction } from "../../src/tool-kit/confirm.js";
import { scheduleOfIndex } from "../../src/tool-kit/index-schedule.js";
import { SCHEDULE_COLUMNS, scheduleRows, ScheduleSummary, summarizeSchedule } from "../../src/tool-kit/results/schedules-aliases.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "changed" } as const;

export default defineTool({
  name: "update_backup_schedule",
  title: "Update backup schedule",
  description: "Change a backup schedule's frequency or retention, or disable / enable it. Shows before and after.",
  inputSchema: {
    index: indexArg("Name of the index.", RULES),
    scheduleId: scheduleIdArg(RULES),
    frequency: frequencyArg(RULES).optional(),
    retentionDays: retentionDaysArg(RULES).optional(),
    enabled: z.boolean().optional().describe("false stops it; true starts it again."),
  },
  outputSchema: {
    index: z.string().describe("The index."),
    before: ScheduleSummary.describe("The schedule before."),
    after: ScheduleSummary.describe("The schedule after."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ index, scheduleId, frequency, retentionDays, enabled }, ctx) {
    const { service, signal, config } = ctx;
    requireSchemaApi("update_backup_schedule", config.apiVersion, "changed");
    const body: UpdateBackupScheduleRequest = {
      ...(frequency !== undefined && { frequency }),
      ...(retentionDays !== undefined && { retention: { expire_after_days: retentionDays } }),
      ...(enabled !== undefined && { enabled }),
    };
    if (Object.keys(body).length === 0) {
      throw new ToolError({ problem: "Nothing to change: give at least one of frequency, retentionDays or enabled", untouched: "changed" });
    }
    const before = summarizeSchedule(await scheduleOfIndex(service, index, scheduleId, signal, "changed"));
    if (retentionDays !== undefined && retentionDays < before.retentionDays) {
      await confirmDestruction(ctx, {
        action: `Keep the backups of schedule ${JSON.stringify(before.name)} of index ${JSON.stringify(index)} ${retentionDays} days instead of ${before.retentionDays}`,
        warning: "backups older than that may be removed",
        loses: `the backups of schedule ${JSON.stringify(before.name)} older than ${retentionDays} days`,
        name: before.name,
        untouched: "changed",
      });
    }
    const after = summarizeSchedule(await service.control.updateBackupSchedule(scheduleId, body, signal));
    const table = markdownTable(["", ...SCHEDULE_COLUMNS], [["before", ...scheduleRows([before])[0]], ["after", ...scheduleRows([after])[0]]]);
    return { structured: { index, before, after }, table: `Backup schedule ${JSON.stringify(before.name)} of index ${JSON.stringify(index)} updated:\n\n${table}` };
  },
});
