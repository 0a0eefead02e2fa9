// The local service's bulk import meets the same limits as the server's import_vectors: a Parquet decompression bomb
// is refused within the inflation caps and its job ends Failed (never replayed at a restart); a link to a file outside
// --allow-dir and a FIFO named *.parquet are refused at once, with the reason, without reading them.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newDataDir, startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { writeParquet } from "../ingest/sources/fixtures.js";
import { call, controlClient } from "./http.js";

const MB = 1024 * 1024;
const KEY = "import-attack-key-0123456789";
const base = mkdtempSync(join(tmpdir(), "vecdb-import-attack-"));
const allowed = join(base, "allowed");
const outside = join(base, "outside");
const dataDir = newDataDir();
let svc: RunningService;
let host: string;

async function start(): Promise<void> {
  svc = await startServiceProcess({ dataDir, allowDirs: [allowed], apiKey: KEY });
  const api = controlClient(svc.controlUrl, svc.apiKey);
  const found = await api("GET", "/indexes/imp");
  if (found.status === 404) await api("POST", "/indexes", { name: "imp", dimension: 1, spec: { serverless: { cloud: "aws", region: "us-east-1" } } });
  host = `http://${((await api("GET", "/indexes/imp")).body as { host: string }).host}`;
}

/** An import directory under --allow-dir holding `ns/part-0.parquet`, made by `make`. */
function importDir(name: string, make: (file: string) => void): string {
  const dir = join(allowed, name);
  mkdirSync(join(dir, "ns"), { recursive: true });
  make(join(dir, "ns", "part-0.parquet"));
  return pathToFileURL(dir).href;
}

const peakRssMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${svc.child.pid}/status`, "utf8"))![1]) / 1024;

beforeAll(async () => {
  mkdirSync(allowed, { recursive: true });
  mkdirSync(outside, { recursive: true });
  await start();
});
afterAll(async () => {
  await svc?.stop();
  rmSync(base, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("bulk import in the local service", () => {
  test("a 0.5 MB Parquet bomb (a page that inflates to 512 MiB): Failed with the reason, memory bounded, not replayed at restart", async () => {
    const member = gzipSync(Buffer.alloc(64 * MB));
    const uri = importDir("bomb", (file) =>
      parquetWriteFile({
        filename: file,
        codec: "GZIP",
        compressors: { GZIP: () => new Uint8Array(Buffer.concat(Array.from({ length: 8 }, () => member))) }, // the header keeps the page's true small size
        columnData: [{ name: "id", data: ["a"], type: "STRING" }, { name: "values", data: [[1]] }],
      }),
    );
    const started = await call(`${host}/bulk/imports`, { method: "POST", apiKey: KEY, body: { uri } });
    expect(started.status).toBe(200);
    const id = (started.body as { id: string }).id;
    let job: { status: string; error?: string; recordsImported: number } | undefined;
    for (let i = 0; i < 1000; i++) {
      job = (await call(`${host}/bulk/imports/${id}`, { apiKey: KEY })).body as typeof job;
      if (job!.status === "Failed" || job!.status === "Completed") break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(job).toMatchObject({
      status: "Failed",
      recordsImported: 0,
      error: expect.stringMatching(/^ns\/part-0\.parquet: a page decompresses to more than the \d+ bytes its header declares: refused as a decompression bomb; 0 records were imported before$/),
    });
    expect(peakRssMb()).toBeLessThan(400);

    await svc.stop();
    await start();
    const after = (await call(`${host}/bulk/imports/${id}`, { apiKey: KEY })).body as { status: string };
    expect(after.status).toBe("Failed");
    expect(svc.stderr()).not.toContain("resuming");
  }, 120_000);

  test("a part file that links to a 0600 Parquet file outside --allow-dir: refused at start, not read, where it leads not said", async () => {
    const secret = join(outside, "secret.parquet");
    writeParquet(secret, [{ id: "private-row", values: [0.5] }]);
    chmodSync(secret, 0o600);
    const uri = importDir("linked", (file) => symlinkSync(secret, file));
    const r = await call(`${host}/bulk/imports`, { method: "POST", apiKey: KEY, body: { uri } });
    expect(r.status).toBe(400);
    const message = (r.body as { message?: string; error?: { message: string } }).error?.message ?? (r.body as { message: string }).message;
    expect(message).toBe(`ns/part-0.parquet: Refused: ${join(allowed, "linked", "ns", "part-0.parquet")} is a link that leads outside the allowed directories. Allowed directories: ${allowed}.`);
    const stats = (await call(`${host}/describe_index_stats`, { method: "POST", apiKey: KEY, body: {} })).body as { namespaces: Record<string, unknown> };
    expect(stats.namespaces.ns).toBeUndefined();
  });

  test("a FIFO named part-0.parquet: refused at once as not a regular file; the service still answers and stops on SIGTERM", async () => {
    const uri = importDir("fifo", (file) => execFileSync("mkfifo", [file]));
    const r = await call(`${host}/bulk/imports`, { method: "POST", apiKey: KEY, body: { uri } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(`ns/part-0.parquet: ${join(allowed, "fifo", "ns", "part-0.parquet")} is not a regular file.`);
    expect((await call(`${host}/describe_index_stats`, { method: "POST", apiKey: KEY, body: {} })).status).toBe(200);
  });
});
