// One namespace copied from a source index to a target index through the one write path (runUpsert: N in flight,
// batches within the service's limits, retries, host re-resolution, exact landed / not-landed accounting). Records
// stream from the source a chunk at a time (source-chunks.ts); the mark (the listing position and the counts) moves
// past a chunk once every record of it landed, and is saved, so a copy that stops goes on from the last such chunk.
// When the target may already hold some records (a resumed copy, or a namespace that is not empty), each chunk is
// first fetched from the target and the records found identical are not written again: the account stays exact
// (copied + already there + passed over = the records listed).
import type { FetchedRecord } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import type { UpsertRecord } from "../check.js";
import { planTextBatches, type TextRecord } from "../text-records.js";
import { PlannedBodies, runUpsert, type BatchReport } from "../upsert.js";
import { encodeRecord } from "../batches.js";
import { planJsonBatches, type JsonRecord } from "./json-batches.js";
import type { NamespaceMark } from "./checkpoint.js";
import { sameFields, sameVectorRecord } from "./same-record.js";
import { sourceChunks } from "./source-chunks.js";
import { namespaceName } from "../../common/namespace-name.js";

/** How records are written: as they are, or as text records the target's model embeds. */
export type CopyMode = { kind: "vectors" } | { kind: "text"; sourceField: string; targetField: string };

export interface NamespaceCopyArgs {
  source: { service: Service; host: string };
  target: { service: Service; index: string; host: string };
  /** The namespace's name on both sides ("" is the default namespace). */
  namespace: string;
  mode: CopyMode;
  /** Where an earlier call stopped (its counts are carried on). */
  mark: NamespaceMark;
  /** Fetch each chunk from the target first and leave out the records it already holds. */
  compare: boolean;
  concurrency: number;
  signal?: AbortSignal;
  stopSending?: AbortSignal;
  /** Records dealt with by this call so far (written, found there, or passed over). */
  onProgress?: (handled: number) => void;
  /** The mark moved (save it). */
  onMark: (mark: NamespaceMark) => void;
  idsPerChunk?: number;
}

export interface NamespaceCopyOutcome {
  namespace: string;
  /** Written by this call. */
  copied: number;
  /** Found identical on the target by this call. */
  alreadyThere: number;
  /** Passed over by this call for good, with the reasons of the first few. */
  skipped: { id: string; why: string }[];
  skippedCount: number;
  /** Listed, then gone before they could be fetched (deleted from the source meanwhile). */
  vanished: number;
  /** Written but not landed, by reason (failed, cancelled in flight, or not sent after a failure). */
  failures: { ids: string[]; message: string }[];
  /** Every record of the namespace is on the target (or passed over): the mark says done. */
  complete: boolean;
  aborted: boolean;
  stopped: boolean;
  /** The listing stopped on an error (the source could not be read). */
  readError?: string;
  mark: NamespaceMark;
}

const MAX_SKIPPED_KEPT = 20;

interface ChunkEnd {
  /** Position (among the records sent) after this chunk's last one. */
  end: number;
  next: string | undefined;
  sent: number;
  alreadyThere: number;
  skipped: { id: string; why: string }[];
}

