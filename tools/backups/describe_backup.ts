// describe_backup — one backup in full.
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { backupIdArg } from "../../src/tool-kit/args/admin-args.js";
import { BackupSummary, summarizeBackup } from "../../src/tool-kit/results/admin-summaries.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "describe_backup",
  title: "Describe backup",
  description: "Show one backup: its index, status, records, namespaces, size and where it is kept.",
  inputSchema: { backupId: backupIdArg({ untouched: "read" }) },
  outputSchema: { backup: BackupSummary.describe("The backup.") },
  annotations: READ_ONLY,
  async run({ backupId }, { service, signal }) {
    const backup = summarizeBackup(await service.admin.describeBackup(backupId, signal).catch((e: unknown) => refuseMissing(e, { resource: "backup", name: backupId })));
    const table = markdownTable(["field", "value"], Object.entries(backup).map(([k, v]) => [k, String(v)]));
    return { structured: { backup }, table: `Backup ${JSON.stringify(backupId)}:\n\n${table}` };
  },
});
