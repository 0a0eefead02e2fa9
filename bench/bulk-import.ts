// Bulk import (/bulk/imports) of Parquet files in the documented layout into the local service, default 200,000
// records × 768 in files of 10,000, against the official client's upsert loop (chunks of 100, 8 in flight) sending
// the same records in the same run. Then the same import again with a kill -9 of the service half-way and a
// restart: the job must end Completed with the exact count (no record lost or doubled).
//   BENCH_BULK_COUNT=20000 npm run bench -- bulk-import     (reduced size)
import { existsSync, mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { newDataDir, startServiceProcess, type RunningService } from "../test/helpers/local-service.js";
import { writeParquetStreaming } from "../test/ingest/sources/fixtures.js";
import { createIndex, makeRecords, officialClientLoop, ratioLine, tempDir, type BenchRecord } from "./lib.js";

const COUNT = Number(process.env.BENCH_BULK_COUNT ?? 200_000);
const DIMENSION = 768;
const PER_FILE = 10_000;

interface ImportState { status: string; recordsImported?: number; percentComplete?: number; error?: string }

async function json<T>(url: string, apiKey: string, method = "GET", body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { "Api-Key": apiKey, "X-Pinecone-API-Version": "2026-04", "Content-Type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return (await res.json()) as T;
}

function* records(): Generator<BenchRecord> {
  for (let start = 0; start < COUNT; start += PER_FILE) {
    yield* makeRecords(Math.min(PER_FILE, COUNT - start), DIMENSION, 7 + start, `f${start / PER_FILE}`);
  }
}

async function startImport(service: RunningService, host: string, dir: string): Promise<string> {
  const started = await json<{ id?: string; message?: string }>(`http://${host}/bulk/imports`, service.apiKey, "POST", { uri: pathToFileURL(dir).href });
  if (!started.id) throw new Error(`start import: ${JSON.stringify(started)}`);
  return started.id;
}

async function waitImport(service: RunningService, host: string, id: string, until: (s: ImportState) => boolean): Promise<ImportState> {
  for (;;) {
    const state = await json<ImportState>(`http://${host}/bulk/imports/${id}`, service.apiKey);
    if (until(state)) return state;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function count(service: RunningService, host: string): Promise<number> {
  return (await json<{ totalVectorCount: number }>(`http://${host}/describe_index_stats`, service.apiKey, "POST", {})).totalVectorCount;
}

export async function benchBulkImport(): Promise<{ ours: number; reference: number }> {
  // BENCH_BULK_DIR keeps the Parquet files between runs (writing 200,000 × 768 takes minutes).
  const keep = process.env.BENCH_BULK_DIR;
  const root = keep ?? (await tempDir("vecdb-bench-bulk-"));
  const dir = path.join(root, `import-${COUNT}`);
  mkdirSync(path.join(dir, "__default__"), { recursive: true });
  const written = performance.now();
  for (let start = 0, f = 0; start < COUNT; start += PER_FILE, f++) {
    if (keep && existsSync(path.join(dir, "__default__", `part-${String(f).padStart(4, "0")}.parquet`))) continue;
    const rows = makeRecords(Math.min(PER_FILE, COUNT - start), DIMENSION, 7 + start, `f${f}`);
    writeParquetStreaming(path.join(dir, "__default__", `part-${String(f).padStart(4, "0")}.parquet`), rows.length, (i) => ({
      id: rows[i].id, values: rows[i].values, metadata: JSON.stringify(rows[i].metadata),
    }));
  }
  const writeSeconds = (performance.now() - written) / 1000;
  const dataDir = newDataDir();
  let service = await startServiceProcess({ dataDir, allowDirs: [root], timeoutMs: 120_000 });
  try {
    const refHost = await createIndex(service, "ref-bulk", DIMENSION);
    let start = performance.now();
    let reference = NaN;
    let referenceNote = "";
    try {
      const sent = await officialClientLoop(service, "ref-bulk", refHost, records());
      reference = sent / ((performance.now() - start) / 1000);
    } catch (e) {
      // Reported, not hidden: the line says the reference did not finish, and why.
      referenceNote = ` (the reference loop failed after ${((performance.now() - start) / 1000).toFixed(1)} s: ${e instanceof Error ? e.message.slice(0, 120) : String(e)})`;
    }

    const host = await createIndex(service, "ours-bulk", DIMENSION);
    start = performance.now();
    const id = await startImport(service, host, dir);
    const done = await waitImport(service, host, id, (s) => s.status !== "Pending" && s.status !== "InProgress");
    const ours = COUNT / ((performance.now() - start) / 1000);
    const stored = await count(service, host);
    if (done.status !== "Completed" || done.recordsImported !== COUNT || stored !== COUNT) {
      throw new Error(`import ended ${JSON.stringify(done)} with ${stored} records stored (expected ${COUNT})`);
    }

    // The same import with a kill -9 half-way and a restart.
    const killHost = await createIndex(service, "kill-bulk", DIMENSION);
    const killId = await startImport(service, killHost, dir);
    const before = await waitImport(service, killHost, killId, (s) => (s.recordsImported ?? 0) >= COUNT / 2 || ["Completed", "Failed", "Cancelled"].includes(s.status));
    await service.kill();
    const restartAt = performance.now();
    service = await startServiceProcess({ dataDir, allowDirs: [root], timeoutMs: 120_000 });
    const describe = await json<{ host: string }>(`${service.controlUrl}/indexes/kill-bulk`, service.apiKey);
    const after = await waitImport(service, describe.host, killId, (s) => s.status !== "Pending" && s.status !== "InProgress");
    const resumeSeconds = (performance.now() - restartAt) / 1000;
    const storedAfter = await count(service, describe.host);
    process.stdout.write(
      `${ratioLine(`bulk import Parquet ${COUNT}×${DIMENSION} (${COUNT / PER_FILE} files, written in ${writeSeconds.toFixed(1)} s)`, ours, reference, "records/s", "none set; reference = official client upsert loop")}; ` +
        `ours ${(COUNT / ours).toFixed(1)} s, reference ${(COUNT / reference).toFixed(1)} s${referenceNote}; ` +
        `kill -9 at ${before.recordsImported} reported imported (${before.status}) → after restart ${after.status}, recordsImported ${after.recordsImported}, ` +
        `stored ${storedAfter} (expected ${COUNT}), restart to end ${resumeSeconds.toFixed(1)} s\n`,
    );
    if (after.status !== "Completed" || after.recordsImported !== COUNT || storedAfter !== COUNT) throw new Error("the import did not survive the kill exactly");
    return { ours, reference };
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (!keep) await rm(root, { recursive: true, force: true });
  }
}
