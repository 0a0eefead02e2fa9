// A restore job's record following the copy of a backup into its new index: Pending → InProgress (percent as
// chunks commit) → Completed | Failed. States are persisted; the percent between them lives in memory (a copy
// interrupted by a restart starts over, and so does its percent).
import type { Inventory } from "../storage/inventory.js";

export class RestoreProgress {
  private total = 0;

  constructor(
    private readonly inventory: Inventory,
    private readonly jobId: string | undefined,
  ) {}

  async started(total: number): Promise<void> {
    this.total = total;
    const job = this.job();
    if (job) await this.inventory.putRestoreJob({ ...job, status: "InProgress", percentComplete: 0 });
  }

  copied(records: number): void {
    const job = this.job();
    if (job && this.total > 0) job.percentComplete = Math.min(99.9, Math.round((records / this.total) * 1000) / 10);
  }

  async finished(status: "Completed" | "Failed"): Promise<void> {
    const job = this.job();
    if (!job || job.status === "Completed" || job.status === "Failed") return;
    await this.inventory.putRestoreJob({
      ...job,
      status,
      percentComplete: status === "Completed" ? 100 : job.percentComplete,
      completedAt: new Date().toISOString(),
    });
  }

  private job() {
    return this.jobId === undefined ? undefined : this.inventory.restoreJobs.get(this.jobId);
  }
}
