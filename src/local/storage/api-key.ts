// The accepted API key: the one given, else the one kept in <dataDir>/api-key, else a new random one written
// there (mode 0600) so it stays the same for this data dir. The file is opened without following a link and must
// be a regular file of the service's own user: a key planted by someone else is never trusted.
import { randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { UntrustedDataDirError } from "./private-dir.js";

export const API_KEY_FILE = "api-key";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export function resolveApiKey(dataDir: string, given: string | undefined): string {
  if (given !== undefined && given !== "") return given;
  const path = join(dataDir, API_KEY_FILE);
  const kept = readKept(path);
  if (kept) return kept;
  const key = `local-${randomBytes(24).toString("base64url")}`;
  // O_EXCL: a file (or link) that appeared meanwhile is never written through.
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600); // the mode given above is masked by umask
    writeSync(fd, `${key}\n`);
  } finally {
    closeSync(fd);
  }
  return key;
}

function readKept(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new UntrustedDataDirError(`${path} is a symbolic link; the key file must be a plain file. Remove it.`);
    throw e;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UntrustedDataDirError(`${path} is not a regular file. Remove it.`);
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
    if (uid !== undefined && info.uid !== uid) {
      throw new UntrustedDataDirError(`${path} belongs to uid ${info.uid}, not to the user running the service (uid ${uid}); a planted key is never used. Remove it.`);
    }
    if ((info.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    return readFileSync(fd, "utf8").trim() || undefined;
  } finally {
    closeSync(fd);
  }
}
