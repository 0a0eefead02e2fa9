// Writing a group of files' changed chunks in an order that keeps one promise: a first chunk that names a version of
// its file (a non-empty fileHash) exists only while the file's other chunks all hold that version. So, per group:
//
// 1. the first chunk of each file whose other chunks are about to change is deleted (its text changes too: it is
//    written again in step 3) or marked out of step (fileHash "": its text stays, step 4 names the new version);
// 2. the other chunks are upserted;
// 3. the first chunks that are new or whose text changed are upserted, only for files whose step 2 fully landed;
// 4. the first chunks whose text did not change get the new version and stamp (set metadata).
//
// A run that stops anywhere leaves each file either in step or without a first chunk that claims a version: the next
// run then lists every id (index-view.ts) and compares chunk by chunk. Every chunk that was to be written and did not
// land is accounted for once, with why.
import type { IndexModel } from "../../api/records.js";
import type { Service } from "../../api/service.js";
import { runTextUpsert, type TextRecord } from "../text-upsert.js";
import type { DocumentRecord, FileStamp } from "./document-records.js";

export interface FileWrites {
  /** The file's position in the run's list of files. */
  file: number;
  /** Chunks other than the first to upsert (new or changed). */
  others: DocumentRecord[];
  /** The first chunk to upsert: new, or its text changed. */
  first?: DocumentRecord;
  /** The first chunk's text is unchanged: the fields that make it name the file's new version. */
  stamp?: { id: string; fields: { fileHash: string } & FileStamp };
  /** The first chunk the index holds, to delete or mark out of step before any other chunk changes (step 1). */
  before?: { id: string; how: "delete" | "invalidate" };
}

export interface WriteContext {
  service: Service;
  index: IndexModel;
  field: string;
  namespace: string;
  concurrency: number;
  /** When it fires, nothing new is sent; what is in flight is answered (the account stays exact). */
  stopSending: AbortSignal;
  /** Cuts requests in flight short (a cancel's grace is over). */
  signal: AbortSignal;
}

