// A copy between two named services, namespace by namespace, with its checkpoint: what copy_index runs once the
// plan is made and the target is ready. The checkpoint (checkpoint.ts) lives in the server's data dir and is named by
// the source and the target; it is removed when every namespace is complete, so a later call of the same copy starts
// over (and finds every record already there).
import { join } from "node:path";
import type { Service } from "../../api/service.js";
import { CheckpointStore, emptyMark, type CopyCheckpoint, type NamespaceMark } from "../../ingest/copy/checkpoint.js";
import { copyNamespace, type CopyMode, type NamespaceCopyOutcome } from "../../ingest/copy/copy-namespace.js";
import { ToolError } from "../tool-error.js";
import type { NamedService } from "../named-services.js";
import type { ToolContext } from "../tool.js";

export interface CopyRunArgs {
  from: NamedService;
  to: NamedService;
  index: string;
  targetIndex: string;
  sourceHost: string;
  targetHost: string;
  mode: CopyMode;
  /** The source's namespaces to copy, with their record counts. */
  namespaces: { name: string; records: number }[];
  /** Record counts of the target's namespaces before the copy. */
  targetCounts: Map<string, number>;
  store: CheckpointStore;
  checkpoint: CopyCheckpoint;
}

export interface NamespaceReport {
  namespace: string;
  sourceRecords: number;
  /** Carried from earlier calls by the checkpoint. */
  before: Pick<NamespaceMark, "copied" | "alreadyThere" | "skipped">;
  /** This call's work; undefined when the namespace was complete before it (or not reached). */
  outcome?: NamespaceCopyOutcome;
  complete: boolean;
}

export interface CopyRunOutcome {
  reports: NamespaceReport[];
  /** The checkpoint could not be saved (the copy went on; a stop now would start that namespace over). */
  saveProblem?: string;
  complete: boolean;
}

/** The folder of checkpoints in the server's data dir. */
export function checkpointFolder(dataDir: string): string {
  return join(dataDir, "copy-checkpoints");
}

/** The checkpoints of the copies running in this process: one copy of a source to a target at a time. */
const running = new Set<string>();

export function modeKey(mode: CopyMode): string {
  return mode.kind === "vectors" ? "vectors" : `text ${mode.sourceField} → ${mode.targetField}`;
}

export async function runCopy(args: CopyRunArgs, ctx: ToolContext): Promise<CopyRunOutcome> {
  const { store, checkpoint } = args;
  if (running.has(store.path)) {
    throw new ToolError({
      problem: `A copy of ${JSON.stringify(args.index)} (${args.from.name}) to ${JSON.stringify(args.targetIndex)} (${args.to.name}) is already running on this server`,
      untouched: "written",
      next: "wait for it to finish (or cancel it); a copy that stopped goes on from where it was when called again.",
    });
  }
  running.add(store.path);
  try {
    const claim = await store.claim();
    if (!claim.ok) {
      throw new ToolError({
        problem: `A copy of ${JSON.stringify(args.index)} (${args.from.name}) to ${JSON.stringify(args.targetIndex)} (${args.to.name}) is already running in another server on this data dir (process ${claim.pid})`,
        untouched: "written",
        next: "wait for it to finish; a copy that stopped goes on from where it was when called again.",
      });
    }
    try {
      return await copyAll(args, ctx);
    } finally {
      await claim.release();
    }
  } finally {
    running.delete(store.path);
  }
}

async function copyAll(args: CopyRunArgs, ctx: ToolContext): Promise<CopyRunOutcome> {
  const { store, checkpoint } = args;
  const total = args.namespaces.reduce((n, ns) => n + ns.records, 0);
  const marks = checkpoint.namespaces;
  let doneBefore = 0;
  for (const ns of args.namespaces) {
    const m = marks[ns.name];
    if (m) doneBefore += m.copied + m.alreadyThere + m.skipped;
  }
  let saveProblem: string | undefined;
  const save = () =>
    store.save(checkpoint).catch((err: unknown) => {
      saveProblem ??= `the checkpoint ${store.path} could not be written (${(err as Error).message})`;
      ctx.log.warning(`copy_index: ${saveProblem}`);
    });

  const reports: NamespaceReport[] = [];
  let handledEarlier = 0;
  let stop = false;
  for (const ns of args.namespaces) {
    const mark = marks[ns.name] ?? emptyMark();
    const before = { copied: mark.copied, alreadyThere: mark.alreadyThere, skipped: mark.skipped };
    if (mark.done || stop) {
      reports.push({ namespace: ns.name, sourceRecords: ns.records, before, complete: mark.done });
      continue;
    }
    const resumed = marks[ns.name] !== undefined;
    marks[ns.name] = mark;
    const outcome = await copyNamespace({
      source: { service: args.from.service, host: args.sourceHost },
      target: { service: args.to.service, index: args.targetIndex, host: args.targetHost },
      namespace: ns.name,
      mode: args.mode,
      mark,
      compare: resumed || (args.targetCounts.get(ns.name) ?? 0) > 0,
      concurrency: ctx.config.concurrency,
      signal: ctx.signal,
      stopSending: ctx.stopping,
      onProgress: (handled) => {
        const done = doneBefore + handledEarlier + handled;
        ctx.progress(done, total, `${done} of ${total} records copied or found on the target (namespace ${JSON.stringify(ns.name)})`);
      },
      onMark: (moved) => {
        marks[ns.name] = moved;
        void save();
      },
    });
    handledEarlier += outcome.copied + outcome.alreadyThere + outcome.skippedCount + outcome.vanished;
    marks[ns.name] = outcome.mark;
    reports.push({ namespace: ns.name, sourceRecords: ns.records, before, outcome, complete: outcome.complete });
    if (!outcome.complete) stop = true; // cancelled, stopped, or the service refused: the namespaces after wait for the next call
  }
  const complete = reports.every((r) => r.complete);
  if (complete) await store.remove().catch(() => {});
  else await save();
  return { reports, complete, ...(saveProblem !== undefined && { saveProblem }) };
}

/** A fresh checkpoint of this copy, or the one on disk when it is of the same copy written the same way. */
export async function loadCheckpoint(
  store: CheckpointStore,
  fresh: CopyCheckpoint,
): Promise<{ checkpoint: CopyCheckpoint; resumed: boolean; note?: string }> {
  const read = await store.read();
  if (read.problem) return { checkpoint: fresh, resumed: false, note: `${read.problem}; the copy starts over, leaving out what the target already holds` };
  const found = read.checkpoint;
  if (!found) return { checkpoint: fresh, resumed: false };
  if (found.mode !== fresh.mode) {
    return { checkpoint: fresh, resumed: false, note: "an earlier copy between these indexes wrote the records another way; this one starts over, leaving out what the target already holds" };
  }
  return { checkpoint: found, resumed: true };
}

/** Record counts by namespace ("" for the default namespace, as the listing names it). */
export async function namespaceCounts(service: Service, host: string, signal: AbortSignal): Promise<Map<string, number>> {
  const stats = await service.data.describeIndexStats(host, signal);
  const counts = new Map<string, number>();
  for (const [name, ns] of Object.entries(stats.namespaces ?? {})) counts.set(name === "__default__" ? "" : name, ns.vectorCount ?? 0);
  return counts;
}
