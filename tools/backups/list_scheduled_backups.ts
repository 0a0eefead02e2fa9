// list_scheduled_backups — a schedule's history: the backups it made, and the next one it will make (API 2026-07).
import { z } from "zod";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { requireSchemaApi } from "../../src/tool-kit/api-version.js";
import { pageLimitArg } from "../../src/tool-kit/args/backup-and-page-args.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { scheduleIdArg } from "../../src/tool-kit/args/schedule-and-alias-args.js";
import { scheduleOfIndex } from "../../src/tool-kit/index-schedule.js";
import { nextPageField, paginationTokenArg } from "../../src/tool-kit/results/backups-imports-namespaces.js";
import { ScheduledBackupSummary, summarizeScheduledBackup } from "../../src/tool-kit/results/schedules-aliases.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "list_scheduled_backups",
  title: "List scheduled backups",
  description: "A backup schedule's history: the backups it made (status, records, size) and the next one planned.",
  inputSchema: { index: indexArg("Name of the index.", RULES), scheduleId: scheduleIdArg(RULES), limit: pageLimitArg(RULES, "Backups"), paginationToken: paginationTokenArg },
  outputSchema: {
    index: z.string().describe("The index."),
    scheduleId: z.string().describe("The schedule."),
    backups: z.array(ScheduledBackupSummary).describe("Its backups on this page."),
    paginationToken: nextPageField,
  },
  annotations: READ_ONLY,
  async run({ index, scheduleId, limit, paginationToken }, { service, signal, config }) {
    requireSchemaApi("list_scheduled_backups", config.apiVersion, "read");
    const schedule = await scheduleOfIndex(service, index, scheduleId, signal, "read");
    const page = await service.control.backupScheduleHistory(scheduleId, { limit, paginationToken }, signal);
    const backups = page.items.map(summarizeScheduledBackup);
    const structured = { index, scheduleId, backups, ...(page.next && { paginationToken: page.next }) };
    const of = `schedule ${JSON.stringify(schedule.name)} of index ${JSON.stringify(index)}`;
    if (backups.length === 0) return { structured, table: `No backups from ${of} yet.` };
    const table = markdownTable(
      ["backupId", "name", "status", "records", "size", "created", "scheduled for"],
      backups.map((b) => [b.backupId, b.name, b.status, b.records, b.sizeBytes === undefined ? undefined : humanBytes(b.sizeBytes), b.createdAt, b.scheduledAt]),
    );
    const more = page.next ? `\n\nMore backups: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    return { structured, table: `Backups from ${of}:\n\n${table}${more}` };
  },
});
