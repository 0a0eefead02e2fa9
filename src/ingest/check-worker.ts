// Entry of a worker thread of the parallel JSONL check (parallel-check.ts): checks the byte range in workerData and
// posts the result (the hash table transferred, not copied) or the error's message.
import { parentPort, workerData } from "node:worker_threads";
import { checkRange, type RangeTask } from "./range-check.js";

try {
  const result = await checkRange(workerData as RangeTask);
  parentPort!.postMessage({ result }, result.hashes ? [result.hashes.buffer as ArrayBuffer] : []);
} catch (err) {
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
