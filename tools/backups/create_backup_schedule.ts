// create_backup_schedule — automatic backups of a serverless index (API 2026-07).
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { frequencyArg, retentionDaysArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { SCHEDULE_COLUMNS, scheduleRows, ScheduleSummary, summarizeSchedule } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "created" } as const;

export default defineTool({
  name: "create_backup_schedule",
  title: "Create backup schedule",
  description: "Back up a serverless index automatically, daily, weekly or monthly, keeping each backup for some days.",
  inputSchema: {
    index: indexArg("Name of the serverless index.", RULES),
    name: textArg(1, 100, ruleError("schedule names are 1–100 characters", RULES)).describe("Schedule name; its backups are named after it."),
    frequency: frequencyArg(RULES),
    retentionDays: retentionDaysArg(RULES),
  },
  outputSchema: { schedule: ScheduleSummary.describe("The schedule as the service describes it.") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ index, name, frequency, retentionDays }, { service, signal, config }) {
    requireSchemaApi("create_backup_schedule", config.apiVersion, "created");
    const body = { name, schedule: { type: "time-based" as const, frequency }, retention: { expire_after_days: retentionDays } };
    const schedule = summarizeSchedule(await service.control.createBackupSchedule(index, body, signal));
    const table = markdownTable(SCHEDULE_COLUMNS, scheduleRows([schedule]));
    return { structured: { schedule }, table: `Backup schedule of index ${JSON.stringify(index)} created:\n\n${table}` };
  },
});
