// How much memory the answers being built at once may take. A result reaches the model within --max-result-tokens, but
// on its way the service's answer is held whole: a query_vectors of topK 1000 with the values of a 768-d index is
// ~15 MB of JSON, then the parsed numbers, their float32 copies and the rows measured for the budget — some 50 MB
// for a moment. Ninety-six of them at once took the server past 1 GB and kept a list_indexes waiting 22 s. So a
// call that will receive a large answer first takes its estimated size from one budget per process
// (--max-answer-mb-in-flight), and waits its turn (first come, first served) when the budget is full; after
// ANSWER_WAIT_MS it is refused, having read nothing. Calls with small answers (list_indexes, describe_index_stats, a
// query without values) never wait.
import type { Service } from "../../api/service.js";
import type { Logger } from "../../log.js";
import { ToolError } from "../tool-error.js";

/** The bytes one value takes while an answer is built: its JSON text, the parsed number, its float32 copy, its row. */
const VALUE_BYTES = 64;
/** The bytes one record takes apart from its values: id, score, metadata (an allowance). */
const RECORD_BYTES = 2048;
/** Below this an answer is light: it never waits. */
const LIGHT_BYTES = 4 * 1024 * 1024;
/** A sparse index has no dimension: the values a sparse record is assumed to hold. */
const SPARSE_VALUES = 1024;
/** How long a heavy call waits for room before it is refused. */
const ANSWER_WAIT_MS = 30_000;

const mib = (n: number) => `${Math.max(1, Math.round(n / (1024 * 1024)))} MiB`;

interface Waiter {
  bytes: number;
  grant(): void;
}

/** Bytes of answers being built, with the calls waiting for room in arrival order. */
export class AnswerBudget {
  private used = 0;
  private readonly waiting: Waiter[] = [];
  constructor(
    readonly limit: number,
    private readonly waitMs = ANSWER_WAIT_MS,
  ) {}

  get inUse(): number {
    return this.used;
  }

  /**
   * Takes `bytes` (at most the whole budget: a call larger than it runs alone) and returns the function that gives
   * them back. Waits while the budget cannot hold them, or others wait before it; throws a ToolError after waitMs,
   * and the signal's reason when it aborts.
   */
  async take(bytes: number, signal: AbortSignal, what: string): Promise<() => void> {
    const want = Math.min(bytes, this.limit);
    if (this.waiting.length === 0 && this.used + want <= this.limit) return this.grant(want);
    signal.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes: want,
        grant: () => {
          cleanup();
          resolve();
        },
      };
      const leave = (why: unknown) => {
        cleanup();
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        this.admit(); // the next in line may fit now
        reject(why);
      };
      const timer = setTimeout(
        () =>
          leave(
            new ToolError({
              problem:
                `Not run: the answers other calls are receiving take the server's memory budget for answers (${mib(this.limit)}, ` +
                `--max-answer-mb-in-flight), and ${what}'s answer of about ${mib(bytes)} found no room within ${this.waitMs / 1000} s`,
              untouched: "read",
              next: "call again in a moment, or ask for a smaller answer (a smaller topK or fewer ids, or includeValues false).",
            }),
          ),
        this.waitMs,
      );
      const onAbort = () => leave(signal.reason);
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(waiter);
    });
    return this.grantTaken(want);
  }

  private grant(bytes: number): () => void {
    this.used += bytes;
    return this.grantTaken(bytes);
  }

  /** The release of bytes already counted in `used`. */
  private grantTaken(bytes: number): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.used -= bytes;
      this.admit();
    };
  }

  /** Lets in the waiters at the head of the line that now fit. */
  private admit(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0].bytes <= this.limit) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.grant();
    }
  }
}

const budgets = new Map<number, AnswerBudget>();

/** What of a call's context the budget needs (a ToolContext has it). */
interface CallContext {
  service: Pick<Service, "hosts">;
  signal: AbortSignal;
  config: { answerMbInFlight: number };
  log: Logger;
}

/** The process's budget (one per size: every session of a server shares it). */
function budgetOf(ctx: CallContext): AnswerBudget {
  const limit = ctx.config.answerMbInFlight * 1024 * 1024;
  let budget = budgets.get(limit);
  if (!budget) budgets.set(limit, (budget = new AnswerBudget(limit)));
  return budget;
}

/** What a call will receive: how many records at most, from which index, with their values or not. */
export interface AnswerSize {
  index: string;
  records: number;
  values: boolean;
}

/** The estimated bytes of an answer of `records` records of `dimension` values (none without values). */
export function answerBytes(records: number, valuesPerRecord: number): number {
  return records * (RECORD_BYTES + valuesPerRecord * VALUE_BYTES);
}

/**
 * A tool's run, its calls holding room in the answer budget while they run when their answer will be heavy. The
 * index's dimension comes from its cached description; when it cannot be had the call runs unchecked (the tool then
 * says what is wrong with the index).
 */
export function answerBudgeted<A, C extends CallContext, R>(tool: string, run: (args: A, ctx: C) => Promise<R>, sizeOf: (args: A) => AnswerSize) {
  return async (args: A, ctx: C): Promise<R> => {
    const size = sizeOf(args);
    let perRecord = 0;
    if (size.values) {
      const model = await ctx.service.hosts.resolve(size.index, ctx.signal).catch(() => undefined);
      if (!model) return run(args, ctx);
      perRecord = typeof model.dimension === "number" ? model.dimension : SPARSE_VALUES;
    }
    const bytes = answerBytes(size.records, perRecord);
    if (bytes < LIGHT_BYTES) return run(args, ctx);
    const budget = budgetOf(ctx);
    if (budget.inUse + bytes > budget.limit) ctx.log.debug(`${tool}: waiting for ${mib(bytes)} of the answer budget (${mib(budget.inUse)} of ${mib(budget.limit)} in use)`);
    const release = await budget.take(bytes, ctx.signal, tool);
    ctx.log.debug(`${tool}: holding ${mib(bytes)} of the answer budget (${mib(budget.inUse)} of ${mib(budget.limit)} in use)`);
    try {
      return await run(args, ctx);
    } finally {
      release();
    }
  };
}
