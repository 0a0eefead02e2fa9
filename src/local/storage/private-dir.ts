// The data directory holds every stored record and the API key: only the user who runs the service may read it.
// It is created 0700 with files 0600; an existing one the service's user owns is tightened to that; one owned by
// someone else is refused (its owner could read everything stored, or plant an api-key the service would trust).
import { chmodSync, lstatSync, mkdirSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";

export class UntrustedDataDirError extends Error {
  override readonly name = "UntrustedDataDirError";
}

/** The effective uid, or undefined where there is none (Windows: directories there are private by ACL). */
const myUid = (): number | undefined => (typeof process.getuid === "function" ? process.getuid() : undefined);

function owner(info: Stats): string {
  return `uid ${info.uid}`;
}

/** Creates the directory (0700) or checks and tightens an existing one. Throws UntrustedDataDirError with the fix. */
export function preparePrivateDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const uid = myUid();
  if (uid === undefined) return;
  const info = statSync(dataDir);
  if (!info.isDirectory()) throw new UntrustedDataDirError(`The data dir ${dataDir} is not a directory.`);
  if (info.uid !== uid) {
    throw new UntrustedDataDirError(
      `The data dir ${dataDir} belongs to ${owner(info)}, not to the user running the service (uid ${uid}): its owner could read ` +
        `every stored record or plant the API key. Choose a data dir of your own (--data-dir DIR).`,
    );
  }
  if ((info.mode & 0o077) !== 0) chmodSync(dataDir, 0o700);
}

/**
 * Checks a file of the data dir, if it exists: it must be a regular file (not a link) owned by the service's user;
 * group and other permissions are taken away.
 */
export function tightenDataFile(dataDir: string, name: string): void {
  const path = join(dataDir, name);
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  if (info.isSymbolicLink()) throw new UntrustedDataDirError(`${path} is a symbolic link; the data dir's files must be plain files. Remove it.`);
  const uid = myUid();
  if (uid === undefined) return;
  if (info.uid !== uid) {
    throw new UntrustedDataDirError(`${path} belongs to ${owner(info)}, not to the user running the service (uid ${uid}). Remove it or choose another data dir.`);
  }
  if ((info.mode & 0o077) !== 0) chmodSync(path, info.mode & 0o700);
}
