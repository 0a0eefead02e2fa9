// `vecdb-mcp --help` and `vecdb-mcp serve --help`, written from the declarations (src/settings.ts).
import { allowedText, defaultText, GROUPS, settingsOf, type Command, type Setting } from "./settings.js";

const WIDTH = 118;
const COLUMN = 28;

const SYNOPSIS: Record<Command, string> = {
  mcp:
    "Usage: vecdb-mcp [options]                  the MCP server, on stdio (or Streamable HTTP with --http)\n" +
    "       vecdb-mcp serve --data-dir DIR [options]   the local service alone (vecdb-mcp serve --help)\n",
  serve:
    "Usage: vecdb-mcp serve --data-dir DIR [options]   the local service alone: the vector database API over HTTP, no MCP\n" +
    "       (one stderr line with its URL; the MCP server starts one of these by itself when it has no key)\n",
};

/** The one-line usage `vecdb-mcp serve` prints after a bad argument. */
export function serveSynopsis(): string {
  const parts = settingsOf("serve")
    .filter((s) => s.flag && s.key !== "dataDir")
    .map((s) => `[--${s.flag}${s.value ? ` ${s.value}` : ""}]${s.type === "dirs" ? "…" : ""}`);
  return `usage: vecdb-mcp serve --data-dir DIR ${parts.join(" ")}`;
}

/** The whole --help text of a command. */
export function helpText(command: Command, version: string): string {
  const settings = settingsOf(command);
  let out = `${SYNOPSIS[command]}\nSettings: a flag wins over its environment variable [in brackets]; an empty variable is unset.\n`;
  for (const group of GROUPS) {
    const inGroup = settings.filter((s) => s.group === group);
    if (inGroup.length === 0) continue;
    out += `\n${group}:\n`;
    for (const s of inGroup) out += entry(s, command);
  }
  out += `\n${entry0("--help", "show this text")}${entry0("--version", `print the version (${version})`)}`;
  return out;
}

function entry(s: Setting, command: Command): string {
  const name = s.flag ? `--${s.flag}${s.value ? ` ${s.value}` : ""}` : (s.env as string);
  const range = s.type === "integer" || s.type === "choice" ? `: ${allowedText(s)}` : "";
  const fallback = s.type === "switch" ? "" : defaultText(s, command);
  const env = s.flag && s.env ? ` [${s.env}${s.type === "switch" ? "=1" : ""}]` : "";
  return entry0(name, `${s.doc}${range}${fallback ? ` (default: ${fallback})` : ""}${env}`);
}

/** "  name      text", the text wrapped at WIDTH under its column. */
function entry0(name: string, text: string): string {
  const lines: string[] = [];
  let line = name.length + 3 > COLUMN ? `  ${name}\n${" ".repeat(COLUMN)}` : `  ${name}`.padEnd(COLUMN);
  let lineStart = line.lastIndexOf("\n") + 1;
  for (const word of text.split(" ")) {
    const current = line.length - lineStart;
    if (current > COLUMN && current + 1 + word.length > WIDTH) {
      lines.push(line);
      line = " ".repeat(COLUMN) + word;
      lineStart = 0;
    } else {
      line += (current > COLUMN ? " " : "") + word;
    }
  }
  lines.push(line);
  return `${lines.join("\n")}\n`;
}

