// The files a run covers: each requested path, checked whole before anything is read (a refused path refuses the
// call), then folders walked under the allowed roots (walk.ts: links never followed) and include / exclude globs
// applied to the path relative to the folder asked for. What a run may prune is scoped by the same paths: the id
// prefix of each folder ("notes/") or file ("notes/a.md#") relative to its root.
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { isInside, openAllowedFile, resolveRoots } from "../safe-open.js";
import { walkAllowedDir } from "../walk.js";
import { documentIdPrefix } from "./document-records.js";

interface FoundDocument {
  /** The path to open (under the folder asked for). */
  path: string;
  /** Its path relative to its allowed root, "/"-separated: the records' `source` and the base of their ids. */
  source: string;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

interface DocumentScope {
  /** Id prefix whose records this run owns: a folder's "dir/" ("" for a whole root) or a file's "dir/a.md#". */
  prefix: string;
  /** Sources of every file found under it (read, skipped or filtered out): their records are never pruned as gone. */
  present: Set<string>;
}

export interface FoundDocuments {
  files: FoundDocument[];
  skipped: SkippedFile[];
  scopes: DocumentScope[];
}

export class DocumentPathError extends Error {}

const posix = (p: string) => p.split(sep).join("/");

export interface CheckedPaths {
  /** The id prefix of each path asked for, known before anything is walked (what a run lists in the index). */
  scopes: string[];
  /** Walks the folders and applies the globs. */
  find(): Promise<FoundDocuments>;
}

/** Checks every path (refusing the call whole, naming the path and why); `find` then walks them. */
export async function checkDocumentPaths(
  paths: readonly string[],
  roots: readonly string[],
  globs: { include?: readonly string[]; exclude?: readonly string[] },
): Promise<CheckedPaths> {
  const resolved = await resolveRoots(roots);
  if (!resolved.ok) throw new DocumentPathError(resolved.message);
  const { declared, real } = resolved.roots;
  const rootOf = (realPath: string) => {
    const holders = real.filter((r): r is string => r !== undefined && isInside(realPath, r));
    return holders.sort((a, b) => b.length - a.length)[0];
  };
  const included = globs.include?.length ? picomatch([...globs.include], { basename: true, dot: true }) : () => true;
  const excluded = globs.exclude?.length ? picomatch([...globs.exclude], { basename: true, dot: true }) : () => false;

  // Every path is checked before any is walked: the call is refused whole, naming the path and why.
  const starts: { path: string; real: string; folder: boolean }[] = [];
  for (const requested of paths) {
    const absolute = isAbsolute(requested) ? resolve(requested) : resolve(declared[0], requested);
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isDirectory()) {
      const realDir = await realpath(absolute);
      if (rootOf(realDir) === undefined) {
        const climbs = requested.split(/[\\/]/).includes("..");
        throw new DocumentPathError(
          climbs
            ? `Refused: "${requested}" climbs out of the allowed directories with ".." (it resolves to ${absolute}). ${resolved.roots.text}`
            : `Refused: ${absolute} is outside the allowed directories${realDir !== absolute ? ` (it leads to ${realDir})` : ""}. ${resolved.roots.text}`,
        );
      }
      starts.push({ path: absolute, real: realDir, folder: true });
    } else {
      const opened = await openAllowedFile(requested, roots);
      if (!opened.ok) throw new DocumentPathError(opened.message);
      await opened.file.close();
      starts.push({ path: absolute, real: opened.file.realPath, folder: false });
    }
  }

  const scopeOf = (start: { real: string; folder: boolean }) => {
    const base = posix(relative(rootOf(start.real)!, start.real));
    return start.folder ? (base === "" ? "" : `${base}/`) : documentIdPrefix(base);
  };
  return { scopes: starts.map(scopeOf), find: () => walkStarts(starts, roots, rootOf, scopeOf, included, excluded) };
}

async function walkStarts(
  starts: readonly { path: string; real: string; folder: boolean }[],
  roots: readonly string[],
  rootOf: (realPath: string) => string | undefined,
  scopeOf: (start: { real: string; folder: boolean }) => string,
  included: (path: string) => boolean,
  excluded: (path: string) => boolean,
): Promise<FoundDocuments> {
  const found: FoundDocuments = { files: [], skipped: [], scopes: [] };
  const seen = new Set<string>();
  for (const start of starts) {
    const root = rootOf(start.real)!;
    const sourceOf = (realPath: string) => posix(relative(root, realPath));
    if (!start.folder) {
      const source = sourceOf(start.real);
      found.scopes.push({ prefix: scopeOf(start), present: new Set([source]) });
      if (!seen.has(source)) found.files.push({ path: start.path, source });
      seen.add(source);
      continue;
    }
    const scope: DocumentScope = { prefix: scopeOf(start), present: new Set() };
    found.scopes.push(scope);
    const base = sourceOf(start.real);
    for await (const entry of walkAllowedDir(start.path, roots)) {
      // The walk names entries under the folder (never with ".."): the source is the folder's source and that.
      const source = base === "" ? posix(entry.relative) : `${base}/${posix(entry.relative)}`;
      scope.present.add(source);
      if (seen.has(source)) continue;
      seen.add(source);
      const rel = posix(entry.relative);
      if (!included(rel) || excluded(rel)) continue;
      if (entry.kind === "skipped") found.skipped.push({ path: entry.path, reason: entry.reason });
      else found.files.push({ path: entry.path, source });
    }
  }
  return found;
}
