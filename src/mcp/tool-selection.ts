// Which tools a server (and, over HTTP, a session) offers, before the safe modes (access.ts) take theirs away:
//   the toolsets (--toolsets; unset = "default", the lean set; "all" = every toolset), plus --tools, minus
//   --exclude-tools. Unknown names are refused at start, naming the setting, the name and the valid names.
// Over HTTP a session may ask for its own selection (X-MCP-Toolsets / X-MCP-Tools / X-MCP-Exclude-Tools headers, or
// ?toolsets= / ?tools= / ?exclude_tools= on the URL), evaluated the same way, within a ceiling the server sets:
//   - the server was started with --toolsets: the ceiling is exactly its own set (a session may only narrow);
//   - without --toolsets: every toolset, minus --exclude-tools (a session may widen past the lean default).
// A session's "all" means its ceiling. The selection is read from the initialize request only; it holds for the
// session. --read-only, --allow-destructive and --indexes apply after this, to every session.
import { ConfigError, type Config } from "../config.js";
import { DEFAULT_TOOLSET, TOOLSET_NAMES, toolModules, type ToolEntry, type ToolsetName } from "../../tools/index.js";

/** The tools to choose from: the registry's (or, in a test, a few of the same shape). */
type Catalog = readonly Pick<ToolEntry, "name" | "toolset" | "inDefault">[];

export type Selection = Pick<Config, "toolsets" | "tools" | "excludeTools">;

/** A session's own selection over HTTP (each list as given; undefined = not asked). */
export interface SessionSelection {
  toolsets?: readonly string[];
  tools?: readonly string[];
  excludeTools?: readonly string[];
}

/** Where each setting comes from, for the messages that name it. */
const SERVER_SETTING = {
  toolsets: "--toolsets / VECDB_TOOLSETS",
  tools: "--tools / VECDB_TOOLS",
  excludeTools: "--exclude-tools / VECDB_EXCLUDE_TOOLS",
} as const;
const SESSION_SETTING = {
  toolsets: "X-MCP-Toolsets header (or ?toolsets=)",
  tools: "X-MCP-Tools header (or ?tools=)",
  excludeTools: "X-MCP-Exclude-Tools header (or ?exclude_tools=)",
} as const;

const TOOL_NAMES = toolModules.map((t) => t.name);
const TOOLSET_CHOICES = [DEFAULT_TOOLSET, "all", ...TOOLSET_NAMES];
const quoted = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(", ");

/** The tools of these toolsets. */
function toolsOf(sets: readonly string[], catalog: Catalog): Set<string> {
  const wanted = new Set(sets);
  return new Set(
    catalog.filter((t) => wanted.has("all") || wanted.has(t.toolset) || (wanted.has(DEFAULT_TOOLSET) && t.inDefault)).map((t) => t.name),
  );
}

function checkNames(setting: string, given: readonly string[], valid: readonly string[], what: string): void {
  const bad = given.filter((n) => !valid.includes(n));
  if (bad.length > 0) throw new ConfigError(`${setting}: unknown ${what} ${quoted(bad)}; the ${what}s are ${quoted(valid)}`);
}

/** Refuses (ConfigError) a selection that names a toolset or tool that does not exist. */
export function checkSelection(selection: Selection | SessionSelection, names: Record<keyof Selection, string> = SERVER_SETTING): void {
  checkNames(names.toolsets, selection.toolsets ?? [], TOOLSET_CHOICES, "toolset");
  checkNames(names.tools, selection.tools ?? [], TOOL_NAMES, "tool");
  checkNames(names.excludeTools, selection.excludeTools ?? [], TOOL_NAMES, "tool");
}

/** The tools the server's own settings select. */
export function serverTools(config: Selection, catalog: Catalog = toolModules): Set<string> {
  const chosen = toolsOf(config.toolsets ?? [DEFAULT_TOOLSET], catalog);
  for (const t of config.tools) chosen.add(t);
  for (const t of config.excludeTools) chosen.delete(t);
  return chosen;
}

/** The most a session may ask for (see the head of this file). */
export function sessionCeiling(config: Selection, catalog: Catalog = toolModules): Set<string> {
  if (config.toolsets) return serverTools(config, catalog);
  const all = toolsOf(["all"], catalog);
  for (const t of config.excludeTools) all.delete(t);
  return all;
}

/**
 * The tools of a session that asked for `session`: its toolsets (else the server's), plus the server's and its own
 * --tools, minus both exclusions, within the ceiling. Unknown names, or tools past the ceiling, are refused (ConfigError).
 */
export function sessionTools(config: Selection, session: SessionSelection, catalog: Catalog = toolModules): Set<string> {
  checkSelection(session, SESSION_SETTING);
  const ceiling = sessionCeiling(config, catalog);
  const sets = session.toolsets ?? config.toolsets ?? [DEFAULT_TOOLSET];
  const chosen = sets.includes("all") ? new Set(ceiling) : toolsOf(sets, catalog);
  for (const t of [...config.tools, ...(session.tools ?? [])]) chosen.add(t);
  for (const t of [...config.excludeTools, ...(session.excludeTools ?? [])]) chosen.delete(t);
  const past = [...chosen].filter((t) => !ceiling.has(t));
  // A toolset the session named may hold tools the server left out: that narrows quietly only when the server
  // limited its toolsets; a tool named one by one past the ceiling is refused.
  const pastByName = (session.tools ?? []).filter((t) => !ceiling.has(t));
  if (pastByName.length > 0) {
    throw new ConfigError(
      `${SESSION_SETTING.tools}: ${quoted(pastByName)} ${pastByName.length === 1 ? "is" : "are"} not offered by this server ` +
        `(its ${config.toolsets ? SERVER_SETTING.toolsets : SERVER_SETTING.excludeTools} leaves ${pastByName.length === 1 ? "it" : "them"} out); ` +
        `a session may choose among ${quoted([...ceiling])}`,
    );
  }
  for (const t of past) chosen.delete(t);
  return chosen;
}

/** The toolsets none of whose tools are on. */
export function toolsetsOff(active: ReadonlySet<string>, catalog: Catalog = toolModules): ToolsetName[] {
  return TOOLSET_NAMES.filter((set) => !catalog.some((t) => t.toolset === set && active.has(t.name)));
}

/**
 * Why `name`, a tool of the registry, is not on in this session, and how a person turns it on ("Nothing was done" +
 * next step). `overHttp`: whether a session may still widen to it with its headers.
 */
export function offRefusal(tool: Pick<ToolEntry, "name" | "toolset">, config: Selection, http: { ceiling: ReadonlySet<string> } | undefined): string {
  const { name, toolset: set } = tool;
  const excluded = config.excludeTools.includes(name);
  const why = excluded
    ? `${name} is not available: this server leaves it out (${SERVER_SETTING.excludeTools}).`
    : `${name} is not available: it is in the toolset "${set}", which is not on for this session.`;
  const ways = [];
  if (http?.ceiling.has(name)) {
    ways.push(`over HTTP, start a session with the header X-MCP-Toolsets: ${set} (or X-MCP-Tools: ${name}, or ?toolsets=${set} on the URL)`);
  }
  ways.push(
    excluded
      ? `restart the server without ${name} in ${SERVER_SETTING.excludeTools}`
      : `restart the server with --toolsets ${[...(config.toolsets ?? [DEFAULT_TOOLSET]), set].join(",")} (VECDB_TOOLSETS) or --tools ${name} (VECDB_TOOLS)`,
  );
  return `${why} Nothing was done.\nNext step: tell the user; to turn it on, ${ways.join("; or ")}.`;
}
