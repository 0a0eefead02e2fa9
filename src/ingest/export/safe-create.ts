// Writing files a tool was asked to write, safely: the counterpart of safe-open.ts for an export. The folder must lie
// under an allowed root (as written and as it really is), be new or empty (an export never replaces files), and is
// made one level at a time; each file is created new (O_EXCL, never through a link) and proved from its descriptor to
// lie under the same root before a byte is written.
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, type FileHandle } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { descriptorPath, isInside, resolveRoots } from "../../common/safe-open.js";

/** A folder an export may fill: where it really is, and the real root it lies in. */
export interface ExportFolder {
  path: string;
  root: string;
}

export type FolderOutcome = { ok: true; folder: ExportFolder } | { ok: false; message: string };

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

const code = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/**
 * The folder `requested` (absolute, or relative to the first root), made when missing, if it lies under a root and
 * holds nothing yet. Refusals say why and name the allowed directories; nothing is created on a refusal except the
 * missing folders of an accepted path.
 */
export async function prepareExportFolder(requested: string, roots: readonly string[]): Promise<FolderOutcome> {
  const resolved = await resolveRoots(roots);
  if (!resolved.ok) return resolved;
  const { declared, real, text } = resolved.roots;
  if (requested.includes("\0")) return { ok: false, message: `The folder's path contains a NUL character. ${text}` };
  const absolute = isAbsolute(requested) ? resolve(requested) : resolve(declared[0], requested);
  const lexicalRoot = declared.findIndex((d, i) => isInside(absolute, d) || (real[i] !== undefined && isInside(absolute, real[i]!)));
  if (lexicalRoot === -1) {
    if (requested.split(/[\\/]/).includes("..")) {
      return { ok: false, message: `Refused: "${requested}" climbs out of the allowed directories with ".." (it resolves to ${absolute}). ${text}` };
    }
    return { ok: false, message: `Refused: ${absolute} is outside the allowed directories. ${text}` };
  }
  // The deepest part of the path that exists must really lie under a root (a link inside a root may point anywhere).
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      await lstat(existing);
      break;
    } catch (e) {
      if (code(e) !== "ENOENT") return { ok: false, message: `Cannot use ${absolute}: ${code(e) ?? String(e)}. ${text}` };
      missing.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
  let here: string;
  try {
    here = await realpath(existing);
  } catch (e) {
    return { ok: false, message: `Cannot use ${absolute}: ${code(e) ?? String(e)}. ${text}` };
  }
  const rootOf = (p: string) => real.find((r) => r !== undefined && isInside(p, r));
  const root = rootOf(here);
  if (root === undefined) return { ok: false, message: `Refused: ${absolute} leads outside the allowed directories (through a link). ${text}` };
  for (const name of missing) {
    const next = join(here, name);
    try {
      await mkdir(next);
    } catch (e) {
      if (code(e) !== "EEXIST") return { ok: false, message: `Cannot create the folder ${next}: ${code(e) ?? String(e)}. ${text}` };
    }
    here = await realpath(next);
    if (rootOf(here) !== root) return { ok: false, message: `Refused: ${absolute} changed while it was being created (it now leads outside the allowed directories). ${text}` };
  }
  const info = await lstat(here);
  if (!info.isDirectory()) return { ok: false, message: `${absolute} is a file, not a folder; give the path of a new or empty folder. ${text}` };
  const inside = await readdir(here);
  if (inside.length > 0) {
    const shown = inside.sort().slice(0, 5).map((n) => JSON.stringify(n)).join(", ");
    return {
      ok: false,
      message: `Refused: ${absolute} already holds ${inside.length} ${inside.length === 1 ? "entry" : "entries"} (${shown}${inside.length > 5 ? ", …" : ""}); an export never replaces or mixes with existing files. Give a new or empty folder. ${text}`,
    };
  }
  return { ok: true, folder: { path: here, root } };
}

/** Makes the sub-folder `name` of an export folder (it must not exist yet). Throws an Error saying why. */
export async function createSubfolder(folder: ExportFolder, name: string): Promise<ExportFolder> {
  const path = join(folder.path, name);
  try {
    await mkdir(path);
  } catch (e) {
    if (code(e) === "EEXIST") throw new Error(`${path} appeared while the export was being written; nothing in it was replaced`);
    throw new Error(`cannot create the folder ${path}: ${code(e) ?? String(e)}`);
  }
  const realPath = await realpath(path);
  if (!isInside(realPath, folder.root)) throw new Error(`${path} changed while the export was being written (it leads outside the allowed directories)`);
  return { path: realPath, root: folder.root };
}

/** A new file `name` in `folder`, open for writing; never an existing file or a link. Throws an Error saying why. */
export async function createNewFile(folder: ExportFolder, name: string): Promise<{ handle: FileHandle; path: string }> {
  const path = join(folder.path, name);
  let handle: FileHandle;
  try {
    handle = await open(path, CREATE_FLAGS, 0o644);
  } catch (e) {
    if (code(e) === "EEXIST" || code(e) === "ELOOP") throw new Error(`${path} appeared while the export was being written; it was not replaced`);
    throw new Error(`cannot create ${path}: ${code(e) ?? String(e)}`);
  }
  const proved = await descriptorPath(handle.fd, path, await handle.stat());
  if (proved === undefined || !isInside(proved, folder.root)) {
    await handle.close().catch(() => {});
    throw new Error(`${path} changed while it was being created (the file opened is not under the allowed directories)`);
  }
  return { handle, path: proved };
}
