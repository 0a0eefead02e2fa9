// Globs as .gitignore reads them, matched against a path relative to the folder asked for ("guides/setup.md"): a
// glob with a "/" before its end matches the path from its start, a glob without one matches any segment ("*.md",
// "drafts"); either also matches a folder on the way, so "drafts" and "docs/drafts" cover everything under them, and
// a trailing "/" matches folders only. "*" and "?" stay within a segment, "**" spans any number of segments,
// "[abc]" / "[!a-z]" are classes, "{md,txt}" alternatives, "\" escapes the next character.
//
// Matching is the two-pointer wildcard algorithm, within a segment ("*") and across segments ("**"): on a mismatch it
// only moves back to just after the last star, never further, so a glob costs at most (its length × the path's
// length) steps whatever it holds. A backtracking regex (picomatch) took minutes on "?*?*?*?*?*?*?*?*?*?*?*x".

type Token =
  | { kind: "char"; code: number }
  | { kind: "one" }
  | { kind: "star" }
  | { kind: "class"; negated: boolean; ranges: [number, number][] };

/** A segment of a glob: what one path segment must match, or "**" (any number of segments). */
type Segment = Token[] | "**";

export interface Glob {
  text: string;
  matches(path: string): boolean;
  /** Whether the glob names this folder literally in one of its segments (".github" in ".github/**"). */
  namesFolder(name: string): boolean;
}

/** Alternatives a glob may expand to ("{a,b}{c,d}" is four). */
export const MAX_ALTERNATIVES = 64;

export class GlobError extends Error {}

/** Expands "{a,b}" alternatives (nested too); throws GlobError past MAX_ALTERNATIVES. */
function expandBraces(glob: string): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "{") {
      if (depth++ === 0) open = i;
    } else if (c === "," && depth === 1) commas.push(i);
    else if (c === "}" && depth > 0 && --depth === 0) {
      if (commas.length === 0) {
        commas.length = 0;
        continue; // "{x}" is not an alternative: kept as written
      }
      const head = glob.slice(0, open);
      const cuts = [open, ...commas, i];
      const options = cuts.slice(1).map((end, k) => glob.slice(cuts[k] + 1, end));
      const out: string[] = [];
      for (const option of options) {
        for (const expanded of expandBraces(head + option + glob.slice(i + 1))) {
          out.push(expanded);
          if (out.length > MAX_ALTERNATIVES) throw new GlobError(`it expands to more than ${MAX_ALTERNATIVES} alternatives`);
        }
      }
      return out;
    }
  }
  return [glob];
}

function parseSegment(text: string): Segment {
  if (text === "**") return "**";
  const tokens: Token[] = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\" && i + 1 < chars.length) tokens.push({ kind: "char", code: chars[++i].codePointAt(0)! });
    else if (c === "?") tokens.push({ kind: "one" });
    else if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" }); // "**" inside a segment is one star
    } else if (c === "[") {
      const parsed = parseClass(chars, i);
      if (parsed === undefined) tokens.push({ kind: "char", code: c.codePointAt(0)! });
      else {
        tokens.push(parsed.token);
        i = parsed.end;
      }
    } else tokens.push({ kind: "char", code: c.codePointAt(0)! });
  }
  return tokens;
}

/** "[...]" starting at `start`, or undefined when it never closes (then "[" is a plain character). */
function parseClass(chars: string[], start: number): { token: Token; end: number } | undefined {
  let i = start + 1;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i++;
  const ranges: [number, number][] = [];
  for (let first = true; i < chars.length; first = false, i++) {
    if (chars[i] === "]" && !first) return { token: { kind: "class", negated, ranges }, end: i };
    if (chars[i] === "\\" && i + 1 < chars.length) i++;
    const lo = chars[i].codePointAt(0)!;
    if (chars[i + 1] === "-" && i + 2 < chars.length && chars[i + 2] !== "]") {
      const hi = chars[i + 2] === "\\" && i + 3 < chars.length ? chars[(i += 3)] : chars[(i += 2)];
      ranges.push([lo, hi.codePointAt(0)!]);
    } else ranges.push([lo, lo]);
  }
  return undefined;
}

