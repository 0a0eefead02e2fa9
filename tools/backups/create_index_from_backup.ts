// create_index_from_backup — restores a backup into a new serverless index and follows the restore job to the end
// (or for waitSeconds), with progress.
import { z } from "zod";
import { ServiceError } from "../../src/api/errors.js";
import { backupIdArg, tagsArg } from "../../src/tool-kit/args/admin-args.js";
import { newNameSchema } from "../../src/tool-kit/args/names.js";
import { ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { RestoreJobSummary, summarizeRestoreJob } from "../../src/tool-kit/results/admin-summaries.js";
import { refuseMissing } from "../../src/tool-kit/missing-resource.js";
import { sleep } from "../../src/tool-kit/sleep.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const UNTOUCHED = "created";
const RULES = { untouched: UNTOUCHED } as const;

export default defineTool({
  name: "create_index_from_backup",
  title: "Create index from backup",
  description: "Restore a backup into a new serverless index and wait for the restore job to finish (progress is reported; waitSeconds bounds the wait).",
  inputSchema: {
    backupId: backupIdArg(RULES),
    name: newNameSchema("Index", "Name of the new index: 1–45 lower-case letters, digits or '-'."),
    tags: tagsArg,
    deletionProtection: z.enum(["enabled", "disabled"]).optional().describe("Deletion protection of the new index (default disabled)."),
    waitSeconds: wholeNumberArg(0, 600, ruleError("waitSeconds is a whole number from 0 to 600", RULES)).optional().describe("How long to follow the restore, 0–600 s (default 180)."),
  },
  outputSchema: {
    index: z.string().describe("The new index."),
    indexId: z.string().describe("Its id."),
    job: RestoreJobSummary.describe("The restore job, as last seen."),
    finished: z.boolean().describe("Whether the restore job ended (Completed or Failed) within waitSeconds."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  indexArguments: ["name"],
  async run({ backupId, name, tags, deletionProtection, waitSeconds = 180 }, ctx) {
    const { service, signal } = ctx;
    let started;
    try {
      started = await service.admin.createIndexFromBackup(backupId, { name, ...(tags && { tags }), ...(deletionProtection && { deletion_protection: deletionProtection }) }, signal);
    } catch (e) {
      if (e instanceof ServiceError && e.status === 409) {
        throw new ToolError({ problem: `An index named ${JSON.stringify(name)} already exists`, untouched: UNTOUCHED, next: "choose another name (list_indexes shows the names in use)." });
      }
      refuseMissing(e, { resource: "backup", name: backupId }, UNTOUCHED);
    }
    const began = Date.now();
    let job = summarizeRestoreJob(await service.admin.describeRestoreJob(started.restore_job_id, signal));
    const ended = () => job.status === "Completed" || job.status === "Failed";
    while (!ended() && Date.now() - began < waitSeconds * 1000) {
      ctx.progress(job.percentComplete ?? 0, 100, `restore into ${name}: ${job.status}`);
      await sleep(250, signal);
      job = summarizeRestoreJob(await service.admin.describeRestoreJob(started.restore_job_id, signal));
    }
    if (ended()) ctx.progress(100, 100, `restore into ${name}: ${job.status}`);
    const structured = { index: name, indexId: started.index_id, job, finished: ended() };
    const table = markdownTable(["index", "restoreJobId", "status", "percent"], [[name, job.restoreJobId, job.status, job.percentComplete]]);
    if (job.status === "Failed") {
      return { structured, isError: true, table: `Restoring backup ${JSON.stringify(backupId)} into index ${JSON.stringify(name)} failed.\n\n${table}\n\nNext step: describe_restore_job shows the job; try again or tell the user.` };
    }
    const head = ended()
      ? `Backup ${JSON.stringify(backupId)} restored into index ${JSON.stringify(name)}.`
      : `Index ${JSON.stringify(name)} is being restored from backup ${JSON.stringify(backupId)}; describe_restore_job follows the job.`;
    return { structured, table: `${head}\n\n${table}` };
  },
});
