// A bulk import survives a kill -9 of the local service: after the restart the job resumes from its last committed
// batch and ends Completed, with every record there exactly once and recordsImported equal to the count.
// (CI size: 24,000 records × 32 in 12 files; bench/bulk-import.ts runs the 200,000 × 768 case.)
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, expect, test } from "vitest";
import { newDataDir, startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { writeParquet } from "../ingest/sources/fixtures.js";
import { call, controlClient } from "./http.js";

const FILES = 12;
const ROWS = 2000;
const DIM = 32;
let svc: RunningService | undefined;
const importRoot = mkdtempSync(join(tmpdir(), "vecdb-import-restart-"));
const dataDir = newDataDir();

afterAll(async () => {
  await svc?.stop();
  rmSync(importRoot, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

test("kill -9 mid-import, restart: the job resumes and completes; no record lost or doubled", async () => {
  const dir = join(importRoot, "load");
  mkdirSync(join(dir, "ns"), { recursive: true });
  for (let f = 0; f < FILES; f++) {
    writeParquet(join(dir, "ns", `part-${String(f).padStart(2, "0")}.parquet`), Array.from({ length: ROWS }, (_, i) => ({
      id: `r${f}-${i}`,
      values: Array.from({ length: DIM }, (_, d) => ((f * ROWS + i + d) % 97) / 97),
    })));
  }
  svc = await startServiceProcess({ dataDir, allowDirs: [importRoot], apiKey: "restart-key-0123456789" });
  const api = controlClient(svc.controlUrl, svc.apiKey);
  await api("POST", "/indexes", { name: "big", dimension: DIM, spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
  const host = `http://${((await api("GET", "/indexes/big")).body as { host: string }).host}`;
  const started = await call(`${host}/bulk/imports`, { method: "POST", apiKey: svc.apiKey, body: { uri: pathToFileURL(dir).href } });
  const id = (started.body as { id: string }).id;
  let seen: { status: string; recordsImported: number } | undefined;
  for (let i = 0; i < 2000; i++) {
    seen = (await call(`${host}/bulk/imports/${id}`, { apiKey: svc.apiKey })).body as typeof seen;
    if (seen!.recordsImported >= 2000) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  expect(seen!.status).toBe("InProgress"); // killed in the middle, not after the end
  await svc.kill();

  svc = await startServiceProcess({ dataDir, allowDirs: [importRoot], apiKey: "restart-key-0123456789" });
  expect(svc.stderr()).not.toContain("Error");
  const api2 = controlClient(svc.controlUrl, svc.apiKey);
  const host2 = `http://${((await api2("GET", "/indexes/big")).body as { host: string }).host}`;
  let done: { status: string; recordsImported: number; percentComplete: number } | undefined;
  for (let i = 0; i < 2000; i++) {
    done = (await call(`${host2}/bulk/imports/${id}`, { apiKey: svc.apiKey })).body as typeof done;
    if (done!.status !== "InProgress" && done!.status !== "Pending") break;
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(done).toMatchObject({ status: "Completed", recordsImported: FILES * ROWS, percentComplete: 100 });
  const stats = (await call(`${host2}/describe_index_stats`, { method: "POST", apiKey: svc.apiKey, body: {} })).body as { namespaces: Record<string, { vectorCount: number }> };
  expect(stats.namespaces.ns.vectorCount).toBe(FILES * ROWS);
  const sample = (await call(`${host2}/vectors/fetch?ids=r0-0&ids=r11-1999&ids=r5-1000&namespace=ns`, { apiKey: svc.apiKey })).body as { vectors: Record<string, unknown> };
  expect(Object.keys(sample.vectors).sort()).toEqual(["r0-0", "r11-1999", "r5-1000"]);
}, 120_000);
