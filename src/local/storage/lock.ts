// One process per data dir. The lock itself is one the kernel holds for the process and drops when it dies (kill -9
// included): a Linux abstract unix socket or a Windows named pipe, named after the data dir. Binding one is atomic, so
// two services racing for a directory whose previous owner died cannot both win, and no stale state is ever left to
// take over. The lock file beside the data (service.lock) only says which pid holds it, for messages.
//
// Why not a lock file alone: a file left by a dead owner must be removed before it can be created again, and "check
// that its pid is dead, then unlink" is two steps — two newcomers both judged it stale and the second unlinked the
// first one's fresh lock. Node has no flock(); a socket name is the portable-enough kernel lock.
// Elsewhere (macOS) the lock file is used with its takeover serialized by a second exclusive file.
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";

export const LOCK_FILE = "service.lock";

export class DataDirInUseError extends Error {}

const heldHere = new Set<string>(); // lock files this process holds

export function pidAlive(pid: number): boolean {
  // Our own pid in a lock we do not hold (see heldHere) was left by an earlier life, e.g. a container's pid 1.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid written in the data dir's lock file, or undefined when there is none (or it is unreadable). */
export function lockOwner(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function inUse(dataDir: string, path: string, owner: number | undefined): DataDirInUseError {
  const who = owner !== undefined ? `another vecdb-mcp local service (pid ${owner})` : "another vecdb-mcp local service";
  return new DataDirInUseError(
    `The data dir ${dataDir} is in use by ${who}. Stop that process or choose another --data-dir. (Lock file: ${path})`,
  );
}

/** The kernel-held lock's name for a data dir, on platforms that have one. */
function kernelLockName(dataDir: string, platform = process.platform): string | undefined {
  const id = createHash("sha256").update(realpathSync(dataDir)).digest("hex").slice(0, 40);
  if (platform === "linux") return `\0vecdb-mcp-lock-${id}`;
  if (platform === "win32") return `\\\\?\\pipe\\vecdb-mcp-lock-${id}`;
  return undefined;
}

function bind(name: string): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once("error", (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" ? resolve(undefined) : reject(e)));
    server.listen(name, () => {
      server.unref(); // the lock must not keep the process alive
      resolve(server);
    });
  });
}

/** Writes the lock file through a rename, so a reader sees the old owner or the new one, never half. */
function writeOwner(path: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

function removeIfOurs(path: string): void {
  try {
    if (readFileSync(path, "utf8").trim() === String(process.pid)) unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Takes the lock or throws DataDirInUseError; resolves with the release function. */
export async function acquireDataDirLock(dataDir: string): Promise<() => void> {
  const path = join(dataDir, LOCK_FILE);
  if (heldHere.has(path)) {
    throw new DataDirInUseError(
      `The data dir ${dataDir} is in use by another local service in this same process (pid ${process.pid}). ` +
        `Close that one first or choose another data dir.`,
    );
  }
  const name = kernelLockName(dataDir);
  let release: () => void;
  if (name !== undefined) {
    const server = await bind(name);
    if (!server) throw inUse(dataDir, path, lockOwner(dataDir));
    try {
      writeOwner(path); // whatever a dead owner left there is replaced: the kernel lock is the truth
    } catch (e) {
      server.close();
      throw e;
    }
    release = () => {
      removeIfOurs(path);
      server.close();
    };
  } else {
    release = acquireLockFile(dataDir, path);
  }
  heldHere.add(path);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(path);
    release();
  };
}

/** Where no kernel lock exists: an exclusive lock file; a stale one is replaced only while holding `.takeover`. */
function acquireLockFile(dataDir: string, path: string): () => void {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => removeIfOurs(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const owner = lockOwner(dataDir);
    if (owner !== undefined && pidAlive(owner)) throw inUse(dataDir, path, owner);
    withTakeover(path, () => {
      // Checked again under the takeover lock: only a lock still held by a dead pid is removed.
      const now = lockOwner(dataDir);
      if (now === undefined || !pidAlive(now)) unlinkSync(path);
    });
  }
  throw new DataDirInUseError(`Could not take the lock file ${path} for the data dir ${dataDir}; another process keeps racing for it.`);
}

function withTakeover(path: string, step: () => void): void {
  const takeover = `${path}.takeover`;
  try {
    closeSync(openSync(takeover, "wx", 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    // Someone else is taking over right now; one left by a crash mid-takeover is old and removed.
    try {
      if (Date.now() - statSync(takeover).mtimeMs > 10_000) unlinkSync(takeover);
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    step();
  } catch {
    // the lock file vanished meanwhile: the next attempt sees
  } finally {
    unlinkSync(takeover);
  }
}
