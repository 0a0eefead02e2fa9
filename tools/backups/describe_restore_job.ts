// describe_restore_job — one restore job: its status and percent complete.
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { ruleError, textArg } from "../../src/tool-kit/args/schema.js";
import { RestoreJobSummary, summarizeRestoreJob } from "../../src/tool-kit/results/admin-summaries.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { defineTool, READ_ONLY } from "../../src/tool-kit/tool.js";

export default defineTool({
  name: "describe_restore_job",
  title: "Describe restore job",
  description: "Show one restore job: the backup, the index it creates, status and percent complete.",
  inputSchema: {
    restoreJobId: textArg(1, 200, ruleError("restore job ids are 1–200 characters", { untouched: "read" })).describe("Restore job id."),
  },
  outputSchema: { job: RestoreJobSummary.describe("The restore job.") },
  annotations: READ_ONLY,
  async run({ restoreJobId }, { service, signal }) {
    const job = summarizeRestoreJob(await service.admin.describeRestoreJob(restoreJobId, signal).catch((e: unknown) => refuseMissing(e, { resource: "restore job", name: restoreJobId })));
    const table = markdownTable(["restoreJobId", "backupId", "index", "status", "percent"], [[job.restoreJobId, job.backupId, job.targetIndex, job.status, job.percentComplete]]);
    return { structured: { job }, table: `Restore job:\n\n${table}` };
  },
});