function tokenMatches(token: Token, code: number): boolean {
  switch (token.kind) {
    case "char":
      return token.code === code;
    case "one":
      return true;
    case "class":
      return token.ranges.some(([lo, hi]) => code >= lo && code <= hi) !== token.negated;
    case "star":
      return false;
  }
}

/**
 * The two-pointer wildcard match of `items` against `pattern`, where `isStar` items match any run (empty too) and
 * the others one item each, as `one` says. On a mismatch only the last star's run grows by one: no deeper backtracking.
 */
function wildcard<P, T>(pattern: readonly P[], items: readonly T[], isStar: (p: P) => boolean, one: (p: P, t: T) => boolean): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let starFrom = 0;
  while (t < items.length) {
    if (p < pattern.length && isStar(pattern[p])) {
      star = p++;
      starFrom = t;
    } else if (p < pattern.length && one(pattern[p], items[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++starFrom;
    } else return false;
  }
  while (p < pattern.length && isStar(pattern[p])) p++;
  return p === pattern.length;
}

const segmentMatches = (segment: Token[], name: number[]) => wildcard(segment, name, (t) => t.kind === "star", tokenMatches);

const pathMatches = (segments: readonly Segment[], path: readonly number[][]) =>
  wildcard(segments, path, (s) => s === "**", (s, name) => s !== "**" && segmentMatches(s, name));

/** One alternative of a glob: the segments a whole file path must match, and those a path under a matched folder must. */
function compileAlternative(text: string): { file?: Segment[]; under: Segment[]; literals: string[] } {
  const folderOnly = /\/+$/.test(text);
  const trimmed = text.replace(/\/+$/, "");
  const anchored = trimmed.includes("/");
  const parts = trimmed.replace(/^\/+/, "").split("/").filter((s) => s !== "");
  const segments: Segment[] = [];
  for (const part of parts) {
    const segment = parseSegment(part);
    if (!(segment === "**" && segments.at(-1) === "**")) segments.push(segment);
  }
  const rooted: Segment[] = anchored || segments[0] === "**" ? segments : ["**", ...segments];
  const literals = parts.filter((p) => !/[*?[\\{]/.test(p));
  return { ...(folderOnly ? {} : { file: rooted }), under: [...rooted, "**", [{ kind: "star" }]], literals };
}

/** Compiles a glob; throws GlobError (saying why) for one that cannot be used. */
export function compileGlob(text: string): Glob {
  const alternatives = expandBraces(text).map(compileAlternative);
  return {
    text,
    matches(path) {
      const segments = path.split("/").filter((s) => s !== "").map((s) => Array.from(s, (c) => c.codePointAt(0)!));
      return alternatives.some((a) => (a.file !== undefined && pathMatches(a.file, segments)) || pathMatches(a.under, segments));
    },
    namesFolder: (name) => alternatives.some((a) => a.literals.includes(name)),
  };
}

/** A matcher for a list of globs (any one matching), or GlobError naming the glob (`what[i]`) and why. */
export function compileGlobs(what: string, globs: readonly string[]): Glob[] {
  return globs.map((glob, i) => {
    if (glob.startsWith("!")) throw new GlobError(`${what}[${i}] "${glob}" starts with "!": a glob here is never negated; put it in ${what === "include" ? "exclude" : "include"} without the "!" instead.`);
    try {
      return compileGlob(glob);
    } catch (err) {
      if (err instanceof GlobError) throw new GlobError(`${what}[${i}] "${glob}" cannot be used: ${err.message}.`);
      throw err;
    }
  });
}

/** Folders a walk does not enter unless asked: hidden ones (".git", ".obsidian") and those holding others' code. */
const VENDORED = new Set(["node_modules", "bower_components", "jspm_packages", "vendor", "__pycache__"]);

/** Why a folder is skipped by default, or undefined when it is walked. */
export function skippedByDefault(name: string): string | undefined {
  if (name.startsWith(".")) return "a hidden folder";
  if (VENDORED.has(name)) return "a folder of installed packages";
  return undefined;
}
