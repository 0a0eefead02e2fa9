// Backup schedules (API version 2026-07) on a clock the test moves: a schedule takes its backups when they are due
// (one for any number of missed runs), keeps them for their retention, keeps its history, refuses a second enabled
// schedule (409), survives a restart, and only 2026-07 knows its routes.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalService, type LocalService } from "../../../src/local/index.js";
import { newDataDir } from "../../helpers/local-service.js";
import { specsAvailable, validateResponse } from "../../helpers/api-spec.js";
import { controlClient, controlError, waitReady } from "../http.js";

const V7 = { "X-Pinecone-Api-Version": "2026-07" };
const DAY = 24 * 60 * 60 * 1000;
const START = Date.parse("2026-01-31T06:00:00.000Z");
let clock = START;
let dataDir: string;
let svc: LocalService;
let api: ReturnType<typeof controlClient>;
const v7 = (method: string, path: string, body?: unknown) => api(method, path, body, V7);
const CONTROL = "db_control_2026-07.oas.yaml" as const;

async function start(): Promise<void> {
  svc = await startLocalService({ dataDir, apiKey: "k", log: () => undefined, now: () => clock });
  api = controlClient(svc.controlUrl, "k");
}

async function history(id: string): Promise<{ name: string; status: string; created_at: string; backup_id: string }[]> {
  return ((await v7("GET", `/backup-schedules/${id}/history`)).body as { data: never[] }).data;
}

beforeAll(async () => {
  dataDir = newDataDir();
  await start();
  expect((await api("POST", "/indexes", { name: "idx", dimension: 2, spec: { serverless: { cloud: "aws", region: "us-east-1" } } })).status).toBe(201);
  expect((await api("POST", "/indexes", { name: "pods", dimension: 2, spec: { pod: { environment: "us-east1-gcp", pod_type: "p1.x1" } } })).status).toBe(201);
});

afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("backup schedules", () => {
  let id: string;

  it("are created (200) with their next run one period ahead", async () => {
    const created = await v7("POST", "/indexes/idx/backup-schedules", { name: "nightly", schedule: { type: "time-based", frequency: "daily" }, retention: { expire_after_days: 3 } });
    expect(created.status).toBe(200);
    if (specsAvailable) expect(validateResponse(CONTROL, "/indexes/{index_name}/backup-schedules", "post", 200, created.body)).toEqual([]);
    id = (created.body as { schedule_id: string }).schedule_id;
    expect(created.body).toEqual({
      schedule_id: id,
      name: "nightly",
      index_id: expect.any(String),
      project_id: "local",
      schedule_type: "time-based",
      frequency: "daily",
      retention_expire_after_days: 3,
      enabled: true,
      next_scheduled_run: "2026-02-01T06:00:00.000Z",
      created_at: "2026-01-31T06:00:00.000Z",
    });
    expect((await v7("GET", `/backup-schedules/${id}`)).body).toEqual(created.body);
    const listed = await v7("GET", "/indexes/idx/backup-schedules");
    if (specsAvailable) expect(validateResponse(CONTROL, "/indexes/{index_name}/backup-schedules", "get", 200, listed.body)).toEqual([]);
    expect(listed.body).toEqual({ data: [created.body] });
  });

  it("take nothing before they are due, one backup when due, and one for several missed runs", async () => {
    clock = START + DAY - 1;
    expect(await svc.runDueBackupSchedules()).toEqual([]);
    clock = START + DAY;
    const [first] = await svc.runDueBackupSchedules();
    expect(first).toEqual(expect.any(String));
    await waitReady(api, `/backups/${first}`);
    expect((await v7("GET", `/backup-schedules/${id}`)).body).toMatchObject({ next_scheduled_run: "2026-02-02T06:00:00.000Z" });
    clock = START + 3.5 * DAY; // two runs missed
    const second = await svc.runDueBackupSchedules();
    expect(second).toHaveLength(1);
    await waitReady(api, `/backups/${second[0]}`);
    expect((await v7("GET", `/backup-schedules/${id}`)).body).toMatchObject({ next_scheduled_run: "2026-02-04T06:00:00.000Z" });
    const made = await history(id);
    if (specsAvailable) {
      expect(validateResponse(CONTROL, "/backup-schedules/{schedule_id}/history", "get", 200, (await v7("GET", `/backup-schedules/${id}/history`)).body)).toEqual([]);
    }
    expect(made.map((b) => [b.name, b.status, b.created_at])).toEqual([
      ["nightly-20260201T060000Z", "Ready", "2026-02-01T06:00:00.000Z"],
      ["nightly-20260203T180000Z", "Ready", "2026-02-03T18:00:00.000Z"],
    ]);
  });

  it("drop their backups past the retention", async () => {
    clock = START + 4.5 * DAY; // the first backup is 3.5 days old (dropped), the second 1 day; a third is due
    const [third] = await svc.runDueBackupSchedules();
    await waitReady(api, `/backups/${third}`);
    const made = await history(id);
    expect(made.map((b) => b.name)).toEqual(["nightly-20260203T180000Z", "nightly-20260204T180000Z"]);
  });

  it("refuse a second enabled schedule on the index (409), and re-enabling while another is enabled", async () => {
    const second = { name: "weekly", schedule: { type: "time-based", frequency: "weekly" }, retention: { expire_after_days: 30 } };
    const refused = await v7("POST", "/indexes/idx/backup-schedules", second);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: controlError(409, "ALREADY_EXISTS", "This index already has an enabled backup schedule. Disable or delete it first."),
    });
    const disabled = await v7("PATCH", `/backup-schedules/${id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, next_scheduled_run: null });
    const weekly = await v7("POST", "/indexes/idx/backup-schedules", second);
    expect(weekly.status).toBe(200);
    expect((await v7("PATCH", `/backup-schedules/${id}`, { enabled: true })).status).toBe(409);
    expect((await v7("DELETE", `/backup-schedules/${(weekly.body as { schedule_id: string }).schedule_id}`)).status).toBe(204);
  });

  it("re-enabled, run at once, then keep their cadence; changes survive a restart", async () => {
    const enabled = await v7("PATCH", `/backup-schedules/${id}`, { enabled: true, frequency: "monthly", retention: { expire_after_days: 90 } });
    expect(enabled.body).toMatchObject({ enabled: true, frequency: "monthly", retention_expire_after_days: 90, next_scheduled_run: "2026-02-04T18:00:00.000Z" });
    const [again] = await svc.runDueBackupSchedules();
    await waitReady(api, `/backups/${again}`);
    expect((await v7("GET", `/backup-schedules/${id}`)).body).toMatchObject({ next_scheduled_run: "2026-03-04T18:00:00.000Z" });
    const before = (await v7("GET", `/backup-schedules/${id}`)).body;
    await svc.close();
    await start();
    expect((await v7("GET", `/backup-schedules/${id}`)).body).toEqual(before);
    expect((await history(id)).length).toBe(3);
  });

  it("take a due backup once when two checks run at the same time", async () => {
    clock = Date.parse("2026-03-05T00:00:00.000Z");
    const [a, b] = await Promise.all([svc.runDueBackupSchedules(), svc.runDueBackupSchedules()]);
    expect([...a, ...b]).toHaveLength(1);
    await waitReady(api, `/backups/${[...a, ...b][0]}`);
    expect((await history(id)).length).toBe(4);
  });

  it.each([
    [{ name: "x", schedule: { type: "time-based", frequency: "hourly" }, retention: { expire_after_days: 1 } }, 400, "INVALID_ARGUMENT", 'schedule.frequency must be one of daily, weekly or monthly (got "hourly").'],
    [{ name: "x", schedule: { type: "event", frequency: "daily" }, retention: { expire_after_days: 1 } }, 400, "INVALID_ARGUMENT", 'schedule.type must be time-based, the only kind of schedule (got "event").'],
    [{ name: "x", schedule: { type: "time-based", frequency: "daily" }, retention: { expire_after_days: 0 } }, 400, "INVALID_ARGUMENT", "retention.expire_after_days must be from 1 to 3650 (got 0)."],
    [{ name: "x", schedule: { type: "time-based", frequency: "daily" } }, 422, "UNPROCESSABLE_ENTITY", "Failed to deserialize the JSON body into the target type: missing field `retention`"],
  ])("refuse %j", async (body, status, code, message) => {
    const answer = await v7("POST", "/indexes/pods/backup-schedules", body);
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body: controlError(status, code, message) });
  });

  it("are not offered to pod indexes, nor under older API versions", async () => {
    const pod = await v7("POST", "/indexes/pods/backup-schedules", { name: "x", schedule: { type: "time-based", frequency: "daily" }, retention: { expire_after_days: 1 } });
    expect(pod.body).toEqual(controlError(400, "INVALID_ARGUMENT", "Backups are only supported for serverless indexes: index pods is not serverless."));
    const old = await api("GET", "/indexes/idx/backup-schedules");
    expect(old.body).toEqual(controlError(404, "NOT_FOUND", "Backup schedules need API version 2026-07: send the header X-Pinecone-Api-Version: 2026-07."));
    expect((await v7("GET", "/backup-schedules/nope")).body).toEqual(controlError(404, "NOT_FOUND", "Backup schedule not found."));
  });

  it("go with their index", async () => {
    expect((await api("DELETE", "/indexes/idx")).status).toBe(202);
    await svc.runDueBackupSchedules();
    expect((await v7("GET", `/backup-schedules/${id}`)).status).toBe(404);
  });
});
