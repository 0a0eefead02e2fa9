// describe_backup — one backup in full.
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { backupIdArg } from "../../src/tool-kit/args/admin-args.js";
import { BackupSummary, summarizeBackup } from "../../src/tool-kit/results/admin-summaries.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";
import { ServiceError } from "../../src/api/errors.js";
import type { BackupModel } from "../../src/api/admin-records.js";
import type { Service } from "../../src/api/service.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";

/** Pages of the project's backups looked through for a name (100 a page). */
const NAME_PAGES = 20;

async function backupsNamed(service: Service, name: string, signal: AbortSignal): Promise<BackupModel[]> {
  const found: BackupModel[] = [];
  let token: string | undefined;
  for (let page = 0; page < NAME_PAGES; page++) {
    const listed = await service.admin.listBackups({ limit: 100, paginationToken: token }, signal);
    found.push(...listed.items.filter((b) => b.name === name));
    token = listed.next;
    if (!token) break;
  }
  return found;
}

export default defineTool({
  name: "describe_backup",
  title: "Describe backup",
  description: "Show one backup: its index, status, records, namespaces, size and where it is kept.",
  inputSchema: { backupId: backupIdArg({ untouched: "read" }) },
  outputSchema: { backup: BackupSummary.describe("The backup.") },
  annotations: READ_ONLY,
  async run({ backupId }, { service, signal }) {
    let model: BackupModel;
    let byName = false;
    try {
      model = await service.admin.describeBackup(backupId, signal);
    } catch (err) {
      if (!(err instanceof ServiceError && err.status === 404)) throw err;
      // A backup's name is what a person remembers: one backup of that name is the one meant.
      const named = await backupsNamed(service, backupId, signal);
      if (named.length > 1) {
        throw new ToolError({
          problem: `${named.length} backups are named ${JSON.stringify(backupId)}`,
          next: `call describe_backup with one of their ids: ${named.map((b) => `${b.backup_id} (index ${b.source_index_name})`).join(", ")}.`,
        });
      }
      if (named.length === 0) refuseMissing(err, { resource: "backup", name: backupId });
      model = named[0];
      byName = true;
    }
    const backup = summarizeBackup(model);
    const table = markdownTable(["field", "value"], Object.entries(backup).map(([k, v]) => [k, String(v)]));
    const head = byName ? `Backup named ${JSON.stringify(backupId)} (id ${JSON.stringify(model.backup_id)}):` : `Backup ${JSON.stringify(backupId)}:`;
    return { structured: { backup }, table: `${head}\n\n${table}` };
  },
});
