// Which request states were used, shared through a folder by every process that has it: several HTTP processes behind
// one load balancer (one host, or a data dir on shared storage) refuse a state replayed to any of them, not only to
// the one that took it. A used state is an empty file named by its nonce, created exclusively (O_EXCL: of two
// processes taking the same state at once, one wins); marks older than a state can live are removed now and then.
import { constants } from "node:fs";
import { open, readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { privateFolder } from "../common/private-folder.js";

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const PRUNE_EVERY_MS = 60_000;
/** Our nonces are UUIDs (and a state reaching here is signed by us): anything else is no name for a file. */
const NONCE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const prunedAt = new Map<string, number>();

/** True when this nonce had not been used (it is marked used now), false when it had. */
export async function takeOnce(folder: string, nonce: string, lifetimeMs: number): Promise<boolean> {
  if (!NONCE.test(nonce)) return false;
  await privateFolder(folder);
  try {
    await (await open(join(folder, nonce), CREATE, 0o600)).close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  const now = Date.now();
  if (now - (prunedAt.get(folder) ?? 0) >= PRUNE_EVERY_MS) {
    prunedAt.set(folder, now);
    await prune(folder, now - lifetimeMs - PRUNE_EVERY_MS);
  }
  return true;
}

/** Removes the marks made before `before` (their states have expired: the signature check refuses them anyway). */
async function prune(folder: string, before: number): Promise<void> {
  for (const name of await readdir(folder)) {
    if (!NONCE.test(name)) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(gone);
    if (info && info.mtimeMs < before) await unlink(path).catch(gone);
  }
}

/** Another process pruned it first: fine; anything else is reported. */
function gone(err: NodeJS.ErrnoException): undefined {
  if (err.code === "ENOENT") return undefined;
  throw err;
}
