// The files a run covers: each requested path, checked whole before anything is read (a refused path refuses the
// call), then folders walked under the allowed roots (walk.ts: links never followed) and include / exclude globs
// applied to the path relative to the folder asked for (globs.ts); hidden and vendored folders are not entered unless
// an include glob names them, and are listed as skipped. What a run may prune is scoped by the same paths: the id
// prefix of each folder ("notes/guides/") or file ("notes/a.md#"). Paths start with the allowed root's own folder name
// ("notes/…" under the root /home/me/notes), so two roots that both hold README.md give two ids; two roots with the
// same name are told apart by a short hash of their real path ("notes~1a2b3c4d/…").
import { realpath, stat } from "node:fs/promises";
import { createHash } from "node:crypto";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { isInside, openAllowedFile, resolveRoots } from "../../common/safe-open.js";
import { walkAllowedDir } from "../walk.js";
import { documentIdPrefix } from "./document-records.js";
import { compileGlobs, GlobError, skippedByDefault, type Glob } from "./globs.js";

interface FoundDocument {
  /** The path to open (under the folder asked for). */
  path: string;
  /** Its root's label and its path under that root, "/"-separated: the records' `source` and the base of their ids. */
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
  /** Sources of the folders under it that were not entered ("notes/.git/"): records under them are not pruned either. */
  keptFolders: string[];
}

export interface FoundDocuments {
  files: FoundDocument[];
  skipped: SkippedFile[];
  /** Folders not entered (hidden or of installed packages), and why. */
  skippedFolders: SkippedFile[];
  /** Files the include globs left out, and those the exclude globs left out (of those included). */
  notIncluded: number;
  excluded: number;
  scopes: DocumentScope[];
}

export class DocumentPathError extends Error {}

const posix = (p: string) => p.split(sep).join("/");

/** Each real root's label: its folder name, with a short hash of its real path when another root has that name. */
function rootLabels(real: readonly (string | undefined)[]): Map<string, string> {
  const roots = real.filter((r): r is string => r !== undefined);
  const name = (root: string) => basename(root) || "root";
  const labels = new Map<string, string>();
  for (const root of roots) {
    const shared = roots.some((other) => other !== root && name(other) === name(root));
    labels.set(root, shared ? `${name(root)}~${createHash("sha256").update(root).digest("hex").slice(0, 8)}` : name(root));
  }
  return labels;
}

interface PathFilter {
  included(relativePath: string): boolean;
  excluded(relativePath: string): boolean;
  /** Why a folder is not entered, or undefined. */
  skipFolder(name: string): string | undefined;
}

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
  let include: Glob[];
  let exclude: Glob[];
  try {
    include = compileGlobs("include", globs.include ?? []);
    exclude = compileGlobs("exclude", globs.exclude ?? []);
  } catch (err) {
    if (err instanceof GlobError) throw new DocumentPathError(err.message);
    throw err;
  }
  const filter: PathFilter = {
    included: (path) => include.length === 0 || include.some((g) => g.matches(path)),
    excluded: (path) => exclude.some((g) => g.matches(path)),
    skipFolder: (name) => (include.some((g) => g.namesFolder(name)) ? undefined : skippedByDefault(name)),
  };

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

  const labels = rootLabels(real);
  /** A real path's source: its root's label and the path under it. */
  const sourceOf = (realPath: string) => {
    const root = rootOf(realPath)!;
    const under = posix(relative(root, realPath));
    return under === "" ? labels.get(root)! : `${labels.get(root)}/${under}`;
  };
  const scopeOf = (start: { real: string; folder: boolean }) => (start.folder ? `${sourceOf(start.real)}/` : documentIdPrefix(sourceOf(start.real)));
  return { scopes: starts.map(scopeOf), find: () => walkStarts(starts, roots, sourceOf, scopeOf, filter) };
}

async function walkStarts(
  starts: readonly { path: string; real: string; folder: boolean }[],
  roots: readonly string[],
  sourceOf: (realPath: string) => string,
  scopeOf: (start: { real: string; folder: boolean }) => string,
  filter: PathFilter,
): Promise<FoundDocuments> {
  const found: FoundDocuments = { files: [], skipped: [], skippedFolders: [], notIncluded: 0, excluded: 0, scopes: [] };
  const seen = new Set<string>();
  for (const start of starts) {
    if (!start.folder) {
      const source = sourceOf(start.real);
      found.scopes.push({ prefix: scopeOf(start), present: new Set([source]), keptFolders: [] });
      if (!seen.has(source)) found.files.push({ path: start.path, source });
      seen.add(source);
      continue;
    }
    const scope: DocumentScope = { prefix: scopeOf(start), present: new Set(), keptFolders: [] };
    found.scopes.push(scope);
    const base = sourceOf(start.real);
    for await (const entry of walkAllowedDir(start.path, roots, { skipFolder: (_, name) => filter.skipFolder(name) })) {
      // The walk names entries under the folder (never with ".."): the source is the folder's source and that.
      const source = `${base}/${posix(entry.relative)}`;
      if (entry.kind === "folder skipped") {
        scope.keptFolders.push(`${source}/`);
        found.skippedFolders.push({ path: entry.path, reason: entry.reason });
        continue;
      }
      scope.present.add(source);
      if (seen.has(source)) continue;
      seen.add(source);
      const rel = posix(entry.relative);
      if (!filter.included(rel)) {
        found.notIncluded++;
        continue;
      }
      if (filter.excluded(rel)) {
        found.excluded++;
        continue;
      }
      if (entry.kind === "skipped") found.skipped.push({ path: entry.path, reason: entry.reason });
      else found.files.push({ path: entry.path, source });
    }
  }
  return found;
}
