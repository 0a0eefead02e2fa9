// Where a copy stands, on disk, so that a copy that stopped (cancelled, a fault, the server killed) goes on from there:
// one small JSON file per copy (source and target), in a private folder of the server's data dir, written whole to a
// new file and renamed over the old one, so a kill leaves the old or the new one, never half of one. Opened as
// safe-open.ts opens files: never through a link, only a regular file of this user, 0600 in a 0700 folder.
import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, readdir, readFile, rename, unlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { z } from "zod";
import { privateFolder } from "../../common/private-folder.js";

const MarkSchema = z.object({
  /** The listing's pagination token after the last chunk whose records all landed; absent: from the start. */
  token: z.string().optional(),
  done: z.boolean(),
  copied: z.number().int().nonnegative(),
  alreadyThere: z.number().int().nonnegative(),
  /** Records passed over for good (e.g. no text to embed), with the reasons of the first few. */
  skipped: z.number().int().nonnegative(),
  skippedWhy: z.array(z.object({ id: z.string(), why: z.string() })),
});
export type NamespaceMark = z.infer<typeof MarkSchema>;

const CheckpointSchema = z.object({
  version: z.literal(1),
  from: z.object({ service: z.string(), index: z.string() }),
  to: z.object({ service: z.string(), index: z.string() }),
  mode: z.string(),
  namespaces: z.record(z.string(), MarkSchema),
});
export type CopyCheckpoint = z.infer<typeof CheckpointSchema>;

export const emptyMark = (): NamespaceMark => ({ done: false, copied: 0, alreadyThere: 0, skipped: 0, skippedWhy: [] });

const MAX_BYTES = 4 * 1024 * 1024;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const myUid = (): number | undefined => (typeof process.getuid === "function" ? process.getuid() : undefined);

export class CheckpointStore {
  readonly path: string;
  private writing: Promise<void> = Promise.resolve();

  /** `folder`: the private folder of checkpoints; the file is named by a hash of the source and target. */
  constructor(
    private readonly folder: string,
    copy: { from: { service: string; index: string }; to: { service: string; index: string } },
  ) {
    const name = createHash("sha256").update(JSON.stringify([copy.from.service, copy.from.index, copy.to.service, copy.to.index])).digest("hex").slice(0, 32);
    this.path = join(folder, `${name}.json`);
  }

  /**
   * The checkpoint of this copy, undefined when there is none; `problem` when one is there but cannot be trusted
   * (then the copy starts over, comparing with the target, and the result says why).
   */
  async read(): Promise<{ checkpoint?: CopyCheckpoint; problem?: string }> {
    let handle;
    try {
      handle = await open(this.path, READ_FLAGS);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return {};
      return { problem: `the checkpoint ${this.path} could not be opened (${code ?? (err as Error).message})` };
    }
    try {
      const info = await handle.stat();
      const uid = myUid();
      if (!info.isFile()) return { problem: `the checkpoint ${this.path} is not a regular file` };
      if (uid !== undefined && info.uid !== uid) return { problem: `the checkpoint ${this.path} belongs to another user` };
      if (info.size > MAX_BYTES) return { problem: `the checkpoint ${this.path} is larger than a checkpoint can be` };
      const parsed = CheckpointSchema.safeParse(JSON.parse((await handle.readFile()).toString("utf8")));
      return parsed.success ? { checkpoint: parsed.data } : { problem: `the checkpoint ${this.path} is not one this server wrote` };
    } catch (err) {
      return { problem: `the checkpoint ${this.path} could not be read (${(err as Error).message})` };
    } finally {
      await handle.close();
    }
  }

  /** Writes it whole (writes are queued: the last one called is the one on disk). */
  save(checkpoint: CopyCheckpoint): Promise<void> {
    const text = JSON.stringify(checkpoint);
    this.writing = this.writing.catch(() => {}).then(() => this.writeFile(text));
    return this.writing;
  }

  /**
   * Claims this copy for this process: a lock file beside the checkpoint, holding the process id. Another live
   * process's claim is refused (its id returned); one left by a process that died (killed mid-copy) is taken over.
   */
  async claim(): Promise<{ ok: true; release(): Promise<void> } | { ok: false; pid: number }> {
    await privateFolder(this.folder);
    const lock = `${this.path}.lock`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(lock, WRITE_FLAGS, 0o600);
        await handle.writeFile(String(process.pid));
        await handle.close();
        await this.removeLeftovers();
        return { ok: true, release: () => unlink(lock).catch(() => {}) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      const holder = Number((await readFile(lock, "utf8").catch(() => "")).trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) return { ok: false, pid: holder };
      await unlink(lock).catch(() => {}); // its process is gone: the copy is ours to go on with
    }
    throw new Error(`the lock ${lock} could not be taken`);
  }

  /** Temporary files of writes a killed process never renamed (only the claim's holder writes, so none is in use). */
  private async removeLeftovers(): Promise<void> {
    const name = basename(this.path);
    const left = (await readdir(this.folder)).filter((f) => f.startsWith(`${name}.`) && f.endsWith(".tmp"));
    await Promise.all(left.map((f) => unlink(join(this.folder, f)).catch(() => {})));
  }

  async remove(): Promise<void> {
    await this.writing.catch(() => {});
    await unlink(this.path).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  }

  private async writeFile(text: string): Promise<void> {
    await privateFolder(this.folder);
    const temporary = `${this.path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    const handle = await open(temporary, WRITE_FLAGS, 0o600);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, this.path);
    } catch (err) {
      await unlink(temporary).catch(() => {});
      throw err;
    }
  }
}

/** Whether a process with this id runs (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
