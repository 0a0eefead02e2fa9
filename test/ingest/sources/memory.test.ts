import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openJsonl, openParquet } from "../../../src/ingest/sources/index.js";
import { tempDir } from "./fixtures.js";

const N = 50_000;
const DIM = 256;
const MB = 1024 * 1024;

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/**
 * Reads every record in a child process whose V8 old space is capped at 48 MB — less than the decoded file would
 * take — and reports how many records it read and the peak RSS growth it saw while reading.
 */
async function drainInChild(format: "jsonl" | "parquet", path: string): Promise<{ count: number; lastId: string; peakGrowth: number }> {
  const code = `import { openSource } from "./src/ingest/sources/index.ts";
    const src = await openSource(${JSON.stringify(path)}, ${JSON.stringify(format)});
    const base = process.memoryUsage().rss; let peak = base, count = 0, lastId = "";
    for await (const item of src.records()) {
      if (!item.record) throw new Error("position " + item.position + ": " + item.error);
      count++; lastId = item.record.id;
      if (count % 500 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    await src.close();
    process.stdout.write(JSON.stringify({ count, lastId, peakGrowth: peak - base }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--max-old-space-size=48", "--import", "tsx", "--input-type=module", "-e", code], { cwd: process.cwd() });
  const r = JSON.parse(stdout) as { count: number; lastId: string; peakGrowth: number };
  process.stderr.write(`${format}: ${r.count} records, peak RSS growth ${(r.peakGrowth / MB).toFixed(1)} MB\n`);
  return r;
}

// Fixtures are written by a child process, so that writing them does not inflate this process's RSS beforehand.
const VECTOR = `function vector(i, dim) { const v = []; let x = i + 1; for (let d = 0; d < dim; d++) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; v.push(Math.fround(x / 4294967296 - 0.5)); } return v; }`;
async function writeInChild(code: string): Promise<void> {
  await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: process.cwd() });
}

describe("bounded memory", () => {
  it(`streams a ${N}-record JSONL file much larger than the memory it uses`, async () => {
    const p = join(dir, "big.jsonl");
    await writeInChild(`import { createWriteStream } from "node:fs"; import { once } from "node:events"; ${VECTOR}
      const out = createWriteStream(${JSON.stringify(p)});
      for (let i = 0; i < ${N}; i++) {
        const line = JSON.stringify({ id: "id-" + i, values: vector(i, ${DIM}), metadata: { i } }) + "\\n";
        if (!out.write(line)) await once(out, "drain");
      }
      out.end(); await once(out, "finish");`);
    const size = (await stat(p)).size;
    expect(size).toBeGreaterThan(100 * MB);
    const src = await openJsonl(p);
    expect(await src.count()).toBe(N);
    await src.close();
    const r = await drainInChild("jsonl", p);
    expect(r).toMatchObject({ count: N, lastId: `id-${N - 1}` });
    expect(r.peakGrowth).toBeLessThan(96 * MB);
  });

  it(`streams a ${N}-row Parquet file row group by row group`, async () => {
    const p = join(dir, "big.parquet");
    await writeInChild(`import { writeParquetStreaming } from "./test/ingest/sources/fixtures.ts"; ${VECTOR}
      writeParquetStreaming(${JSON.stringify(p)}, ${N}, (i) => ({ id: "id-" + i, values: vector(i, ${DIM}), metadata: JSON.stringify({ i }) }));`);
    const size = (await stat(p)).size;
    expect(size).toBeGreaterThan(40 * MB);
    const src = await openParquet(p);
    expect(await src.count()).toBe(N);
    await src.close();
    const r = await drainInChild("parquet", p);
    expect(r).toMatchObject({ count: N, lastId: `id-${N - 1}` });
    expect(r.peakGrowth).toBeLessThan(96 * MB);
  });
});
