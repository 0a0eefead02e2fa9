// The one ingest path: resolve the index's host, plan batches, send `concurrency` at a time, account for every id.
// upsert_vectors passes an array; import_vectors passes a stream (AsyncIterable of records, or for JSONL the bodies
// already planned: PlannedBodies) and gets the same batching, retries, host re-resolution and accounting, with at
// most ~2×concurrency bodies in memory.
import { getMaxListeners, setMaxListeners } from "node:events";
import { IndexNotReadyError, ServiceError } from "../api/errors.js";
import type { Service } from "../api/service.js";
import { planBatches, type PlannedBatch } from "./batches.js";
import { checkRecords, RecordCheckError, type UpsertRecord } from "./check.js";
import { raceSignal } from "../api/abort.js";

interface LandedRange {
  start: number; // 0-based position of the first record, inclusive
  end: number; // exclusive
}

export interface BatchReport {
  firstPosition: number;
  count: number;
  ids: string[];
  ok: boolean;
  upserted: number; // the service's upsertedCount (0 when the batch failed)
  message?: string; // why it failed
}

export interface UpsertOutcome {
  records: number; // records read from the input
  batches: number; // batches sent (landed or failed)
  upserted: number; // sum of the service's upsertedCounts
  failedIds: string[]; // every id read that did not land: failed, cancelled in flight, or never sent — input order
  failures: { ids: string[]; message: string }[];
  seconds: number;
  host: string;
  aborted: boolean; // the caller's signal stopped the run
  stopped: boolean; // stopSending stopped the run (nothing was in flight unanswered)
  landed: LandedRange[]; // positions that landed, merged, ascending
  resumeAt: number; // first position that did not land (= records when all landed): where a resume starts
  inputError?: string; // reading or encoding the input failed at some record: the run stopped there
}

/**
 * Request bodies planned elsewhere, with the call's namespace, by the same BatchPlanner (import_vectors' JSONL lines,
 * transcoded in jsonl-encode.ts): sent as they come, with the same routing, retries and accounting.
 */
export class PlannedBodies {
  constructor(readonly batches: AsyncGenerator<PlannedBatch>) {}
}

export interface UpsertArgs {
  service: Service;
  index: string;
  namespace?: string;
  records: UpsertRecord[] | AsyncIterable<UpsertRecord> | PlannedBodies;
  concurrency: number;
  signal?: AbortSignal;
  /** Stops sending new batches; batches in flight finish, so the account stays exact (what the service holds). */
  stopSending?: AbortSignal;
  onProgress?: (done: number, total: number | undefined) => void;
  /** Called once per batch when it landed or finally failed (import_vectors turns these into line ranges). */
  onBatch?: (report: BatchReport) => void;
  /** The caller already ran checkRecords on this array; skip the second pass. */
  checked?: boolean;
  /** Sends one planned body to the host and returns how many records it wrote (default: POST /vectors/upsert). */
  send?: (host: string, batch: PlannedBatch, signal: AbortSignal | undefined) => Promise<number>;
  /** For PlannedBodies of a known input: its ids in order, so that records never sent are listed as not landed. */
  ids?: string[];
}

/**
 * Sends the records. Throws (before writing anything) IndexNotReadyError, a ServiceError from resolving the index,
 * or a RecordCheckError when an array fails the checks. Once sending started it does not throw: batch failures,
 * cancellation and an input that fails mid-way (inputError) are in the outcome. After a batch finally fails no new
 * batches are started (the service is most likely down or refusing); the records of an array that were not sent are
 * listed in failedIds like the failed ones. For a stream, records after the last sent batch are covered by resumeAt.
 */
