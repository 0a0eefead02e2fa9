// describe_backup_schedule — one backup schedule of an index (API 2026-07).
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { scheduleIdArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { scheduleOfIndex } from "../../src/tool-kit/index-schedule.js";
import { SCHEDULE_COLUMNS, scheduleRows, ScheduleSummary, summarizeSchedule } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "describe_backup_schedule",
  title: "Describe backup schedule",
  description: "Show one backup schedule of an index: how often it runs, how long it keeps backups, enabled, next run.",
  inputSchema: { index: indexArg("Name of the index.", RULES), scheduleId: scheduleIdArg(RULES) },
  outputSchema: { index: z.string().describe("The index."), schedule: ScheduleSummary.describe("The schedule.") },
  annotations: READ_ONLY,
  async run({ index, scheduleId }, { service, signal, config }) {
    requireSchemaApi("describe_backup_schedule", config.apiVersion, "read");
    await scheduleOfIndex(service, index, scheduleId, signal, "read");
    const schedule = summarizeSchedule(await service.control.describeBackupSchedule(scheduleId, signal));
    return { structured: { index, schedule }, table: `Backup schedule of index ${JSON.stringify(index)}:\n\n${markdownTable(SCHEDULE_COLUMNS, scheduleRows([schedule]))}` };
  },
});
