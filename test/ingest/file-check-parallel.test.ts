// The parallel JSONL check (src/ingest/parallel-check.ts) reports exactly what the one-thread check reports: the same
// record and bad counts, the same first bad records with the same line numbers, ids and messages, duplicates found
// across the workers' byte ranges — for several worker counts and start lines. Then the same through the shipped
// bundle (its worker is dist/bundle/check-worker.js) with import_vectors' dry run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexModel } from "../../src/api/records.js";
import { checkFile, type FileCheck } from "../../src/ingest/file-check.js";
import { checkJsonlInParallel } from "../../src/ingest/parallel-check.js";
import { openJsonl } from "../../src/ingest/sources/index.js";
import { createIndex, serverless } from "../e2e/support.js";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { closedAfterEach, descriptorOpener } from "../helpers/open-files.js";
import { refusalOf } from "../helpers/refusal.js";

const fdOf = descriptorOpener();
const closing = closedAfterEach();

const DIM = 4;
const model = { name: "par", dimension: DIM, metric: "cosine", host: "h", status: { ready: true, state: "Ready" } } as unknown as IndexModel;

// Under vitest the worker is the .ts source: a tiny ESM entry registers tsx in the worker thread, then loads it.
const tsxApi = import.meta.resolve("tsx/esm/api");
const workerTs = pathToFileURL(join(import.meta.dirname, "../../src/ingest/check-worker.ts")).href;
const workerUrl = new URL(`data:text/javascript,${encodeURIComponent(`import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(workerTs)});`)}`);

let dir: string;
let file: string;
let lineCount = 0;

/** ~6 MB: valid records padded with metadata, and bad lines of every kind spread over the whole file. */
function writeFile(): void {
  const lines: string[] = [];
  const pad = "x".repeat(60);
  const n = 48_000;
  for (let i = 0; i < n; i++) {
    const rec = { id: `r${i}`, values: [i % 7, 0.5, -1.25, i / 3], metadata: { pad, i } };
    let line = JSON.stringify(rec);
    if (i % 4999 === 17) line = `{"id": "broken${i}", "values": [1, 2`; // not JSON
    else if (i % 6007 === 5) line = JSON.stringify({ ...rec, values: [1, 2] }); // wrong dimension
    else if (i % 7919 === 3) line = JSON.stringify({ ...rec, vector: [1] }); // unknown field
    else if (i === 40_000 || i === 40_001 || i === 47_999) line = JSON.stringify({ ...rec, id: "r10" }); // repeats across ranges
    else if (i === 30_500) line = JSON.stringify({ ...rec, id: "r30010" }); // repeats inside a range
    else if (i === 45_000) line = JSON.stringify({ ...rec, id: "r5", values: [1] }); // a repeat that is bad besides
    else if (i % 9001 === 9) line = ""; // blank: keeps its number
    else if (i % 5003 === 11) line = `${line}\r`; // CRLF
    else if (i === 33_333) line = JSON.stringify({ ...rec, metadata: { big: "y".repeat(3000) } }); // longer than maxLineBytes below
    lines.push(line);
  }
  lineCount = lines.length;
  writeFileSync(file, "\uFEFF" + lines.join("\n")); // a BOM, and no newline after the last line
}

