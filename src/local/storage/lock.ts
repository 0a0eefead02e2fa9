// One process per data dir. On Linux the lock is a unix socket bound at service.sock INSIDE the data dir (0700, so only
// its owner can create, reach or remove it — an abstract socket named after the path could be squatted by any local
// user, and was per network namespace). A path socket is one inode: it holds across bind mounts and network
// namespaces. Binding is atomic (EADDRINUSE when the name exists); a socket left by a dead owner (kill -9) refuses
// connections, and only then is it removed — under the `.takeover` file, so that two newcomers cannot both judge it
// stale and the second remove the first one's fresh lock. The holder answers a connection with its pid, so a refusal
// names it, and a socket that answers otherwise is named as not ours. The lock file beside it (service.lock) only
// says which pid holds it, for messages. On Windows a named pipe; elsewhere (macOS) the lock file alone, its takeover
// serialized the same way.
import { createHash } from "node:crypto";
import { closeSync, constants, existsSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";

export const LOCK_FILE = "service.lock";
export const LOCK_SOCKET = "service.sock";
const GREETING = "vecdb-mcp-lock";

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

/** The named pipe that locks a data dir on Windows. */
function pipeName(dataDir: string): string {
  const id = createHash("sha256").update(realpathSync(dataDir)).digest("hex").slice(0, 40);
  return `\\\\?\\pipe\\vecdb-mcp-lock-${id}`;
}

/** Listens on `name` (a pipe or a socket path); undefined when it is taken. The holder greets with its pid. */
function bind(name: string): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end(`${GREETING} ${process.pid}\n`));
    server.once("error", (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" ? resolve(undefined) : reject(e)));
    server.listen(name, () => {
      server.unref(); // the lock must not keep the process alive
      resolve(server);
    });
  });
}

type Probe = { kind: "ours"; pid: number } | { kind: "foreign" } | { kind: "stale" } | { kind: "gone" };

/** Who answers on the lock socket: a live holder (its pid), something else, or nobody (a dead owner's socket). */
function probe(name: string): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = connect(name);
    let text = "";
    const done = (p: Probe) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(p);
    };
    const timer = setTimeout(() => done({ kind: "foreign" }), 2000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n") || text.length > 64) {
        const m = new RegExp(`^${GREETING} (\\d+)\\n`).exec(text);
        done(m ? { kind: "ours", pid: Number(m[1]) } : { kind: "foreign" });
      }
    });
    socket.on("end", () => done({ kind: "foreign" }));
    socket.on("error", (e: NodeJS.ErrnoException) => done(e.code === "ECONNREFUSED" ? { kind: "stale" } : e.code === "ENOENT" ? { kind: "gone" } : { kind: "foreign" }));
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
  let release: () => void;
  if (process.platform === "linux" && existsSync("/proc/self/fd")) {
    release = await acquireLockSocket(dataDir, path);
  } else if (process.platform === "win32") {
    const server = await bind(pipeName(dataDir));
    if (!server) throw inUse(dataDir, path, lockOwner(dataDir));
    release = holding(server, path);
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

/** Writes the owner file for a bound lock; the release closes the lock and removes the file if still ours. */
function holding(server: Server, path: string, after: () => void = () => {}): () => void {
  try {
    writeOwner(path); // whatever a dead owner left there is replaced: the bound lock is the truth
  } catch (e) {
    server.close(after);
    throw e;
  }
  return () => {
    removeIfOurs(path);
    server.close(after);
  };
}

/**
 * The socket lock inside the data dir, bound and probed through a descriptor of the directory (/proc/self/fd/N/…):
 * a socket path is limited to 108 bytes, a data dir's path is not. The descriptor stays open while the lock is held,
 * since closing the server removes the socket by that same path.
 */
async function acquireLockSocket(dataDir: string, path: string): Promise<() => void> {
  const dirFd = openSync(dataDir, constants.O_RDONLY | constants.O_DIRECTORY);
  const name = `/proc/self/fd/${dirFd}/${LOCK_SOCKET}`;
  try {
    for (let attempt = 0; attempt < 80; attempt++) {
      // Binding and judging a socket stale both happen under the takeover file: a socket is bound before it listens,
      // and a newcomer probing in between would see a refusal, judge the fresh lock stale and remove it.
      const turn = await exclusively(path, async () => {
        const server = await bind(name);
        if (server) return { server };
        const found = await probe(name);
        if (found.kind === "stale") removeStale(name); // nobody is between bind and listen now: it is a dead owner's
        return { found };
      });
      if (turn?.server) return holding(turn.server, path, () => closeSync(dirFd));
      const found = turn?.found;
      if (found?.kind === "ours") throw inUse(dataDir, path, found.pid);
      if (found?.kind === "foreign") {
        throw new DataDirInUseError(
          `The data dir ${dataDir} is locked by a process that is not a vecdb-mcp local service (its lock socket ${join(dataDir, LOCK_SOCKET)} answers, but not as ours). ` +
            "Find it with `ss -xlp` or `lsof`, or choose another --data-dir.",
        );
      }
      if (found?.kind !== "stale") await new Promise((r) => setTimeout(r, 10 + Math.min(attempt, 20) * 5));
    }
  } catch (e) {
    closeSync(dirFd);
    throw e;
  }
  closeSync(dirFd);
  throw new DataDirInUseError(`Could not take the lock ${join(dataDir, LOCK_SOCKET)} for the data dir ${dataDir}; another process keeps racing for it.`);
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

/** Removes a dead owner's socket; one a closing holder removed meanwhile is already gone. */
function removeStale(name: string): void {
  try {
    unlinkSync(name);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/**
 * Takes the `.takeover` file beside the lock; returns its release, or undefined when another process holds it (one
 * left by a crash mid-takeover is old and removed, for a later attempt).
 */
function takeTakeover(path: string): (() => void) | undefined {
  const takeover = `${path}.takeover`;
  try {
    closeSync(openSync(takeover, "wx", 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    try {
      if (Date.now() - statSync(takeover).mtimeMs > 10_000) unlinkSync(takeover);
    } catch {
      // gone meanwhile
    }
    return undefined;
  }
  return () => unlinkSync(takeover);
}

/** Runs `step` holding the `.takeover` file; undefined (step not run) when another process holds it. */
async function exclusively<T>(path: string, step: () => Promise<T>): Promise<T | undefined> {
  const release = takeTakeover(path);
  if (!release) return undefined;
  try {
    return await step();
  } finally {
    release();
  }
}

/** Runs `step` holding the `.takeover` file, if no other process holds it. */
function withTakeover(path: string, step: () => void): void {
  const release = takeTakeover(path);
  if (!release) return;
  try {
    step();
  } catch {
    // the lock vanished meanwhile: the next attempt sees
  } finally {
    release();
  }
}