export async function copyNamespace(args: NamespaceCopyArgs): Promise<NamespaceCopyOutcome> {
  const { source, target, namespace, mode, signal } = args;
  const mark: NamespaceMark = { ...args.mark, skippedWhy: [...args.mark.skippedWhy] };
  const ends: ChunkEnd[] = [];
  const skipped: { id: string; why: string }[] = [];
  let skippedCount = 0;
  let alreadyThere = 0;
  let vanished = 0;
  let sentSoFar = 0;
  let listedAll = false;
  let handledOutside = 0; // found there, passed over or vanished: dealt with without a write
  let landedUpTo = 0; // every record sent before this position landed
  let landedTotal = 0;
  const pending = new Map<number, number>(); // landed ranges past landedUpTo: start → end

  const advance = () => {
    let moved = false;
    while (ends.length > 0 && ends[0].end <= landedUpTo) {
      const chunk = ends.shift()!;
      mark.copied += chunk.sent;
      mark.alreadyThere += chunk.alreadyThere;
      mark.skipped += chunk.skipped.length;
      for (const s of chunk.skipped) if (mark.skippedWhy.length < MAX_SKIPPED_KEPT) mark.skippedWhy.push(s);
      if (chunk.next === undefined) delete mark.token;
      else mark.token = chunk.next;
      moved = true;
    }
    if (moved) {
      if (listedAll && ends.length === 0 && landedUpTo === sentSoFar) {
        mark.done = true;
        delete mark.token;
      }
      args.onMark({ ...mark, skippedWhy: [...mark.skippedWhy] });
    }
  };

  const onBatch = (report: BatchReport) => {
    if (!report.ok) return;
    landedTotal += report.count;
    pending.set(report.firstPosition, report.firstPosition + report.count);
    while (pending.has(landedUpTo)) {
      const end = pending.get(landedUpTo)!;
      pending.delete(landedUpTo);
      landedUpTo = end;
    }
    advance();
    args.onProgress?.(landedTotal + handledOutside);
  };

  async function* records(): AsyncGenerator<JsonRecord | TextRecord> {
    for await (const chunk of sourceChunks(source.service, source.host, namespace, { startToken: mark.token, idsPerChunk: args.idsPerChunk, signal })) {
      const onTarget = args.compare && chunk.ids.length > 0 ? await target.service.data.fetchRecords(target.host, chunk.ids, namespace, signal) : undefined;
      const end: ChunkEnd = { end: 0, next: chunk.next, sent: 0, alreadyThere: 0, skipped: [] };
      const out: (JsonRecord | TextRecord)[] = [];
      for (const id of chunk.ids) {
        const raw = chunk.records.get(id);
        if (raw === undefined) {
          vanished++;
          continue;
        }
        // Parsed only when it must be: to compare, to take its text, or to drop a field an upsert does not take.
        const parsed = onTarget !== undefined || mode.kind === "text" || !raw.plain ? ({ ...(JSON.parse(raw.json) as FetchedRecord), id }) : undefined;
        const written = parsed === undefined ? { id, json: raw.json } : asWritten(parsed, mode);
        if (typeof written === "string") {
          end.skipped.push({ id, why: written });
          continue;
        }
        const there = onTarget?.get(id);
        if (there !== undefined && parsed !== undefined && isThere(parsed, written, mode, JSON.parse(there.json) as FetchedRecord)) {
          end.alreadyThere++;
          continue;
        }
        out.push(written);
      }
      end.sent = out.length;
      sentSoFar += out.length;
      end.end = sentSoFar;
      if (chunk.next === undefined) listedAll = true;
      alreadyThere += end.alreadyThere;
      skippedCount += end.skipped.length;
      for (const s of end.skipped) if (skipped.length < MAX_SKIPPED_KEPT) skipped.push(s);
      handledOutside = alreadyThere + skippedCount + vanished;
      ends.push(end);
      advance(); // a chunk with nothing to write is passed at once (when all before it landed)
      args.onProgress?.(landedTotal + handledOutside);
      yield* out;
    }
    listedAll = true;
    advance();
  }

  const stream = records();
  const outcome = await runUpsert({
    service: target.service,
    index: target.index,
    namespace,
    records: new PlannedBodies(mode.kind === "vectors" ? planJsonBatches(stream as AsyncIterable<JsonRecord>, namespace) : planTextBatches(stream as AsyncIterable<TextRecord>)),
    concurrency: args.concurrency,
    signal,
    stopSending: args.stopSending,
    onBatch,
    ...(mode.kind === "text" && {
      send: async (host: string, batch: { body: Buffer; ids: string[] }, s: AbortSignal | undefined) => {
        await target.service.data.upsertRecords(host, namespaceName(namespace), batch.body, s);
        return batch.ids.length;
      },
    }),
  });
  if (listedAll && ends.length === 0 && landedUpTo === sentSoFar && outcome.failures.length === 0 && !outcome.inputError && !mark.done) {
    mark.done = true; // nothing was sent at all (all there, or an empty namespace)
    delete mark.token;
    args.onMark({ ...mark, skippedWhy: [...mark.skippedWhy] });
  }
  return {
    namespace,
    copied: landedTotal,
    alreadyThere,
    skipped,
    skippedCount,
    vanished,
    failures: outcome.failures,
    complete: mark.done,
    aborted: outcome.aborted,
    stopped: outcome.stopped,
    ...(outcome.inputError !== undefined && { readError: outcome.inputError }),
    mark,
  };
}

/** The record as the target takes it (JSON of the fields an upsert takes, or a text record), or why it cannot be written. */
function asWritten(record: FetchedRecord, mode: CopyMode): JsonRecord | TextRecord | string {
  const metadata = (record.metadata ?? undefined) as Record<string, unknown> | undefined;
  if (mode.kind === "vectors") {
    const upsert: UpsertRecord = {
      id: record.id,
      ...(record.values !== undefined && { values: record.values }),
      ...(record.sparseValues !== undefined && { sparseValues: record.sparseValues }),
      ...(metadata !== undefined && Object.keys(metadata).length > 0 && { metadata }),
    };
    return { id: record.id, json: encodeRecord(upsert) };
  }
  const text = metadata?.[mode.sourceField];
  if (typeof text !== "string" || text.trim() === "") return `has no text in its field "${mode.sourceField}" for the target's model to embed`;
  const { [mode.sourceField]: _moved, ...others } = metadata ?? {};
  return { _id: record.id, ...others, [mode.targetField]: text };
}

/** Whether the target holds the record as it would be written. */
function isThere(source: FetchedRecord, written: JsonRecord | TextRecord, mode: CopyMode, found: FetchedRecord): boolean {
  return mode.kind === "vectors" ? sameVectorRecord(source, found) : sameFields(fieldsOf(written as TextRecord), found);
}

/** A text record's fields: what the target stores as its metadata. */
function fieldsOf(record: TextRecord): Record<string, unknown> {
  const { _id: _id, ...fields } = record;
  return fields;
}

