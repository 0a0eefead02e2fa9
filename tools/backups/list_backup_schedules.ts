// list_backup_schedules — the backup schedules of an index (API 2026-07).
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { pageLimitArg } from "../../src/tool-kit/args/backup-and-page-args.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { nextPageField, paginationTokenArg } from "../../src/tool-kit/results/backups-imports-namespaces.js";
import { SCHEDULE_COLUMNS, scheduleRows, ScheduleSummary, summarizeSchedule } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "list_backup_schedules",
  title: "List backup schedules",
  description: "List the backup schedules of an index: how often each runs, how long it keeps backups, enabled, next run.",
  inputSchema: { index: indexArg("Name of the index.", RULES), limit: pageLimitArg(RULES, "Schedules"), paginationToken: paginationTokenArg },
  outputSchema: { index: z.string().describe("The index."), schedules: z.array(ScheduleSummary).describe("The schedules on this page."), paginationToken: nextPageField },
  annotations: READ_ONLY,
  async run({ index, limit, paginationToken }, { service, signal, config }) {
    requireSchemaApi("list_backup_schedules", config.apiVersion, "read");
    const page = await service.control.listBackupSchedules(index, { limit, paginationToken }, signal);
    const schedules = page.items.map(summarizeSchedule);
    const structured = { index, schedules, ...(page.next && { paginationToken: page.next }) };
    if (schedules.length === 0) return { structured, table: `Index ${JSON.stringify(index)} has no backup schedules.` };
    const more = page.next ? `\n\nMore schedules: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    return { structured, table: `Backup schedules of index ${JSON.stringify(index)}:\n\n${markdownTable(SCHEDULE_COLUMNS, scheduleRows(schedules))}${more}` };
  },
});
