// Loaded into a process by the soak benchmarks (NODE_OPTIONS=--import): on SIGUSR2 it collects garbage twice and
// writes the heap in use to stderr as "heap-probe: <bytes>". With BENCH_HEAP_SNAPSHOTS=<dir> it also writes a heap
// snapshot there after the collections ("heap-probe: <bytes> <file>"), for bench/heap-diff.mjs. Nothing else in the
// process changes.
import path from "node:path";
import { setFlagsFromString, writeHeapSnapshot } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
const snapshots = process.env.BENCH_HEAP_SNAPSHOTS;
let taken = 0;
process.on("SIGUSR2", () => {
  gc();
  gc();
  const used = process.memoryUsage().heapUsed;
  const file = snapshots ? writeHeapSnapshot(path.join(snapshots, `${process.pid}-${++taken}.heapsnapshot`)) : undefined;
  process.stderr.write(`heap-probe: ${used}${file ? ` ${file}` : ""}\n`);
});
