// The initialize result's instructions, assembled from the toolsets that are on (each carries its own sentence,
// tools/index.ts), workflow first: the text path before the vector path. They name only tools that are on, the
// toolsets that are off and how a person turns them on, and the safe modes in force.
import type { Access } from "./access.js";
import { toolModules, toolsets } from "../../tools/index.js";
import { toolsetsOff } from "./tool-selection.js";

/** `sessionsMayWiden`: over HTTP, with no server --toolsets, a session may turn toolsets on with a header. */
export function instructionsFor(config: Access & { toolsets?: readonly string[] }, offered: ReadonlySet<string>, sessionsMayWiden = false): string {
  const has = (name: string) => offered.has(name);
  const lines = ["Administer and fill a vector database (Pinecone-compatible API)."];
  if (has("list_indexes")) lines.push("Start with list_indexes to see what exists.");
  for (const set of toolsets) {
    if (toolModules.some((t) => t.toolset === set.name && has(t.name))) lines.push(set.sentence(has));
  }
  const off = toolsetsOff(offered);
  // Toolsets the lean default takes a few tools from (vectors: upsert_vectors only): the model should know the rest
  // exists. Under --read-only the rest may be writers that cannot be turned on, so nothing is said.
  const partly = config.readOnly
    ? []
    : toolsets
        .map((set) => set.name)
        .filter((name) => !off.includes(name) && toolModules.some((t) => t.toolset === name && !has(t.name) && !t.name.startsWith("delete_")));
  if (partly.length > 0) {
    lines.push(`Partly on: ${partly.join(", ")} (more of their tools with --toolsets ${[...(config.toolsets ?? ["default"]), ...partly].join(",")}).`);
  }
  if (off.length > 0) {
    const purposes = off.map((name) => `${name} (${toolsets.find((s) => s.name === name)!.purpose})`).join(", ");
    lines.push(
      `Off: ${purposes}. A person turns toolsets on with --toolsets ${[...(config.toolsets ?? ["default"]), off[0]].join(",")} or all (VECDB_TOOLSETS)` +
        (sessionsMayWiden ? ", or for one session with the X-MCP-Toolsets header" : "") +
        ".",
    );
  }
  if (config.readOnly) lines.push("This server is READ-ONLY: it can list and read, but not write, create or delete anything.");
  if (config.indexes) {
    lines.push(
      `This server is LIMITED to the indexes ${config.indexes.map((n) => JSON.stringify(n)).join(", ")}: other indexes are not shown and calls naming them are refused.`,
    );
  }
  // The delete tools are named in their toolsets' sentences above.
  if (!config.readOnly && config.allowDestructive && toolModules.some((t) => t.name.startsWith("delete_") && has(t.name))) {
    lines.push("Deleting is enabled and cannot be undone: confirm with the user before any delete_ call.");
  }
  lines.push(
    "Results give the same facts as markdown and structuredContent, within a token budget; past it, a note names what was " +
      "left out and the call that gets it. Errors name the next step.",
  );
  return lines.join("\n");
}
