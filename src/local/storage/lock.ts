// One process per data dir: an exclusive lock file holding the owner's pid. A lock whose pid is no
// longer alive (the owner was killed) is stale and taken over.
import { openSync, writeSync, closeSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";

export const LOCK_FILE = "service.lock";

export class DataDirInUseError extends Error {}

const heldHere = new Set<string>(); // lock files this process holds


function alive(pid: number): boolean {
  // Our own pid in a lock we do not hold (see heldHere) was left by an earlier life, e.g. a container's pid 1.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws DataDirInUseError; returns the release function. */
export function acquireDataDirLock(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  if (heldHere.has(path)) {
    throw new DataDirInUseError(
      `The data dir ${dataDir} is in use by another local service in this same process (pid ${process.pid}). ` +
        `Close that one first or choose another data dir.`,
    );
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      heldHere.add(path);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(path);
        try {
          if (readFileSync(path, "utf8").trim() === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let owner: number;
    try {
      owner = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    } catch {
      continue; // removed meanwhile: try again
    }
    if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
      throw new DataDirInUseError(
        `The data dir ${dataDir} is in use by another vecdb-mcp local service (pid ${owner}). ` +
          `Stop that process or choose another --data-dir. (Lock file: ${path})`,
      );
    }
    try {
      unlinkSync(path); // stale: its owner is gone
    } catch {
      // someone else removed it first
    }
  }
  throw new DataDirInUseError(`Could not take the lock file ${path} for the data dir ${dataDir}; another process keeps racing for it.`);
}
