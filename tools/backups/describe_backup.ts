// describe_backup — one backup in full.
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { backupIdArg } from "../../src/tool-kit/args/backup-and-page-args.js";
import { BackupSummary, summarizeBackup } from "../../src/tool-kit/results/backups-imports-namespaces.js";
import { backupNotFound } from "../../src/tool-kit/results/backup-errors.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "describe_backup",
  title: "Describe backup",
  description: "Show one backup: its index, status, records, namespaces, size and where it is kept.",
  inputSchema: { backupId: backupIdArg({ after: "Nothing was read." }) },
  outputSchema: { backup: BackupSummary.describe("The backup.") },
  annotations: READ_ONLY,
  async run({ backupId }, { service, signal }) {
    const backup = summarizeBackup(await service.control.describeBackup(backupId, signal).catch((e: unknown) => backupNotFound(e, backupId, "Nothing was read.")));
    const table = markdownTable(["field", "value"], Object.entries(backup).map(([k, v]) => [k, String(v)]));
    return { structured: { backup }, table: `Backup ${JSON.stringify(backupId)}:\n\n${table}` };
  },
});
