// The first pass of an import: every record of a file checked against the index (the same checker as
// upsert_vectors) plus duplicate ids across the whole file, streaming, nothing written. Reports the first few bad
// records by line/row number and id, and how many there are.
//
// Duplicates in bounded memory: the scan keeps 64-bit id hashes (id-hashes.ts). Only if some hash repeats — a real
// duplicate, or very rarely two ids sharing a hash — the file is scanned once more, this time remembering the exact
// id strings of just those hashes, so every duplicate reported is a real one and names the line it repeats. (Past
// MAX_SUSPECTS repeated hashes — a file appended to itself, say — the rest are reported from the hash alone as
// "possible" repeats, which keeps the second scan's memory bounded too.)
import { availableParallelism } from "node:os";
import type { IndexModel } from "../api/records.js";
import { createRecordChecker } from "./check.js";
import { hashId, hashKey, IdHashSet } from "./id-hashes.js";
import { checkJsonlInParallel, type ParallelOptions } from "./parallel-check.js";
import { itemProblems } from "./range-check.js";
import type { BadRecord, FileCheck } from "./file-check-result.js";
import type { RecordSource } from "./sources/index.js";

export type { FileCheck } from "./file-check-result.js";

const MAX_SUSPECTS = 100_000;

export interface FileCheckOptions {
  startAt?: number;
  signal?: AbortSignal;
  maxShown?: number;
  /** "line" or "row": how positions are named in messages. */
  unit: string;
  /** The id hash; default hashId. Tests pass a colliding one to show that collisions never surface as duplicates. */
  hash?: (id: string) => [number, number];
  /**
   * A JSONL file of at least `minBytes` is checked by `workers` threads at once (parallel-check.ts; same result).
   * Default: one worker per core (at most MAX_WORKERS), from 4 MiB. Parquet, a custom `hash` and smaller files are
   * checked in this thread.
   */
  parallel?: Partial<ParallelOptions>;
}

const PARALLEL_MIN_BYTES = 4 * 1024 * 1024;
// Each worker adds ~15 MB to the server's resident memory while it runs (measured: peak RSS checking 436 MB of
// JSONL 141 MB in one thread, 160 MB with 2 workers, 201 MB with 4, 290 MB with 8): 4 keeps the 256 MB limit.
const MAX_WORKERS = 4;

export async function checkFile(source: RecordSource, index: IndexModel, opts: FileCheckOptions): Promise<FileCheck> {
  if (source.format === "jsonl" && source.maxLineBytes !== undefined && opts.hash === undefined) {
    const parallel = { workers: Math.min(availableParallelism(), MAX_WORKERS), minBytes: PARALLEL_MIN_BYTES, ...opts.parallel };
    const checked = await checkJsonlInParallel(source.file, index, {
      startAt: opts.startAt ?? 1, maxShown: opts.maxShown ?? 20, maxLineBytes: source.maxLineBytes, unit: opts.unit,
      maxSuspects: MAX_SUSPECTS, signal: opts.signal, parallel,
    });
    if (checked) return checked;
  }
  const first = await scan(source, index, opts, undefined);
  if (first.hits.size === 0) return { ...first.result, rescanned: false };
  const exact = await scan(source, index, opts, first.hits, first.overflow);
  return { ...exact.result, rescanned: true };
}

async function scan(
  source: RecordSource,
  index: IndexModel,
  opts: FileCheckOptions,
  suspects: Set<number> | undefined,
  overflow = false,
): Promise<{ result: Omit<FileCheck, "rescanned">; hits: Set<number>; overflow: boolean }> {
  const maxShown = opts.maxShown ?? 20;
  const checker = createRecordChecker(index, { duplicates: false });
  const hashes = !suspects || overflow ? new IdHashSet() : undefined;
  const firstSeen = new Map<string, number>(); // exact ids, only of suspected hashes
  const hits = new Set<number>();
  let overflowed = false;
  const shown: BadRecord[] = [];
  let records = 0;
  let bad = 0;

  const startAt = opts.startAt ?? 1;
  const items = source.recordsForCheck ? source.recordsForCheck(startAt) : source.records(startAt);
  for await (const item of items) {
    opts.signal?.throwIfAborted();
    const { id, problems } = itemProblems(item, checker, records);
    records++;

    if (typeof id === "string" && id !== "") {
      const [hi, lo] = (opts.hash ?? hashId)(id);
      if (!suspects) {
        if (!hashes!.add(hi, lo)) {
          if (hits.size < MAX_SUSPECTS) hits.add(hashKey(hi, lo));
          else overflowed = true;
        }
      } else if (suspects.has(hashKey(hi, lo))) {
        const earlier = firstSeen.get(id);
        if (earlier === undefined) firstSeen.set(id, item.position);
        else problems.push(`id repeats the id of ${opts.unit} ${earlier}; each id may appear once in the file`);
      } else if (hashes && !hashes.add(hi, lo)) {
        problems.push(`id very probably repeats an earlier id (same 64-bit hash; past ${MAX_SUSPECTS} repeated ids they are not confirmed one by one)`);
      }
    }

    if (problems.length > 0) {
      bad++;
      if (shown.length < maxShown) shown.push({ position: item.position, ...(id !== undefined && { id }), problem: problems.join("; ") });
    }
  }
  return { result: { records, bad, shown }, hits, overflow: overflowed };
}
