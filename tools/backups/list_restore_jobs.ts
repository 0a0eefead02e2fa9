// list_restore_jobs — the restore jobs of the project, newest state of each.
import { z } from "zod";
import { pageLimitArg } from "../../src/tool-kit/args/admin-args.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { nextPageField, paginationTokenArg, RestoreJobSummary, summarizeRestoreJob } from "../../src/tool-kit/results/admin-summaries.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "list_restore_jobs",
  title: "List restore jobs",
  description: "List the jobs that restore backups into new indexes, with their status and progress.",
  inputSchema: { limit: pageLimitArg({ untouched: "read" }, "Jobs"), paginationToken: paginationTokenArg },
  outputSchema: { jobs: z.array(RestoreJobSummary).describe("The restore jobs on this page."), paginationToken: nextPageField },
  annotations: READ_ONLY,
  async run({ limit, paginationToken }, { service, signal }) {
    const page = await service.admin.listRestoreJobs({ limit, paginationToken }, signal);
    const jobs = page.items.map(summarizeRestoreJob);
    const structured = { jobs, ...(page.next && { paginationToken: page.next }) };
    if (jobs.length === 0) return { structured, table: "There are no restore jobs." };
    const table = markdownTable(
      ["restoreJobId", "backupId", "index", "status", "percent", "created"],
      jobs.map((j) => [j.restoreJobId, j.backupId, j.targetIndex, j.status, j.percentComplete, j.createdAt]),
    );
    const more = page.next ? `\n\nMore jobs: call again with paginationToken ${JSON.stringify(page.next)}.` : "";
    return { structured, table: `Restore jobs:\n\n${table}${more}` };
  },
});
