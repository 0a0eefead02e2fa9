import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export type AllowedFile = { ok: true; realPath: string } | { ok: false; message: string };

const HOW_TO_ALLOW =
  "No directory is allowed for reading files. Start the server with --allow-dir DIR (repeatable) naming the " +
  "directory that holds your data files, or use an MCP client that declares roots (the folders you opened).";

function rootPath(root: string): string {
  if (root.startsWith("file:")) return fileURLToPath(root);
  return resolve(root);
}

function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const rel = relative(parent, child);
  // "/data2" against "/data" gives "../data2": a path prefix is not containment
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Decides whether `requested` may be read: it must be an existing regular file under one of `roots` (directories
 * or file:// URIs, as MCP roots are given), after resolving links in both. Relative paths are resolved against
 * the first root.
 */
export async function resolveAllowedFile(requested: string, roots: string[]): Promise<AllowedFile> {
  if (roots.length === 0) return { ok: false, message: HOW_TO_ALLOW };
  let declared: string[];
  try {
    declared = roots.map(rootPath);
  } catch (e) {
    return { ok: false, message: `An allowed root is not a usable path: ${e instanceof Error ? e.message : String(e)}` };
  }
  const real: string[] = [];
  for (const r of declared) {
    try {
      real.push(await realpath(r));
    } catch {
      // a root that does not exist (any more) allows nothing
    }
  }
  const named = declared.join(", ");
  const allowedText = `Allowed directories: ${named}.`;
  if (real.length === 0) {
    return { ok: false, message: `None of the allowed directories exists: ${named}. Create one or allow another with --allow-dir DIR.` };
  }
  if (requested.trim() === "") return { ok: false, message: `The path is empty. Give a file path under an allowed directory. ${allowedText}` };
  if (requested.includes("\0")) return { ok: false, message: `The path contains a NUL character. ${allowedText}` };

  const relativeNote = isAbsolute(requested) ? "" : ` (the relative path was resolved against the first allowed directory, ${declared[0]})`;
  const absolute = isAbsolute(requested) ? resolve(requested) : resolve(declared[0], requested);

  // Lexical check first: the path as written must not leave the roots ("..", or an absolute path elsewhere).
  if (!declared.some((r, i) => isInside(absolute, r) || (real[i] !== undefined && isInside(absolute, real[i])))) {
    if (requested.split(/[\\/]/).includes("..")) {
      return { ok: false, message: `Refused: "${requested}" climbs out of the allowed directories with ".." (it resolves to ${absolute}). ${allowedText}` };
    }
    return { ok: false, message: `Refused: ${absolute}${relativeNote} is outside the allowed directories. ${allowedText}` };
  }
  let target: string;
  try {
    target = await realpath(absolute);
  } catch (e) {
    if (code(e) === "ENOENT" || code(e) === "ENOTDIR") {
      return { ok: false, message: `No such file: ${absolute}${relativeNote}. ${allowedText}` };
    }
    if (code(e) === "ELOOP") return { ok: false, message: `Refused: ${absolute} is a loop of symbolic links. ${allowedText}` };
    return { ok: false, message: `Cannot read ${absolute}: ${code(e) ?? String(e)}. ${allowedText}` };
  }
  // Then the real target: a link inside a root may point anywhere.
  if (!real.some((r) => isInside(target, r))) {
    return {
      ok: false,
      message: `Refused: ${absolute}${relativeNote} is a link that leads outside the allowed directories (to ${target}). ${allowedText}`,
    };
  }
  let info;
  try {
    info = await stat(target);
  } catch (e) {
    return { ok: false, message: `Cannot read ${absolute}: ${code(e) ?? String(e)}. ${allowedText}` };
  }
  if (info.isDirectory()) {
    return { ok: false, message: `${absolute} is a directory; give the path of a .jsonl or .parquet file inside it. ${allowedText}` };
  }
  if (!info.isFile()) return { ok: false, message: `${absolute} is not a regular file. ${allowedText}` };
  return { ok: true, realPath: target };
}
