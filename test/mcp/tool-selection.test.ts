// The selection rules (src/mcp/tool-selection.ts) on the registry, and the size of what a model reads every turn with
// no setting: the lean default must stay within its budget however the tools' descriptions change.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, test } from "vitest";
import { ConfigError } from "../../src/config.js";
import { instructionsFor } from "../../src/mcp/instructions.js";
import { loadToolCatalog } from "../../src/mcp/tool-catalog.js";
import { checkSelection, serverTools, sessionCeiling, sessionTools, toolsetsOff } from "../../src/mcp/tool-selection.js";
import { TOOLSET_NAMES, toolModules } from "../../tools/index.js";

const none = { toolsets: undefined, tools: [], excludeTools: [] };
const sorted = (s: Set<string>) => [...s].sort();

describe("the server's selection", () => {
  test("every tool is in exactly one toolset, and all is every tool", () => {
    for (const t of toolModules) expect(TOOLSET_NAMES, t.name).toContain(t.toolset);
    expect(serverTools({ ...none, toolsets: ["all"] }).size).toBe(toolModules.length);
    const union = TOOLSET_NAMES.flatMap((set) => [...serverTools({ ...none, toolsets: [set] })]);
    expect(union.sort()).toEqual(toolModules.map((t) => t.name).sort());
  });

  test("unset is the lean default: the four asked-for tools and the text path", () => {
    const lean = serverTools(none);
    expect(lean.size).toBeLessThanOrEqual(12);
    for (const name of ["list_indexes", "list_collections", "create_collection", "upsert_vectors", "create_index_for_model", "upsert_records", "search_records", "index_documents"]) {
      expect(lean.has(name), name).toBe(true);
    }
  });

  test("--tools adds, --exclude-tools removes, after the toolsets", () => {
    const s = serverTools({ toolsets: ["imports"], tools: ["list_models"], excludeTools: ["cancel_bulk_import", "list_models"] });
    expect(sorted(s)).toEqual(["describe_bulk_import", "list_bulk_imports", "start_bulk_import"]);
  });

  test("unknown names are refused, naming the setting, the name and the valid names", () => {
    expect(() => checkSelection({ toolsets: ["texts"], tools: [], excludeTools: [] })).toThrow(ConfigError);
    expect(() => checkSelection({ toolsets: ["texts"], tools: [], excludeTools: [] })).toThrow(/^--toolsets \/ VECDB_TOOLSETS: unknown toolset "texts"; the toolsets are "default", "all", "text"/);
    expect(() => checkSelection({ ...none, excludeTools: ["nope"] })).toThrow(/^--exclude-tools \/ VECDB_EXCLUDE_TOOLS: unknown tool "nope"; the tools are "list_indexes"/);
  });

  test("toolsetsOff names the toolsets none of whose tools are on", () => {
    expect(toolsetsOff(serverTools(none))).toEqual(["documents", "namespaces", "inference", "backups", "imports", "transfer"]);
    expect(toolsetsOff(serverTools({ ...none, toolsets: ["all"] }))).toEqual([]);
  });
});

describe("a session's selection over HTTP", () => {
  test("without a server --toolsets, a session may widen to every toolset, less the server's --exclude-tools", () => {
    const config = { ...none, excludeTools: ["embed_texts"] };
    expect(sessionCeiling(config).has("list_backups")).toBe(true);
    expect(sorted(sessionTools(config, { toolsets: ["inference"] }))).toEqual(["list_models", "rerank_documents"]);
    expect(() => sessionTools(config, { tools: ["embed_texts"] })).toThrow(/is not offered by this server/);
  });

  test("with a server --toolsets, that set is the ceiling: all is the set, a toolset past it narrows to nothing", () => {
    const config = { ...none, toolsets: ["namespaces"] };
    expect(sorted(sessionTools(config, { toolsets: ["all"] }))).toEqual(sorted(serverTools(config)));
    expect(sessionTools(config, { toolsets: ["backups"] }).size).toBe(0);
    expect(sorted(sessionTools(config, { excludeTools: ["create_namespace"] }))).toEqual([
      "create_namespace_alias",
      "delete_namespace",
      "delete_namespace_alias",
      "describe_namespace",
      "describe_namespace_alias",
      "list_namespace_aliases",
      "list_namespaces",
      "repoint_namespace_alias",
    ]);
  });
});

describe("what the model reads every turn with no setting", () => {
  test("the lean default's tools/list is ≤ 2,500 tokens and its instructions ≤ 300 (o200k_base)", async () => {
    const catalog = await loadToolCatalog();
    const lean = serverTools(none);
    const tokens = catalog
      .filter((t) => lean.has(t.name) && !t.requiresAllowDestructive)
      .reduce((sum, t) => sum + countTokens(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.schemas.inputSchema })), 0);
    expect(tokens).toBeLessThanOrEqual(2500);
    const instructions = instructionsFor({ readOnly: false, allowDestructive: false, indexes: undefined }, lean);
    expect(countTokens(instructions)).toBeLessThanOrEqual(300);
    const everything = instructionsFor({ readOnly: false, allowDestructive: true, indexes: undefined }, serverTools({ ...none, toolsets: ["all"] }), true);
    expect(countTokens(everything)).toBeLessThanOrEqual(300);
  });

  test("the toolsets the lean default takes only some tools of are named, with the setting that brings the rest", () => {
    const instructions = instructionsFor({ readOnly: false, allowDestructive: false, indexes: undefined }, serverTools(none)).split("\n");
    expect(instructions).toContain("Partly on: text, vectors, indexes, collections (more of their tools with --toolsets default,text,vectors,indexes,collections).");
    const everything = instructionsFor({ readOnly: false, allowDestructive: false, indexes: undefined }, serverTools({ ...none, toolsets: ["all"] }));
    expect(everything).not.toContain("Partly on");
    const readOnly = instructionsFor({ readOnly: true, allowDestructive: false, indexes: undefined }, serverTools(none));
    expect(readOnly).not.toContain("Partly on");
  });

  test("every toolset lists at most 250 tokens a tool on average, with the delete tools too (o200k_base)", async () => {
    const catalog = await loadToolCatalog();
    for (const set of TOOLSET_NAMES) {
      const sizes = catalog
        .filter((t) => t.toolset === set)
        .map((t) => ({ destructive: t.requiresAllowDestructive === true, tokens: countTokens(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.schemas.inputSchema })) }));
      const average = (list: typeof sizes) => list.reduce((sum, s) => sum + s.tokens, 0) / list.length;
      expect(average(sizes.filter((s) => !s.destructive)), set).toBeLessThanOrEqual(250);
      expect(average(sizes), `${set} with --allow-destructive`).toBeLessThanOrEqual(250);
    }
  });
});
