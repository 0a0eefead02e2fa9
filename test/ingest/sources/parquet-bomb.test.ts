// Parquet decompression bombs: pages that inflate far beyond their compressed bytes are refused with the server's
// memory under a bound, whether the page header declares the huge size honestly or lies about it.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./fixtures.js";

const MB = 1024 * 1024;
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

// 64 MiB of zeros gzip to ~64 KB; gzip members concatenate, so 8 of them inflate to 512 MiB from ~0.5 MB.
const bombMember = gzipSync(Buffer.alloc(64 * MB));
const bomb = (members: number) => Buffer.concat(Array.from({ length: members }, () => bombMember));

/** Reads every row in a child process; reports the error (if any) and the child's peak RSS (VmHWM) in MB. */
async function readInChild(path: string): Promise<{ error?: string; peakMb: number }> {
  const code = `import { openParquet } from "./src/ingest/sources/index.ts";
    import { readFileSync } from "node:fs";
    let error;
    try { const src = await openParquet(${JSON.stringify(path)}); for await (const _ of src.records()) {} await src.close(); }
    catch (e) { error = e.message; }
    const peakMb = Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
    process.stdout.write(JSON.stringify({ error, peakMb }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: process.cwd(), maxBuffer: 1 << 20 });
  return JSON.parse(stdout);
}

describe("a Parquet decompression bomb", () => {
  it("a page whose header lies (says 5 bytes, inflates to 512 MiB) is refused after at most its declared size", async () => {
    const p = join(dir, "liar.parquet");
    parquetWriteFile({
      filename: p,
      codec: "GZIP",
      compressors: { GZIP: () => new Uint8Array(bomb(8)) }, // the header keeps the true (small) size of the page
      columnData: [{ name: "id", data: ["a"], type: "STRING" }, { name: "values", data: [[1]] }],
    });
    const r = await readInChild(p);
    expect(r.error).toMatch(/a page decompresses to more than the \d+ bytes its header declares: refused as a decompression bomb/);
    expect(r.peakMb).toBeLessThan(200);
  }, 60_000);

  it("a page that declares its huge size honestly (80 MiB of one string) is refused before inflating", async () => {
    const p = join(dir, "honest.parquet");
    // written by a child: the writer holds the 80 MiB page in memory
    await promisify(execFile)(process.execPath, ["--input-type=module", "-e", `import { parquetWriteFile } from "hyparquet-writer"; import { gzipSync } from "node:zlib";
      parquetWriteFile({ filename: ${JSON.stringify(p)}, codec: "GZIP", compressors: { GZIP: (i) => new Uint8Array(gzipSync(i)) },
        columnData: [{ name: "id", data: ["a".repeat(80 * 1024 * 1024)], type: "STRING" }, { name: "values", data: [[1]] }] });`], { cwd: process.cwd() });
    const r = await readInChild(p);
    expect(r.error).toMatch(/a page declares 838860\d\d bytes once decompressed, more than the 67108864-byte limit for one page/);
    expect(r.peakMb).toBeLessThan(200);
  }, 60_000);
});
