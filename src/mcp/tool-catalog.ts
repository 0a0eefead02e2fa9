// The tools as the server lists them, without their modules. A tool module holds the tool's zod schemas and its
// run; evaluating all of them (with the zod schemas they build) was most of what a cold start spent beyond Node and
// the SDK. So the server starts from each tool's declaration (tool-schemas.ts: name, description, annotations, the
// safe-mode flags and the JSON Schemas tools/list shows), and a tool's module is loaded when it is first called.
// The bundle carries the declarations, written at build time from the modules themselves (scripts/tool-catalog.mjs)
// into a JSON file beside its chunks;
// without them (the tsc build, tests from source) every module is loaded here and declared once, as the build does.
// test/mcp/tool-catalog.test.ts fails if what the bundle lists drifts from what the modules declare.
import { readFileSync } from "node:fs";
import type { McpServer, Tool } from "@modelcontextprotocol/server";
import { resultSizeChars, type AnyTool } from "../tool-kit/tool.js";
import type { ToolDeclaration } from "./tool-schemas.js";
import { toolModules, type ToolEntry, type ToolModule } from "../../tools/index.js";
import { jitFromNowOn } from "./zod-jit.js";

/** A tool of the registry: what it declares, its toolset, and its definition, loaded on first use. */
export type LazyTool = ToolDeclaration & Pick<ToolEntry, "toolset" | "inDefault"> & {
  /** The tool's module, loaded once (again after a failed load). */
  load(): Promise<AnyTool>;
};

/** The file of declarations beside the bundle's chunks (its name carries a hash of its content, as the chunks' do). */
declare const __VECDB_TOOL_CATALOG_FILE__: string | undefined;

let catalog: Promise<readonly LazyTool[]> | undefined;

/** Every tool of the registry, in its order (tools/index.ts). */
export function loadToolCatalog(): Promise<readonly LazyTool[]> {
  catalog ??= declarations().then((declared) => {
    const byName = new Map(declared.map((d) => [d.name, d]));
    return toolModules.map(({ name, toolset, inDefault, load }) => {
      const declaration = byName.get(name);
      if (!declaration) throw new Error(`the build declares no tool ${name}: rebuild (npm run build)`);
      return lazyTool({ ...declaration, toolset, inDefault }, load);
    });
  });
  return catalog;
}

/** The build's declarations, or else each module's own. */
async function declarations(): Promise<readonly ToolDeclaration[]> {
  // Read as JSON, not carried in the code: V8 scans a 140 KB string literal in code several times slower than
  // JSON.parse reads the file (about 7 ms of CPU in a cold start).
  if (typeof __VECDB_TOOL_CATALOG_FILE__ === "string") {
    return JSON.parse(readFileSync(new URL(__VECDB_TOOL_CATALOG_FILE__, import.meta.url), "utf8")) as ToolDeclaration[];
  }
  const { declareTool } = await import("./tool-schemas.js"); // the zod → JSON Schema conversion, kept off the bundle's startup path
  return Promise.all(toolModules.map(async ({ load }) => declareTool((await load()).default)));
}

/** A declared tool whose module `module` loads. */
export function lazyTool(declaration: ToolDeclaration & Pick<ToolEntry, "toolset" | "inDefault">, module: ToolModule): LazyTool {
  let loaded: Promise<AnyTool> | undefined;
  const load = async () => {
    jitFromNowOn(); // the tool's argument schemas parse big calls (zod-jit.ts)
    const tool = (await module()).default;
    if (tool.name !== declaration.name) throw new Error(`tools/index.ts names ${declaration.name} a module that defines ${tool.name}`);
    return tool;
  };
  return {
    ...declaration,
    load: () => (loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    })),
  };
}

/** The entry of one tool in tools/list, in the shape (and key order) the SDK's own handler gives. */
function listedTool(t: ToolDeclaration, maxResultTokens?: number): Record<string, unknown> {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.schemas.inputSchema,
    annotations: { title: t.title, ...t.annotations },
    execution: { taskSupport: "forbidden" }, // what registerTool records for a plain (non-task) tool
    ...(t.budgetedResult && maxResultTokens !== undefined && { _meta: { "anthropic/maxResultSizeChars": resultSizeChars(maxResultTokens) } }),
    ...(t.schemas.outputSchema && { outputSchema: t.schemas.outputSchema }),
  };
}

/** Answers tools/list from the declarations (no module is loaded for it). */
export function answerToolsList(server: McpServer, offered: readonly ToolDeclaration[], maxResultTokens?: number): void {
  let tools: Tool[] | undefined;
  server.server.setRequestHandler("tools/list", () => {
    tools ??= offered.map((t) => listedTool(t, maxResultTokens) as Tool);
    return { tools };
  });
}