export interface WriteAccount {
  /** Records upserted that landed. */
  upserted: number;
  /** Ids of chunks to write that did not land, and why. */
  notLanded: { ids: string[]; message: string }[];
  /** Files some of whose writes did not land. */
  filesFailed: Set<number>;
  /** Why writing stopped, once it did: nothing more is sent. */
  stopped?: string;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs `fn` over `items`, `limit` at a time, starting none once `stop()` is true; resolves when all started ended. */
async function eachLimited<T>(items: readonly T[], limit: number, stop: () => boolean, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

export class DocumentWriter {
  constructor(
    private readonly ctx: WriteContext,
    readonly account: WriteAccount,
  ) {}

  private stop(why: string): void {
    this.account.stopped ??= why;
  }

  private get halted(): boolean {
    if (this.ctx.stopSending.aborted) this.stop("cancelled");
    return this.account.stopped !== undefined;
  }

  /** Every write of `files` left undone is not landed, for `why` (they are not sent). */
  private notSent(files: readonly FileWrites[], why: string, skipFirstOf = new Set<number>()): void {
    for (const w of files) {
      this.account.filesFailed.add(w.file);
      const ids = [...w.others.map((r) => r.id), ...(w.first && !skipFirstOf.has(w.file) ? [w.first.id] : []), ...(w.stamp ? [w.stamp.id] : [])];
      if (ids.length > 0) this.account.notLanded.push({ ids, message: why });
    }
  }

  private stoppedWhy(): string {
    return this.account.stopped === "cancelled" ? "not sent: the call was cancelled" : "not sent: the run stopped after a failed write";
  }

  private async upsert(records: { record: DocumentRecord; file: number }[]): Promise<void> {
    if (records.length === 0) return;
    const { ctx } = this;
    let outcome: Awaited<ReturnType<typeof runTextUpsert>>;
    try {
      outcome = await runTextUpsert({
        service: ctx.service, index: ctx.index.name, namespace: ctx.namespace, concurrency: ctx.concurrency,
        records: records.map(({ record }): TextRecord => ({ _id: record.id, ...record.metadata, [ctx.field]: record.text })),
        signal: ctx.signal, stopSending: ctx.stopSending,
      });
    } catch (err) {
      // The index could not be resolved (deleted, not ready): nothing of these records was sent.
      for (const r of records) this.account.filesFailed.add(r.file);
      this.account.notLanded.push({ ids: records.map((r) => r.record.id), message: `not sent: ${messageOf(err)}` });
      return this.stop(ctx.stopSending.aborted ? "cancelled" : "a write failed");
    }
    this.account.upserted += outcome.upserted;
    if (outcome.failedIds.length === 0) return;
    const cancelled = ctx.stopSending.aborted;
    // Records the upsert did not send because the call was cancelled are named so (its own wording is for a server
    // that stops); a request cut short after the grace may or may not have landed, and says so.
    for (const f of outcome.failures) {
      const message = cancelled && f.message.startsWith("not sent:") ? "not sent: the call was cancelled" : f.message === "cancelled while in flight" ? "in flight when the call was cancelled: it may have landed" : f.message;
      this.account.notLanded.push({ ids: f.ids, message });
    }
    const failed = new Set(outcome.failedIds);
    for (const r of records) if (failed.has(r.record.id)) this.account.filesFailed.add(r.file);
    this.stop(cancelled ? "cancelled" : "a write failed");
  }

  /** Writes one group of files' chunks in the four steps above; after a stop, nothing more of the group is sent. */
  async write(files: readonly FileWrites[]): Promise<void> {
    if (this.halted) return this.notSent(files, this.stoppedWhy());
    const { ctx, account } = this;

    // 1. First chunks that would otherwise claim a version their file's other chunks no longer hold.
    const drops = files.filter((w) => w.before?.how === "delete").map((w) => w.before!.id);
    try {
      for (let i = 0; i < drops.length && !this.halted; i += 1000) {
        await ctx.service.data.deleteVectors(ctx.index.host, { namespace: ctx.namespace, ids: drops.slice(i, i + 1000) }, ctx.signal);
      }
      await eachLimited(files.filter((w) => w.before?.how === "invalidate"), ctx.concurrency, () => this.halted, async (w) => {
        await ctx.service.data.setMetadata(ctx.index.host, { id: w.before!.id, namespace: ctx.namespace, setMetadata: { fileHash: "" } }, ctx.signal);
      });
    } catch (err) {
      this.stop(ctx.stopSending.aborted ? "cancelled" : "a write failed");
      return this.notSent(files, ctx.stopSending.aborted ? this.stoppedWhy() : `not sent: marking first chunks out of step failed: ${messageOf(err)}`);
    }
    if (this.halted) return this.notSent(files, this.stoppedWhy());

    // 2. Chunks other than the first.
    await this.upsert(files.flatMap((w) => w.others.map((record) => ({ record, file: w.file }))));
    const ready = files.filter((w) => !account.filesFailed.has(w.file));
    if (this.halted) {
      // The failed files' other chunks are accounted for by the upsert; their first chunks and every write of the
      // files that did land are not sent.
      const failed = files.filter((w) => account.filesFailed.has(w.file));
      for (const w of failed) {
        const ids = [...(w.first ? [w.first.id] : []), ...(w.stamp ? [w.stamp.id] : [])];
        if (ids.length > 0) account.notLanded.push({ ids, message: "not sent: the file's other chunks did not all land" });
      }
      return this.notSent(ready.map((w) => ({ ...w, others: [] })), this.stoppedWhy());
    }

    // 3. First chunks that are new or changed.
    await this.upsert(ready.flatMap((w) => (w.first ? [{ record: w.first, file: w.file }] : [])));
    const stamps = ready.filter((w) => w.stamp && !account.filesFailed.has(w.file));
    if (this.halted) return this.notSent(stamps.map((w) => ({ ...w, others: [], first: undefined })), this.stoppedWhy());

    // 4. First chunks whose text is unchanged name the new version.
    const stamped = new Set<number>();
    await eachLimited(stamps, ctx.concurrency, () => this.halted, async (w) => {
      try {
        await ctx.service.data.setMetadata(ctx.index.host, { id: w.stamp!.id, namespace: ctx.namespace, setMetadata: { ...w.stamp!.fields } }, ctx.signal);
        stamped.add(w.file);
      } catch (err) {
        account.filesFailed.add(w.file);
        account.notLanded.push({ ids: [w.stamp!.id], message: `its version was not recorded: ${messageOf(err)}` });
        this.stop(ctx.stopSending.aborted ? "cancelled" : "a write failed");
      }
    });
    const unstamped = stamps.filter((w) => !stamped.has(w.file) && !account.filesFailed.has(w.file));
    if (unstamped.length > 0) this.notSent(unstamped.map((w) => ({ ...w, others: [], first: undefined })), this.stoppedWhy());
  }
}
