// list_backups — the backups of one index, or of the whole project.
import { z } from "zod";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { pageLimitArg } from "../../src/tool-kit/args/admin-args.js";
import { indexArg } from "../../src/tool-kit/args/schema.js";
import { BackupSummary, nextPageField, paginationTokenArg, summarizeBackup } from "../../src/tool-kit/results/admin-summaries.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

const RULES = { untouched: "read" } as const;

export default defineTool({
  name: "list_backups",
  title: "List backups",
  description: "List the backups of serverless indexes, of one index or of all of them, with status, records and size.",
  inputSchema: {
    index: indexArg("Only the backups of this index.", RULES).optional(),
    limit: pageLimitArg(RULES, "Backups"),
    paginationToken: paginationTokenArg,
  },
  outputSchema: { backups: z.array(BackupSummary).describe("The backups on this page."), paginationToken: nextPageField },
  annotations: READ_ONLY,
  async run({ index, limit, paginationToken }, { service, signal }) {
    const page = await service.admin.listBackups({ index, limit, paginationToken }, signal);
    const backups = page.items.map(summarizeBackup);
    const structured = { backups, ...(page.next && { paginationToken: page.next }) };
    const of = index === undefined ? "" : ` of index ${JSON.stringify(index)}`;
    if (backups.length === 0) return { structured, table: `There are no backups${of}.` };
    const table = markdownTable(
      ["backupId", "name", "index", "status", "records", "size", "created"],
      backups.map((b) => [b.backupId, b.name, b.sourceIndex, b.status, b.records, b.sizeBytes === undefined ? undefined : humanBytes(b.sizeBytes), b.createdAt]),
    );
    const more = page.next ? `\n\nMore backups: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    return { structured, table: `Backups${of}:\n\n${table}${more}` };
  },
});
