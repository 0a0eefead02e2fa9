// create_backup — a backup (snapshot) of a serverless index; pod-based indexes use collections instead.
import { z } from "zod";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { indexArg, ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { BackupSummary, summarizeBackup } from "../../src/tool-kit/results/admin-summaries.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "created" } as const;

export default defineTool({
  name: "create_backup",
  title: "Create backup",
  description: "Back up a serverless index (a snapshot that outlives it). Pod-based indexes are snapshotted with create_collection instead.",
  inputSchema: {
    index: indexArg("Name of the serverless index to back up.", RULES),
    name: textArg(1, 100, ruleError("backup names are 1–100 characters", RULES)).optional().describe("Backup name (default: made from the index name and time)."),
    description: textArg(1, 500, ruleError("descriptions are 1–500 characters", RULES)).optional().describe("What the backup is for."),
  },
  outputSchema: { backup: BackupSummary.describe("The backup, as the service describes it now.") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ index, name, description }, { service, signal }) {
    const model = await service.control.describeIndex(index, signal);
    if (!model.spec.serverless) {
      throw new ToolError({
        problem: `Index ${JSON.stringify(index)} is pod-based; backups are made of serverless indexes only`,
        untouched: "created",
        next: "snapshot a pod-based index with create_collection.",
      });
    }
    const backup = summarizeBackup(await service.admin.createBackup(index, { ...(name && { name }), ...(description && { description }) }, signal));
    const table = markdownTable(["backupId", "name", "index", "status"], [[backup.backupId, backup.name, backup.sourceIndex, backup.status]]);
    const when = backup.status === "Ready" ? "" : "\n\nIt is being taken; describe_backup shows when it is Ready.";
    return { structured: { backup }, table: `Backup of index ${JSON.stringify(index)} started:\n\n${table}${when}` };
  },
});