async function check(how: "one" | number, o: { startAt?: number; maxShown?: number } = {}): Promise<FileCheck> {
  const source = closing(await openJsonl(file, { maxLineBytes: 2000 }));
  if (how === "one") return checkFile(source, model, { unit: "line", ...o, parallel: { workers: 1 } });
  const got = await checkJsonlInParallel(fdOf(file), model, {
    startAt: o.startAt ?? 1, maxShown: o.maxShown ?? 20, maxLineBytes: 2000, unit: "line", maxSuspects: 100_000,
    parallel: { workers: how, minBytes: 0, workerUrl },
  });
  expect(got, "the parallel path ran").toBeDefined();
  return got!;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vecdb-parcheck-"));
  file = join(dir, "records.jsonl");
  writeFile();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the parallel check of a JSONL file", () => {
  it("reports exactly what one thread reports, duplicates across ranges included", async () => {
    const one = await check("one", { maxShown: 1000 });
    // the file really has what the test is about
    expect(one.rescanned).toBe(true);
    expect(one.bad).toBeGreaterThan(20);
    const problems = one.shown.map((b) => `${b.position} ${b.problem}`);
    expect(problems).toContain(`40001 id repeats the id of line 11; each id may appear once in the file`);
    expect(problems).toContain(`48000 id repeats the id of line 11; each id may appear once in the file`);
    expect(problems).toContain(`30501 id repeats the id of line 30011; each id may appear once in the file`);
    expect(problems.some((p) => p.startsWith("45001 values ") && p.endsWith("; id repeats the id of line 6; each id may appear once in the file"))).toBe(true);
    expect(problems.some((p) => p.startsWith("33334 line is "))).toBe(true);
    expect(one.records).toBe(lineCount - 6); // the blank lines (i % 9001 === 9) are not records

    for (const workers of [2, 3]) expect(await check(workers, { maxShown: 1000 }), `${workers} workers`).toEqual(one);
    expect(await check(2), "the first 20").toEqual(await check("one"));
  });

  it("counts lines from startAt the same way", async () => {
    for (const startAt of [2, 40_001]) {
      expect(await check(2, { startAt, maxShown: 1000 }), `startAt ${startAt}`).toEqual(await check("one", { startAt, maxShown: 1000 }));
    }
  });

  it("a file without repeated ids needs no second pass", async () => {
    const clean = join(dir, "clean.jsonl");
    writeFileSync(clean, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `c${i}`, values: [1, 2, 3, i] })).join("\n") + "\n");
    const one = await checkFile(closing(await openJsonl(clean)), model, { unit: "line", parallel: { workers: 1 } });
    const par = await checkJsonlInParallel(fdOf(clean), model, {
      startAt: 1, maxShown: 20, maxLineBytes: 16 * 1024 * 1024, unit: "line", maxSuspects: 100_000, parallel: { workers: 2, minBytes: 0, workerUrl },
    });
    expect(par).toEqual(one);
    expect(par).toEqual({ records: 20_000, bad: 0, shown: [], rescanned: false });
  });

  it("stops its workers when the call is cancelled", async () => {
    const ac = new AbortController();
    const running = checkJsonlInParallel(fdOf(file), model, {
      startAt: 1, maxShown: 20, maxLineBytes: 2000, unit: "line", maxSuspects: 100_000, signal: ac.signal, parallel: { workers: 2, minBytes: 0, workerUrl },
    });
    setTimeout(() => ac.abort(new Error("cancelled by the test")), 20);
    await expect(running).rejects.toThrow("cancelled by the test");
  });
});

describe("the bundled server", () => {
  let svc: RunningService;
  let mcp: McpSession;
  beforeAll(async () => {
    svc = await startServiceProcess();
    await createIndex(svc, { name: "par", dimension: DIM, spec: serverless });
    mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", dir] });
  });
  afterAll(async () => {
    await mcp?.close();
    await svc?.stop();
    if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
  });

  it("checks a multi-MB file in its worker threads with the same report", async () => {
    const source = closing(await openJsonl(file));
    const one = await checkFile(source, model, { unit: "line", parallel: { workers: 1 } });
    const call = await mcp.call("import_vectors", { index: "par", path: file, dryRun: true });
    expect(call.isError).toBe(true);
    expect(call.structured).toMatchObject({ records: one.records, badRecords: one.bad, upserted: 0 });
    expect(call.structured!.problems).toEqual(one.shown);
    const refusal = refusalOf(call.text.split("\n\n")[0]); // the result's table follows
    expect(refusal.problem.startsWith(`${one.bad} of ${one.records} records in ${file} are not valid`)).toBe(true);
    expect(refusal.untouched).toBe("written");
  });
});
