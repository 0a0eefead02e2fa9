// One worker's share of the parallel JSONL check (parallel-check.ts): the records of a byte range of the file,
// checked exactly as file-check.ts checks them in one thread. Positions are line numbers counted from the range's
// first line; the main thread shifts them once it knows how many lines the ranges before hold.
import type { IndexModel } from "../api/records.js";
import { createRecordChecker } from "./check.js";
import type { BadRecord } from "./file-check-result.js";
import { hashId, hashKey, IdHashSet } from "./id-hashes.js";
import { jsonlItem } from "./sources/jsonl.js";
import { readLines } from "./sources/lines.js";
import type { SourceItem } from "./sources/types.js";

export interface RangeTask {
  /** The file's descriptor, opened and proved by the main thread (workers share it; they never open the file). */
  fd: number;
  start: number; // byte offset of the range's first line
  end: number; // byte offset just past its last newline (or the file's end)
  maxLineBytes: number;
  index: IndexModel;
  maxShown: number;
  /** First pass: past this many repeated hashes inside the range the rest are not listed (the caller gives up). */
  maxHits?: number;
  /** Second pass: keys (hashKey) of the id hashes that repeat somewhere in the file; those records come back as `pending`. */
  suspects?: number[];
}

interface PendingRecord {
  position: number;
  id: string;
  problems: string[];
}

export interface RangeResult {
  lines: number; // lines in the range (blank ones included)
  records: number;
  bad: number; // bad records, not counting `pending` ones
  shown: BadRecord[]; // the first maxShown of them
  /** First pass: every id hash of the range (pairs [hi, lo], 0,0 = empty slot) and the keys that repeat inside it. */
  hashes?: Uint32Array;
  hits?: number[];
  /** First pass: past this many repeated hashes inside the range the rest are not listed (the caller gives up). */
  maxHits?: number;
  /** Second pass: the records whose id is a suspect, with their other problems, for the main thread to settle. */
  pending?: PendingRecord[];
}

/** The problems of one item apart from duplicates, and its id (as file-check.ts reads it). */
export function itemProblems(item: SourceItem, checker: ReturnType<typeof createRecordChecker>, position: number): { id: string | undefined; problems: string[] } {
  const problems: string[] = [];
  if (item.record === undefined) {
    problems.push(item.error ?? "not a record");
    return { id: item.id, problems };
  }
  for (const p of checker.check(item.record, position)) problems.push(`${p.field} ${p.rule}`);
  return { id: item.record.id, problems };
}

export async function checkRange(task: RangeTask): Promise<RangeResult> {
  const checker = createRecordChecker(task.index, { duplicates: false });
  const suspects = task.suspects ? new Set(task.suspects) : undefined;
  const hashes = suspects ? undefined : new IdHashSet();
  const hits = new Set<number>();
  const pending: PendingRecord[] = [];
  const shown: BadRecord[] = [];
  let lines = 0;
  let records = 0;
  let bad = 0;
  // 256 KiB reads, not readLines' 1 MiB: with 1 MiB buffers freed on two threads at once the process kept ~130 MB
  // more resident (glibc arenas; measured 285 vs 158 MB peak RSS checking 450 MB with 2 workers), at the same speed.
  for await (const line of readLines({ fd: task.fd }, { start: task.start, end: task.end, maxLineBytes: task.maxLineBytes, chunkBytes: 256 * 1024 })) {
    lines = line.number;
    const item = jsonlItem(line, task.maxLineBytes, true);
    if (item === undefined) continue;
    const { id, problems } = itemProblems(item, checker, records);
    records++;
    if (typeof id === "string" && id !== "") {
      const [hi, lo] = hashId(id);
      if (hashes) {
        if (!hashes.add(hi, lo) && hits.size < (task.maxHits ?? Infinity)) hits.add(hashKey(hi, lo));
      } else if (suspects!.has(hashKey(hi, lo))) {
        pending.push({ position: item.position, id, problems });
        continue;
      }
    }
    if (problems.length > 0) {
      bad++;
      if (shown.length < task.maxShown) shown.push({ position: item.position, ...(id !== undefined && { id }), problem: problems.join("; ") });
    }
  }
  return hashes ? { lines, records, bad, shown, hashes: hashes.table, hits: [...hits] } : { lines, records, bad, shown, pending };
}
