// Measures how fast the record sources read: records/s for JSONL (hand-written splitter and, for comparison,
// node:readline) and Parquet, at a given size and dimension. Run by hand:
//   node --import tsx bench/read-speed.ts [--records 100000] [--dim 768] [--dir DIR]
// Files are generated in DIR (default: a temp dir, removed afterwards) unless they already exist there.
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { once } from "node:events";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { float32ToString } from "../src/common/float32.js";
import { openSource } from "../src/ingest/sources/index.js";
import { recordFromObject } from "../src/ingest/sources/record-shape.js";
import { writeParquetStreaming } from "../test/ingest/sources/fixtures.js";

const { values: args } = parseArgs({ options: { records: { type: "string" }, dim: { type: "string" }, dir: { type: "string" } } });
const N = Number(args.records ?? 100_000);
const DIM = Number(args.dim ?? 768);
const dir = args.dir ?? (await mkdtemp(join(tmpdir(), "vecdb-read-speed-")));
const out = (line: string) => process.stderr.write(`${line}\n`);

function vectorOf(i: number): number[] {
  const v = new Array<number>(DIM);
  let x = i + 1;
  for (let d = 0; d < DIM; d++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    v[d] = Math.fround(x / 4294967296 - 0.5);
  }
  return v;
}

const jsonl = join(dir, `speed-${N}x${DIM}.jsonl`);
const parquet = join(dir, `speed-${N}x${DIM}.parquet`);
if (!existsSync(jsonl)) {
  const w = createWriteStream(jsonl);
  for (let i = 0; i < N; i++) {
    const line = `{"id":"vec-${i}","values":[${vectorOf(i).map(float32ToString).join(",")}],"metadata":{"i":${i}}}\n`;
    if (!w.write(line)) await once(w, "drain");
  }
  w.end();
  await once(w, "finish");
}
if (!existsSync(parquet)) writeParquetStreaming(parquet, N, (i) => ({ id: `vec-${i}`, values: vectorOf(i), metadata: JSON.stringify({ i }) }));

async function measure(label: string, path: string, read: () => Promise<number>): Promise<void> {
  const t0 = performance.now();
  const n = await read();
  const s = (performance.now() - t0) / 1000;
  const mb = (await stat(path)).size / 1e6;
  out(`${label.padEnd(26)} ${n} records in ${s.toFixed(2)} s = ${Math.round(n / s)} records/s (${(mb / s).toFixed(0)} MB/s of file)`);
}

async function drain(path: string): Promise<number> {
  const src = await openSource(path);
  let n = 0;
  for await (const item of src.records()) if (item.record) n++;
  await src.close();
  return n;
}

out(`dimension ${DIM}, node ${process.version}, flags: ${process.execArgv.filter((a) => a.startsWith("--max")).join(" ") || "(none)"}`);
await measure("jsonl (openJsonl)", jsonl, () => drain(jsonl));
await measure("jsonl (node:readline)", jsonl, async () => {
  let n = 0;
  const rl = createInterface({ input: createReadStream(jsonl, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  for await (const line of rl) if (line.trim() !== "" && recordFromObject(JSON.parse(line)).record) n++;
  return n;
});
await measure("parquet (openParquet)", parquet, () => drain(parquet));
out(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
if (args.dir === undefined) await rm(dir, { recursive: true, force: true });
