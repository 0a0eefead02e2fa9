// The backup and restore tools end to end: the built server over stdio (with --allow-destructive) against the local
// service (test/tools/fixtures/administration.ts) — happy path with its table, and the bad inputs with the exact text
// a model receives.
import { describe, expect, test } from "vitest";
import { svc, mcp, useAdministrationFixture } from "../fixtures/administration.js";
import { api, createIndex, fetchVectors, pod, serverless } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";
import { refusalOf } from "../../helpers/refusal.js";

useAdministrationFixture();

describe("backups and restore: create_backup, list_backups, describe_backup, create_index_from_backup, list_restore_jobs, describe_restore_job, delete_backup", () => {
  test("backup, list, describe, restore with progress into a new index; taken name and pod index refused; delete", async () => {
    const made = await mcp.call("create_backup", { index: "docs", name: "first", description: "before the change" });
    expect(made.isError, made.text).toBe(false);
    const backupId = (made.structured?.backup as { backupId: string }).backupId;
    let described;
    for (let i = 0; i < 400; i++) {
      described = await mcp.call("describe_backup", { backupId });
      if ((described.structured?.backup as { status: string }).status === "Ready") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(described!.structured?.backup).toMatchObject({ backupId, name: "first", description: "before the change", sourceIndex: "docs", status: "Ready", records: 3, namespaces: 1, dimension: 2 });
    const listed = await mcp.call("list_backups", { index: "docs" });
    expect((listed.structured?.backups as { backupId: string }[]).map((b) => b.backupId)).toEqual([backupId]);

    const restored = await mcp.call("create_index_from_backup", { backupId, name: "docs-copy", waitSeconds: 60 }, { progress: true });
    expect(restored.isError, restored.text).toBe(false);
    expect(restored.structured).toMatchObject({ index: "docs-copy", finished: true, job: { backupId, targetIndex: "docs-copy", status: "Completed", percentComplete: 100 } });
    expect(restored.progress.at(-1)).toMatchObject({ progress: 100, total: 100, message: "restore into docs-copy: Completed" });
    const copyHost = (await api(svc, "GET", "/indexes/docs-copy")).body.host;
    expect(Object.keys(await fetchVectors(svc, copyHost, ["b1", "b2", "b3"], "books")).sort()).toEqual(["b1", "b2", "b3"]);
    const jobs = await mcp.call("list_restore_jobs", {});
    expect((jobs.structured?.jobs as { targetIndex: string }[]).map((j) => j.targetIndex)).toEqual(["docs-copy"]);
    const job = await mcp.call("describe_restore_job", { restoreJobId: (restored.structured?.job as { restoreJobId: string }).restoreJobId });
    expect(job.structured?.job).toMatchObject({ status: "Completed", percentComplete: 100 });

    const taken = await mcp.call("create_index_from_backup", { backupId, name: "docs-copy" });
    expect(taken.text).toBe(`An index named "docs-copy" already exists. ${nothingWas("created")}\nNext step: choose another name (list_indexes shows the names in use).`);
    await createIndex(svc, { name: "pods-x", dimension: 2, spec: pod });
    const podBackup = await mcp.call("create_backup", { index: "pods-x" });
    expect(refusalOf(podBackup.text)).toEqual({
      problem: 'Index "pods-x" is pod-based; backups are made of serverless indexes only',
      untouched: "created",
      next: "snapshot a pod-based index with create_collection.",
    });
    const unknown = await mcp.call("describe_backup", { backupId: "nope" });
    expect(refusalOf(unknown.text)).toEqual({ problem: 'Backup "nope" not found', untouched: "read", next: listingStep("backup") });

    const deleted = await mcp.call("delete_backup", { backupId });
    expect(deleted.isError, deleted.text).toBe(false);
    expect((await api(svc, "GET", `/backups/${backupId}`)).status).toBe(404);
  });
});
