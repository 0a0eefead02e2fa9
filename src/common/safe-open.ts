// Opening a file a tool was asked to read, safely: one open per file, never following a link at the last step and
// never blocking (a FIFO or a device swapped in cannot hang a thread), then proved with fstat to be a regular file
// whose real location lies inside an allowed root. Every reader of the file (check pass, worker threads, upload pass,
// Parquet) reads only through the descriptor returned here, so what was proved is what is read.
import { constants, type Stats } from "node:fs";
import { open, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** A file opened for reading: the descriptor every reader uses, where it really is, and what fstat said of it. */
export interface OpenedFile {
  handle: FileHandle;
  /** The descriptor as a number (worker threads read through it too; they share the process's descriptors). */
  fd: number;
  /** The real path of the opened file (links resolved), proved from the descriptor. */
  realPath: string;
  /** The allowed root (as declared) it lies in; undefined for openRegularFile. */
  root: string | undefined;
  stat: Stats;
  close(): Promise<void>;
}

export type OpenOutcome = { ok: true; file: OpenedFile } | { ok: false; message: string };

// Windows has neither flag; there a link or FIFO is still caught by the fstat and location checks below.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** A file this long whose blocks on disk cover less than 1/SPARSE_RATIO of it is refused as sparse (holes read as zeros). */
const SPARSE_MIN_BYTES = 1024 * 1024;
const SPARSE_RATIO = 64;

const HOW_TO_ALLOW =
  "No directory is allowed for reading files. Start the server with --allow-dir DIR (repeatable) naming the " +
  "directory that holds your data files, or use an MCP client over stdio that declares roots (the folders you opened).";

function rootPath(root: string): string {
  if (root.startsWith("file:")) return fileURLToPath(root);
  return resolve(root);
}

export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const rel = relative(parent, child);
  // "/data2" against "/data" gives "../data2": a path prefix is not containment
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

interface Roots {
  declared: string[];
  real: (string | undefined)[];
  text: string; // "Allowed directories: …."
}

/** The roots as paths and as real paths (a root that does not exist allows nothing), or why none is usable. */
export async function resolveRoots(roots: readonly string[]): Promise<{ ok: true; roots: Roots } | { ok: false; message: string }> {
  if (roots.length === 0) return { ok: false, message: HOW_TO_ALLOW };
  // A root that is not a usable path (a malformed file:// URI from a client) allows nothing; the others still count.
  const declared: string[] = [];
  const malformed: string[] = [];
  for (const root of roots) {
    try {
      declared.push(rootPath(root));
    } catch {
      malformed.push(root);
    }
  }
  if (declared.length === 0) {
    return { ok: false, message: `No allowed root is a usable path (${malformed.map((m) => JSON.stringify(m.slice(0, 200))).join(", ")}). Give absolute directories or file:// URIs.` };
  }
  const real = await Promise.all(declared.map((r) => realpath(r).catch(() => undefined)));
  const named = declared.join(", ");
  if (real.every((r) => r === undefined)) {
    return { ok: false, message: `None of the allowed directories exists: ${named}. Create one or allow another with --allow-dir DIR.` };
  }
  return { ok: true, roots: { declared, real, text: `Allowed directories: ${named}.` } };
}

/** The declared root whose real path holds `realPath`, if any. */
function rootHolding(realPath: string, roots: Roots): string | undefined {
  const i = roots.real.findIndex((r) => r !== undefined && isInside(realPath, r));
  return i === -1 ? undefined : roots.declared[i];
}

/**
 * Opens `requested` for reading if it is a regular file under one of `roots` (directories or file:// URIs, as MCP
 * roots are given). Relative paths are resolved against the first root. Refusals say why, naming the allowed
 * directories. The caller owns the file and closes it.
 */
export async function openAllowedFile(requested: string, roots: readonly string[]): Promise<OpenOutcome> {
  const resolved = await resolveRoots(roots);
  if (!resolved.ok) return resolved;
  const r = resolved.roots;
  const allowedText = r.text;
  if (requested.trim() === "") return { ok: false, message: `The path is empty. Give a file path under an allowed directory. ${allowedText}` };
  if (requested.includes("\0")) return { ok: false, message: `The path contains a NUL character. ${allowedText}` };

  const relativeNote = isAbsolute(requested) ? "" : ` (the relative path was resolved against the first allowed directory, ${r.declared[0]})`;
  const absolute = isAbsolute(requested) ? resolve(requested) : resolve(r.declared[0], requested);

  // Lexical check first: the path as written must not leave the roots ("..", or an absolute path elsewhere).
  if (!r.declared.some((d, i) => isInside(absolute, d) || (r.real[i] !== undefined && isInside(absolute, r.real[i]!)))) {
    if (requested.split(/[\\/]/).includes("..")) {
      return { ok: false, message: `Refused: "${requested}" climbs out of the allowed directories with ".." (it resolves to ${absolute}). ${allowedText}` };
    }
    return { ok: false, message: `Refused: ${absolute}${relativeNote} is outside the allowed directories. ${allowedText}` };
  }
  let target: string;
  try {
    target = await realpath(absolute);
  } catch (e) {
    if (code(e) === "ENOENT" || code(e) === "ENOTDIR") return { ok: false, message: `No such file: ${absolute}${relativeNote}. ${allowedText}` };
    if (code(e) === "ELOOP") return { ok: false, message: `Refused: ${absolute} is a loop of symbolic links. ${allowedText}` };
    return { ok: false, message: `Cannot read ${absolute}: ${code(e) ?? String(e)}. ${allowedText}` };
  }
  // Then the real target: a link inside a root may point anywhere.
  if (rootHolding(target, r) === undefined) {
    // Where it leads is not said: the refusal must not tell a client what lies outside the roots.
    return { ok: false, message: `Refused: ${absolute}${relativeNote} is a link that leads outside the allowed directories. ${allowedText}` };
  }
  // The one open. Whatever the path is by now (it may have been swapped since realpath), the checks below judge
  // the file actually opened, never the path.
  let opened: FileHandle;
  try {
    opened = await open(target, READ_FLAGS);
  } catch (e) {
    if (code(e) === "ELOOP") return { ok: false, message: `Refused: ${absolute} was replaced by a symbolic link while it was being opened. ${allowedText}` };
    if (code(e) === "ENOENT" || code(e) === "ENOTDIR") return { ok: false, message: `No such file: ${absolute}${relativeNote} (it disappeared while being opened). ${allowedText}` };
    return { ok: false, message: `Cannot read ${absolute}: ${code(e) ?? String(e)}. ${allowedText}` };
  }
  const refuse = async (message: string): Promise<OpenOutcome> => {
    await opened.close().catch(() => {});
    return { ok: false, message: `${message} ${allowedText}` };
  };
  const info = await opened.stat();
  if (info.isDirectory()) return refuse(`${absolute} is a directory; give the path of a .jsonl or .parquet file inside it.`);
  if (!info.isFile()) return refuse(`${absolute} is not a regular file.`);
  // A hard link has no "real" path to check: its other names may lie outside the roots (a file the client may not read).
  if (info.nlink > 1) return refuse(`Refused: ${absolute} has ${info.nlink} hard links; a file with other names may be one outside the allowed directories. Copy it instead of linking it.`);
  const proved = await descriptorPath(opened.fd, target, info);
  const root = proved === undefined ? undefined : rootHolding(proved, r);
  if (proved === undefined || root === undefined) {
    return refuse(`Refused: ${absolute} changed while it was being opened (the file opened is not the one checked, or lies outside the allowed directories).`);
  }
  const sparse = sparseRefusal(absolute, info);
  if (sparse !== undefined) return refuse(sparse);
  return { ok: true, file: wrap(opened, proved, root, info) };
}

/**
 * Opens a file by path with the same flags and regular-file proof but no roots: for callers that were handed a
 * path by the user who runs the server (tests, benchmarks), never by a client. Throws with a message.
 */
export async function openRegularFile(path: string): Promise<OpenedFile> {
  let opened: FileHandle;
  try {
    opened = await open(path, READ_FLAGS);
  } catch (e) {
    if (code(e) === "ELOOP") throw new Error(`refused: ${path} is a symbolic link`);
    throw e;
  }
  const info = await opened.stat();
  if (!info.isFile()) {
    await opened.close().catch(() => {});
    throw new Error(`not a file: ${path}`);
  }
  return wrap(opened, resolve(path), undefined, info);
}

function wrap(handle: FileHandle, realPath: string, root: string | undefined, info: Stats): OpenedFile {
  let closing: Promise<void> | undefined;
  return { handle, fd: handle.fd, realPath, root, stat: info, close: () => (closing ??= handle.close().catch(() => {})) };
}

/**
 * Where the open descriptor really is. Linux names it in /proc/self/fd; elsewhere the checked path's real path must
 * lead to the same device and inode as the descriptor (a swap and swap back in between would show another inode).
 */
export async function descriptorPath(fd: number, target: string, info: Stats): Promise<string | undefined> {
  if (process.platform === "linux") {
    try {
      const named = await readlink(`/proc/self/fd/${fd}`);
      if (named.startsWith("/") && !named.endsWith(" (deleted)")) return named;
      return undefined;
    } catch {
      // no /proc (a restricted container): fall through to the portable check
    }
  }
  try {
    const again = await realpath(target);
    const now = await stat(again);
    return now.dev === info.dev && now.ino === info.ino ? again : undefined;
  } catch {
    return undefined;
  }
}

/** A sparse file (8 GB of holes, say) costs minutes of CPU to read as zeros: refused when far emptier than long. */
function sparseRefusal(path: string, info: Stats): string | undefined {
  // Windows reports no block count.
  if (process.platform === "win32" || info.size < SPARSE_MIN_BYTES || !Number.isFinite(info.blocks)) return undefined;
  const allocated = info.blocks * 512;
  if (allocated * SPARSE_RATIO >= info.size) return undefined;
  return `Refused: ${path} is a sparse file (${info.size} bytes long, but only ${allocated} bytes are stored on disk); its holes would be read as zeros. Give a regular data file.`;
}

/** The file's bytes up to the size fstat gave when it was opened (and checked): a file growing meanwhile is not read past it. */
export async function readAsChecked(file: OpenedFile): Promise<Buffer> {
  const out = Buffer.alloc(file.stat.size);
  let done = 0;
  while (done < out.length) {
    const { bytesRead } = await file.handle.read(out, done, out.length - done, done);
    if (bytesRead === 0) break; // it shrank: what is there
    done += bytesRead;
  }
  return done === out.length ? out : out.subarray(0, done);
}
