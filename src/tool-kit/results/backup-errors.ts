// What the backup tools say when the service answers 404 for a backup or a restore job.
import { ServiceError } from "../../api/errors.js";
import { ToolError } from "../tool-error.js";

export function backupNotFound(err: unknown, backupId: string, nothing: string): never {
  if (err instanceof ServiceError && err.status === 404 && /\/backups\//.test(err.url)) {
    throw new ToolError(`Backup ${JSON.stringify(backupId)} not found. ${nothing}\nNext step: list_backups shows the backups there are.`);
  }
  throw err;
}

export function restoreJobNotFound(err: unknown, jobId: string): never {
  if (err instanceof ServiceError && err.status === 404 && /\/restore-jobs\//.test(err.url)) {
    throw new ToolError(`Restore job ${JSON.stringify(jobId)} not found. Nothing was read.\nNext step: list_restore_jobs shows the restore jobs there are.`);
  }
  throw err;
}