export async function runUpsert(args: UpsertArgs): Promise<UpsertOutcome> {
  const started = performance.now();
  const { service, index, signal } = args;
  const concurrency = Math.max(1, Math.floor(args.concurrency));
  // Every worker may wait on the caller's signal at once (for the source, or in a backoff sleep): not a leak, and
  // Node's "possible EventTarget memory leak" warning past 10 listeners would only alarm whoever reads stderr.
  const listeners = 2 * concurrency + 10;
  if (signal && getMaxListeners(signal) < listeners) setMaxListeners(listeners, signal);
  let model = await service.hosts.resolve(index, signal);
  if (!model.status.ready) {
    service.hosts.forget(index);
    throw new IndexNotReadyError(index, model.status.state);
  }
  if (Array.isArray(args.records) && !args.checked) {
    const problems = checkRecords(args.records, model);
    if (problems.length > 0) throw new RecordCheckError(problems);
  }
  let host = model.host;
  const total = Array.isArray(args.records) ? args.records.length : args.ids?.length;

  // Shared state of the workers.
  const batches = args.records instanceof PlannedBodies ? args.records.batches : planBatches(args.records, { namespace: args.namespace });
  const reports: BatchReport[] = [];
  let stop = false;
  let readError: unknown;
  let done = 0;
  let upserted = 0;
  let sent = 0;
  let reresolve: Promise<string> | undefined;

  const stopSending = args.stopSending;
  const next = async (): Promise<PlannedBatch | undefined> => {
    if (stop || signal?.aborted || stopSending?.aborted) return undefined;
    try {
      // A slow source must not hold up a cancel: stop waiting for it when the signal fires.
      const r = await untilAborted(batches.next(), signal);
      // A batch fetched after a failure or a cancel is not sent (its records count as not sent).
      return r.done || stop || signal?.aborted || stopSending?.aborted ? undefined : r.value;
    } catch (err) {
      readError ??= err;
      stop = true;
      return undefined;
    }
  };

  const sendOnce = async (batch: PlannedBatch, to: string): Promise<number> =>
    args.send ? args.send(to, batch, signal) : (await service.data.upsert(to, batch.body, signal)).upsertedCount;

  const send = async (batch: PlannedBatch): Promise<number> => {
    try {
      return await sendOnce(batch, host);
    } catch (err) {
      if (signal?.aborted || !hostGone(err)) throw err;
      // The host moved or vanished: drop it, ask the control plane once per run, and try the new host.
      reresolve ??= (async () => {
        service.hosts.forget(index);
        model = await service.hosts.resolve(index, signal);
        if (!model.status.ready) throw new IndexNotReadyError(index, model.status.state);
        host = model.host;
        return host;
      })();
      let fresh: string;
      try {
        fresh = await reresolve;
      } catch (resolveError) {
        // An answer from the control plane (e.g. 404: the index was deleted) says more than the dead host did.
        if (resolveError instanceof ServiceError && resolveError.status !== undefined) throw resolveError;
        if (resolveError instanceof IndexNotReadyError) throw resolveError;
        throw err;
      }
      return await sendOnce(batch, fresh);
    }
  };

  const worker = async () => {
    for (let batch = await next(); batch; batch = await next()) {
      sent++;
      const report: BatchReport = {
        firstPosition: batch.firstPosition,
        count: batch.ids.length,
        ids: batch.ids,
        ok: false,
        upserted: 0,
      };
      try {
        report.upserted = await send(batch);
        report.ok = true;
        upserted += report.upserted;
      } catch (err) {
        report.message = signal?.aborted ? "cancelled while in flight" : messageOf(err);
        if (!signal?.aborted) stop = true;
      }
      batch.body = EMPTY; // let the body go as soon as it is answered
      reports.push(report);
      done += report.count;
      args.onBatch?.(report);
      args.onProgress?.(done, total);
    }
  };

  await Promise.all(Array.from({ length: concurrency }, worker));
  // Closes the source (e.g. a file stream). Not awaited after a cancel: a read may still be pending in it.
  const closing = batches.return(undefined).catch(() => undefined);
  if (!signal?.aborted) await closing;

  return account({
    inputError: readError === undefined ? undefined : messageOf(readError),
    args,
    reports,
    sentBatches: sent,
    upserted,
    host,
    seconds: (performance.now() - started) / 1000,
    aborted: signal?.aborted ?? false,
    stopped: !(signal?.aborted ?? false) && (stopSending?.aborted ?? false),
  });
}

const EMPTY = Buffer.alloc(0);
const ABORTED = { done: true, value: undefined } as const;

function untilAborted<T>(promise: Promise<IteratorResult<T>>, signal: AbortSignal | undefined): Promise<IteratorResult<T>> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(ABORTED);
  return raceSignal<IteratorResult<T>>(promise, signal, () => ABORTED);
}

function hostGone(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  if (err.status === 404) return true;
  return err.status === undefined && (err.code === "ECONNREFUSED" || err.code === "ENOTFOUND");
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function account(a: {
  inputError: string | undefined;
  args: UpsertArgs;
  reports: BatchReport[];
  sentBatches: number;
  upserted: number;
  host: string;
  seconds: number;
  aborted: boolean;
  stopped: boolean;
}): UpsertOutcome {
  const reports = [...a.reports].sort((x, y) => x.firstPosition - y.firstPosition);
  const landed: LandedRange[] = [];
  const failedIds: string[] = [];
  const failures: { ids: string[]; message: string }[] = [];
  let read = 0;
  for (const r of reports) {
    read = Math.max(read, r.firstPosition + r.count);
    if (r.ok) {
      const last = landed[landed.length - 1];
      if (last && last.end === r.firstPosition) last.end += r.count;
      else landed.push({ start: r.firstPosition, end: r.firstPosition + r.count });
    } else {
      for (const id of r.ids) failedIds.push(id);
      failures.push({ ids: r.ids, message: r.message ?? "failed" });
    }
  }
  // Records of an array that were never sent (stopped after a failure, or cancelled) did not land either.
  const input = a.args.records;
  const allIds = Array.isArray(input) ? input.map((r) => r.id) : a.args.ids;
  let records = read;
  if (allIds) {
    records = allIds.length;
    if (read < allIds.length) {
      const unsent = allIds.slice(read);
      for (const id of unsent) failedIds.push(id);
      const why = a.aborted
        ? "not sent: the call was cancelled"
        : a.stopped
          ? "not sent: the server stopped the call (shutting down, or the session was closed)"
        : a.inputError !== undefined
          ? `not sent: ${a.inputError}`
          : "not sent: stopped after a failed batch";
      failures.push({ ids: unsent, message: why });
    }
  }
  const resumeAt = landed.length > 0 && landed[0].start === 0 ? landed[0].end : 0;
  return {
    records,
    batches: a.sentBatches,
    upserted: a.upserted,
    failedIds,
    failures,
    seconds: Math.round(a.seconds * 1000) / 1000,
    host: a.host,
    aborted: a.aborted,
    stopped: a.stopped,
    landed,
    resumeAt,
    ...(a.inputError === undefined ? {} : { inputError: a.inputError }),
  };
}
