// delete_backup_schedule — stops and removes a backup schedule (API 2026-07). Exists only with --allow-destructive;
// asks the person to confirm when the client supports elicitation.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { scheduleIdArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { confirmDestruction } from "../../src/tool-kit/confirm.js";
import { scheduleOfIndex } from "../../src/tool-kit/index-schedule.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { SCHEDULE_COLUMNS, scheduleRows, ScheduleSummary, summarizeSchedule } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "delete_backup_schedule",
  title: "Delete backup schedule",
  description: "Permanently delete a backup schedule: no more automatic backups. Use it only when the user asked.",
  inputSchema: { index: indexArg("Name of the index.", { untouched: "deleted" }), scheduleId: scheduleIdArg({ untouched: "deleted" }) },
  outputSchema: { index: z.string().describe("The index."), deleted: ScheduleSummary.describe("The schedule as it was just before.") },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  requiresAllowDestructive: true,
  async run({ index, scheduleId }, ctx) {
    const { service, signal, config } = ctx;
    requireSchemaApi("delete_backup_schedule", config.apiVersion, "deleted");
    const schedule = summarizeSchedule(await scheduleOfIndex(service, index, scheduleId, signal, "deleted"));
    await confirmDestruction(ctx, {
      action: `Delete backup schedule ${JSON.stringify(schedule.name)} of index ${JSON.stringify(index)}`,
      loses: `the ${schedule.frequency} backups of index ${JSON.stringify(index)} it would take`,
      name: schedule.name,
    });
    await service.control.deleteBackupSchedule(scheduleId, signal).catch((e: unknown) => refuseMissing(e, { resource: "backup schedule", name: scheduleId, index }));
    const table = markdownTable(SCHEDULE_COLUMNS, scheduleRows([schedule]));
    return { structured: { index, deleted: schedule }, table: `Backup schedule ${JSON.stringify(schedule.name)} of index ${JSON.stringify(index)} deleted.\n\n${table}` };
  },
});
