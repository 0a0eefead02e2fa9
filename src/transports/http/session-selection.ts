// What a session asks for when it starts, by a header or the URL's query (as the GitHub MCP server does): the
// toolsets it wants, tools to add, tools to take away. Comma-separated names; a header wins over the query.
// src/mcp/tool-selection.ts checks the names and keeps the session within what the server allows.
import type { IncomingMessage } from "node:http";

export interface RequestedSelection {
  toolsets?: string[];
  tools?: string[];
  excludeTools?: string[];
}

const SOURCES = [
  ["toolsets", "x-mcp-toolsets", "toolsets"],
  ["tools", "x-mcp-tools", "tools"],
  ["excludeTools", "x-mcp-exclude-tools", "exclude_tools"],
] as const;

const names = (raw: string) => raw.split(",").map((n) => n.trim()).filter((n) => n !== "");

/** The selection this request asks for, or undefined when it asks for none. */
export function requestedSelection(req: IncomingMessage): RequestedSelection | undefined {
  const query = new URL(req.url ?? "/", "http://localhost").searchParams;
  const asked: RequestedSelection = {};
  for (const [field, header, param] of SOURCES) {
    const value = req.headers[header] ?? query.get(param) ?? undefined;
    if (value !== undefined) asked[field] = names(Array.isArray(value) ? value.join(",") : value);
  }
  return Object.keys(asked).length > 0 ? asked : undefined;
}
