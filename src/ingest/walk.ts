// Listing the files of a folder under the allowed roots, for tools that read many files. The walk only names
// candidates: links are never followed, every directory is re-checked to lie inside a root before it is listed, and
// each file must still be opened with openAllowedFile (safe-open.ts), which proves what is actually read.
import { readdir, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { isInside, resolveRoots } from "../common/safe-open.js";

export type WalkEntry =
  | { kind: "file"; path: string; relative: string }
  | { kind: "skipped"; path: string; relative: string; reason: string }
  | { kind: "folder skipped"; path: string; relative: string; reason: string };

export interface WalkOptions {
  /** Directories below `dir` to descend into; 0 lists `dir` only. Default 16. */
  maxDepth?: number;
  /** Stop after this many entries (files and skips); default 100,000. */
  maxEntries?: number;
  /** Only files whose name passes are yielded (others are not reported at all). */
  include?: (name: string) => boolean;
  /** Why a folder below `dir` is not entered (it is then yielded as "folder skipped"), or undefined to enter it. */
  skipFolder?: (relative: string, name: string) => string | undefined;
}

/** Throws an Error whose message says why when `dir` is not a directory inside the roots. */
export async function* walkAllowedDir(dir: string, roots: readonly string[], opts: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const resolved = await resolveRoots(roots);
  if (!resolved.ok) throw new Error(resolved.message);
  const { declared, real, text } = resolved.roots;
  const start = isAbsolute(dir) ? resolve(dir) : resolve(declared[0], dir);
  const inRoots = (p: string) => real.some((r) => r !== undefined && isInside(p, r));
  const maxDepth = opts.maxDepth ?? 16;
  let left = opts.maxEntries ?? 100_000;

  const queue: { path: string; depth: number }[] = [{ path: start, depth: 0 }];
  while (queue.length > 0 && left > 0) {
    const { path, depth } = queue.shift()!;
    let realDir: string;
    try {
      realDir = await realpath(path);
    } catch (e) {
      if (path === start) throw new Error(`No such directory: ${start}. ${text}`);
      continue; // removed while walking
    }
    if (!inRoots(realDir)) {
      if (path === start) throw new Error(`Refused: ${start} is outside the allowed directories. ${text}`);
      yield { kind: "skipped", path, relative: relative(start, path), reason: "left the allowed directories while being listed" };
      left--;
      continue;
    }
    let entries;
    try {
      entries = await readdir(realDir, { withFileTypes: true });
    } catch (e) {
      if (path === start) throw new Error(`Cannot list ${start}: ${(e as NodeJS.ErrnoException).code ?? String(e)}. ${text}`);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (left <= 0) break;
      const child = join(path, entry.name);
      const rel = relative(start, child);
      if (entry.isDirectory()) {
        const skip = opts.skipFolder?.(rel, entry.name);
        if (skip !== undefined) yield { kind: "folder skipped", path: child, relative: rel, reason: skip };
        else if (depth < maxDepth) queue.push({ path: child, depth: depth + 1 });
      } else if (opts.include && !opts.include(entry.name)) {
        // not asked for
      } else if (entry.isSymbolicLink()) {
        yield { kind: "skipped", path: child, relative: rel, reason: "a symbolic link (links are not followed)" };
        left--;
      } else if (entry.isFile()) {
        yield { kind: "file", path: child, relative: rel };
        left--;
      } else {
        yield { kind: "skipped", path: child, relative: rel, reason: "not a regular file" };
        left--;
      }
    }
  }
}
