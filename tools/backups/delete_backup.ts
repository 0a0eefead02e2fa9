// delete_backup — deletes a backup. Exists only with --allow-destructive; asks the person to confirm when the
// client supports elicitation.
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { backupIdArg } from "../../src/tool-kit/args/admin-args.js";
import { confirmDestruction, recordsIn } from "../../src/tool-kit/confirm.js";
import { BackupSummary, summarizeBackup } from "../../src/tool-kit/results/admin-summaries.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { defineTool } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "delete_backup",
  title: "Delete backup",
  description: "Permanently delete a backup. Use it only when the user asked to remove that backup.",
  inputSchema: { backupId: backupIdArg({ untouched: "deleted" }) },
  outputSchema: { deleted: BackupSummary.describe("The backup as it was just before it was deleted.") },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  requiresAllowDestructive: true,
  async run({ backupId }, ctx) {
    const { service, signal } = ctx;
    const backup = summarizeBackup(await service.admin.describeBackup(backupId, signal).catch((e: unknown) => refuseMissing(e, { resource: "backup", name: backupId })));
    await confirmDestruction(ctx, {
      action: `Delete backup ${JSON.stringify(backup.name ?? backupId)} of index ${JSON.stringify(backup.sourceIndex)}`,
      loses: `backup ${backupId}: ${recordsIn(backup.records, backup.namespaces)}`,
      name: backupId,
    });
    await service.admin.deleteBackup(backupId, signal).catch((e: unknown) => refuseMissing(e, { resource: "backup", name: backupId }));
    const table = markdownTable(["backupId", "name", "index", "records"], [[backupId, backup.name, backup.sourceIndex, backup.records]]);
    return { structured: { deleted: backup }, table: `Backup ${JSON.stringify(backupId)} deleted.\n\n${table}` };
  },
});
