// The backup schedule tools end to end under API version 2026-07: the built server over stdio against the local
// service, whose clock the test moves. A schedule is made, listed, described; when it falls due it runs and its
// history shows the backup; a shorter retention asks first; disabling stops it; deleting asks; a server speaking
// 2026-04 says plainly the tools need 2026-07.
import { describe, expect, test } from "vitest";
import { asked, API_KEY, clock, confirmation, mcp, svc, typeTheName, useApi2026_07 } from "../fixtures/api-2026-07.js";
import { startMcp } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/until.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useApi2026_07();

const DAY = 24 * 60 * 60 * 1000;

describe("backup schedules: create_backup_schedule, list_backup_schedules, describe_backup_schedule, update_backup_schedule, list_scheduled_backups, delete_backup_schedule", () => {
  let scheduleId = "";

  test("a schedule runs when due, and its history shows the backup", async () => {
    expect((await mcp.call("create_index", { name: "ledger", dimension: 2 })).isError).toBe(false);
    const up = await mcp.call("upsert_vectors", { index: "ledger", namespace: "a", vectors: [{ id: "1", values: [1, 0] }, { id: "2", values: [0, 1] }] });
    expect(up.isError, up.text).toBe(false);

    const made = await mcp.call("create_backup_schedule", { index: "ledger", name: "nightly", frequency: "daily", retentionDays: 7 });
    expect(made.isError, made.text).toBe(false);
    scheduleId = (made.structured?.schedule as { scheduleId: string }).scheduleId;
    expect(made.structured?.schedule).toEqual({
      scheduleId,
      name: "nightly",
      frequency: "daily",
      retentionDays: 7,
      enabled: true,
      nextRun: "2026-03-02T06:00:00.000Z",
      createdAt: "2026-03-01T06:00:00.000Z",
    });
    expect(made.text).toBe(
      'Backup schedule of index "ledger" created:\n\n| scheduleId | name | frequency | retention days | enabled | next run |\n| --- | --- | --- | --- | --- | --- |\n' +
        `| ${scheduleId} | nightly | daily | 7 | yes | 2026-03-02T06:00:00.000Z |`,
    );
    const listed = await mcp.call("list_backup_schedules", { index: "ledger" });
    expect(listed.structured).toMatchObject({ index: "ledger", schedules: [{ scheduleId, name: "nightly" }] });
    const described = await mcp.call("describe_backup_schedule", { index: "ledger", scheduleId });
    expect(described.structured?.schedule).toEqual(made.structured?.schedule);

    const before = await mcp.call("list_scheduled_backups", { index: "ledger", scheduleId });
    expect(before.text).toBe('No backups from schedule "nightly" of index "ledger" yet.');

    clock.now += DAY;
    const started = await svc.runDueBackupSchedules();
    expect(started).toHaveLength(1);
    let history: Awaited<ReturnType<typeof mcp.call>> | undefined;
    await until(async () => {
      history = await mcp.call("list_scheduled_backups", { index: "ledger", scheduleId });
      const backups = history.structured?.backups as { status: string }[];
      return backups.length === 1 && backups[0].status === "Ready";
    }, "the scheduled backup is Ready", 10_000);
    expect(history!.structured?.backups).toEqual([
      expect.objectContaining({ backupId: started[0], name: "nightly-20260302T060000Z", status: "Ready", records: 2, namespaces: 1 }),
    ]);
    const backup = await mcp.call("describe_backup", { backupId: started[0] });
    expect(backup.structured?.backup).toMatchObject({ sourceIndex: "ledger", status: "Ready", records: 2 });
  });

  test("a shorter retention asks first; declining changes nothing; disabling stops the next run", async () => {
    asked.length = 0;
    confirmation.answer = () => ({ action: "decline" });
    const declined = await mcp.call("update_backup_schedule", { index: "ledger", scheduleId, retentionDays: 1 });
    expect(declined.text).toBe(`Not done: the user declined the confirmation. ${nothingWas("changed")}\nNext step: do not retry unless the user asks again.`);
    expect(asked[0].message).toBe(
      'Keep the backups of schedule "nightly" of index "ledger" 1 days instead of 7 — backups older than that may be removed.\n' +
        'What will be lost: the backups of schedule "nightly" older than 1 days.\nTo confirm, type "nightly" exactly.',
    );
    expect((await mcp.call("describe_backup_schedule", { index: "ledger", scheduleId })).structured?.schedule).toMatchObject({ retentionDays: 7 });

    asked.length = 0;
    const longer = await mcp.call("update_backup_schedule", { index: "ledger", scheduleId, retentionDays: 30, frequency: "weekly", enabled: false });
    expect(longer.isError, longer.text).toBe(false);
    expect(asked).toHaveLength(0);
    expect(longer.structured?.before).toMatchObject({ retentionDays: 7, frequency: "daily", enabled: true });
    expect(longer.structured?.after).toMatchObject({ retentionDays: 30, frequency: "weekly", enabled: false });
    expect(longer.structured?.after).not.toHaveProperty("nextRun");
    clock.now += 8 * DAY;
    expect(await svc.runDueBackupSchedules()).toEqual([]);
  });

  test("refusals: nothing to change, a schedule of another index, the 409 of a second enabled schedule", async () => {
    const empty = await mcp.call("update_backup_schedule", { index: "ledger", scheduleId });
    expect(empty.text).toBe(`Nothing to change: give at least one of frequency, retentionDays or enabled. ${nothingWas("changed")}`);
    expect((await mcp.call("create_index", { name: "other", dimension: 2 })).isError).toBe(false);
    const elsewhere = await mcp.call("describe_backup_schedule", { index: "other", scheduleId });
    expect(elsewhere.text).toBe(
      `Backup schedule ${JSON.stringify(scheduleId)} not found in index "other". ${nothingWas("read")}\n` +
        "Next step: call list_backup_schedules to see the index's schedules, then call again with one of them.",
    );
    const bad = await mcp.call("create_backup_schedule", { index: "ledger", name: "x", frequency: "hourly", retentionDays: 7 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("frequency is daily, weekly or monthly");
    expect((await mcp.call("create_backup_schedule", { index: "ledger", name: "second", frequency: "monthly", retentionDays: 3 })).isError).toBe(false);
    const third = await mcp.call("create_backup_schedule", { index: "ledger", name: "third", frequency: "monthly", retentionDays: 3 });
    expect(third.isError).toBe(true);
    expect(third.text).toContain("already has an enabled backup schedule");
  });

  test("delete asks, then the schedule is gone", async () => {
    asked.length = 0;
    confirmation.answer = typeTheName;
    const deleted = await mcp.call("delete_backup_schedule", { index: "ledger", scheduleId });
    expect(deleted.isError, deleted.text).toBe(false);
    expect(asked[0].message).toBe(
      'Delete backup schedule "nightly" of index "ledger" — this cannot be undone.\n' +
        'What will be lost: the weekly backups of index "ledger" it would take.\nTo confirm, type "nightly" exactly.',
    );
    const listed = await mcp.call("list_backup_schedules", { index: "ledger" });
    expect((listed.structured?.schedules as { name: string }[]).map((s) => s.name)).toEqual(["second"]);
  });

  test("under --indexes, another index's schedules are out of reach, by index or by id", async () => {
    const scoped = await startMcp({ env: { PINECONE_API_KEY: API_KEY, PINECONE_CONTROLLER_HOST: svc.controlUrl, PINECONE_API_VERSION: "2026-07" }, args: ["--indexes", "other"] });
    try {
      const listed = await scoped.call("list_backup_schedules", { index: "ledger" });
      expect(listed.isError).toBe(true);
      expect(listed.text).toMatch(/^Index "ledger" is not available: this server is limited to the indexes "other"/);
      const second = ((await mcp.call("list_backup_schedules", { index: "ledger" })).structured?.schedules as { scheduleId: string }[])[0].scheduleId;
      const byId = await scoped.call("describe_backup_schedule", { index: "other", scheduleId: second });
      expect(byId.text).toMatch(/^Backup schedule "[^"]+" not found in index "other"/);
    } finally {
      await scoped.close();
    }
  });

  test("a server speaking 2026-04 says the tools need 2026-07", async () => {
    const old = await startMcp({ env: { PINECONE_API_KEY: API_KEY, PINECONE_CONTROLLER_HOST: svc.controlUrl } });
    try {
      const r = await old.call("create_backup_schedule", { index: "ledger", name: "n", frequency: "daily", retentionDays: 7 });
      expect(r.text).toBe(
        `create_backup_schedule needs API version 2026-07 or later; this server speaks 2026-04 (PINECONE_API_VERSION). ${nothingWas("created")}\n` +
          "Next step: tell the user; it needs the server restarted with PINECONE_API_VERSION=2026-07 (the service must support it).",
      );
    } finally {
      await old.close();
    }
  });
});
