// The house rules of the layout, checked on the source: what each folder may import (docs/architecture.md
// says why), no import cycles, nothing but src/config.ts reads process.env, and nothing writes to stdout
// except the stdio transport (and --help).
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT } from "../helpers/mcp-client.js";

const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith(".ts") ? [`${dir}/${e.name}`] : [],
  );
const SOURCES = [...files("src"), ...files("tools")];
const TOOLS = files("tools");
const code = (f: string) => readFileSync(join(ROOT, f), "utf8").replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");

/** Every relative import of a file (static, type-only and dynamic), as repository paths ending in .ts. */
function importsOf(f: string): string[] {
  return [...code(f).matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map(([, spec]) =>
    posix.normalize(posix.join(posix.dirname(f), spec)).replace(/\.js$/, ".ts"),
  );
}

/** The room a file lives in: a folder of src/ (or tools/), or "process" for the files at src/'s root. */
function room(f: string): string {
  if (f === "tools/index.ts") return "registry";
  if (f.startsWith("tools/")) return "tools";
  const parts = f.split("/");
  return parts.length === 2 ? "process" : parts[1];
}

/** What each room may import besides itself. The process (cli, main, config, log, shutdown) may import anything. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  common: [],
  local: ["common"],
  api: ["common"],
  ingest: ["api", "common"],
  "tool-kit": ["api", "ingest", "common", "process"],
  tools: ["tool-kit", "api", "ingest", "common"],
  registry: ["tools", "tool-kit"],
  mcp: ["registry", "tool-kit", "api", "ingest", "common", "process"],
  transports: ["common", "process"],
};

describe("import rules by folder", () => {
  for (const [from, allowed] of Object.entries(MAY_IMPORT)) {
    test(`${from} imports only ${[from, ...allowed].join(", ")}`, () => {
      const inRoom = SOURCES.filter((f) => room(f) === from);
      expect(inRoom.length, from).toBeGreaterThan(0);
      for (const f of inRoom) {
        for (const target of importsOf(f)) {
          const to = room(target);
          expect(to === from || allowed.includes(to), `${f} imports ${target}`).toBe(true);
          // The process files another room may use: the settings, the logger, the once-only shutdown, the package version; never main or cli.
          if (to === "process") expect(["src/config.ts", "src/log.ts", "src/shutdown.ts", "src/package-version.ts"], `${f} imports ${target}`).toContain(target);
        }
      }
    });
  }

  test("no import cycles between files", () => {
    const graph = new Map(SOURCES.map((f) => [f, importsOf(f)]));
    const state = new Map<string, "open" | "done">();
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === "done") return;
      if (state.get(f) === "open") throw new Error(`import cycle: ${[...path.slice(path.indexOf(f)), f].join(" → ")}`);
      state.set(f, "open");
      for (const next of graph.get(f) ?? []) visit(next, [...path, f]);
      state.set(f, "done");
    };
    for (const f of SOURCES) visit(f, []);
  });
});

/**
 * The local service's layers, lowest first (docs/architecture.md): each imports only the layers below it — storage
 * (lmdb) neither memory, engine nor HTTP; memory (the records loaded from it) not the engine or HTTP; the engine (the
 * plan, filters, scoring) not HTTP, the only layer that knows the wire's error shapes.
 */
const LOCAL_LAYERS: [string, string[]][] = [
  ["storage", ["src/local/storage/"]],
  ["memory", ["src/local/memory/"]],
  ["engine", ["src/local/search/"]],
  ["HTTP", ["src/local/data/", "src/local/control/"]],
];
const layerOf = (f: string) => LOCAL_LAYERS.findIndex(([, dirs]) => dirs.some((d) => f.startsWith(d)));

describe("the local service's layers depend downward only", () => {
  for (const [i, [layer, dirs]] of LOCAL_LAYERS.entries()) {
    const above = LOCAL_LAYERS.slice(i + 1).map(([name]) => name);
    if (above.length === 0) continue;
    test(`${layer} (${dirs.join(", ")}) imports nothing of ${above.join(", ")}`, () => {
      const inLayer = SOURCES.filter((f) => layerOf(f) === i);
      expect(inLayer.length, layer).toBeGreaterThan(0);
      for (const f of inLayer) for (const target of importsOf(f)) expect(layerOf(target) <= i, `${f} imports ${target}`).toBe(true);
    });
  }

  test("the engine throws no HTTP error: its refusals are domain errors the HTTP layer maps", () => {
    for (const f of SOURCES.filter((f) => layerOf(f) >= 0 && layerOf(f) < 3)) expect(code(f), f).not.toMatch(/DataPlaneError|ControlError|\bstatus: \d{3}/);
  });
});

test("tools import nothing from the MCP SDK and no other tool (except the registry)", () => {
  for (const f of TOOLS) {
    expect(code(f), f).not.toMatch(/@modelcontextprotocol/);
    if (f !== "tools/index.ts") expect(importsOf(f).filter((t) => t.startsWith("tools/")), f).toEqual([]);
  }
});

test("process.env is read in src/config.ts only", () => {
  for (const f of SOURCES.filter((f) => f !== "src/config.ts")) expect(code(f), f).not.toMatch(/process\.env/);
});

test("no console.log; stdout is written by the stdio transport (and --help) only", () => {
  for (const f of SOURCES) {
    expect(code(f), f).not.toMatch(/console\.(log|info)/);
    if (f !== "src/transports/stdio.ts" && f !== "src/main.ts") expect(code(f), f).not.toMatch(/process\.stdout/);
  }
  expect(code("src/main.ts").match(/process\.stdout/g)).toHaveLength(1); // the --help text
});

test("every tool file exports one definition, registered in tools/index.ts under its name and its toolset, and loaded lazily", () => {
  const registry = code("tools/index.ts");
  const tools = TOOLS.filter((f) => f !== "tools/index.ts");
  expect(tools.length).toBeGreaterThan(10);
  for (const f of tools) {
    expect(f.split("/"), `${f} sits in a folder named by what it acts on`).toHaveLength(3);
    expect(code(f).match(/export default defineTool\(/g), f).toHaveLength(1);
    // Nothing else: the registry loads a tool's module whole, so the dead-code check cannot see what else it exports.
    expect(code(f).match(/^export /gm), f).toHaveLength(1);
    // Only by a dynamic import: a tool module is evaluated on its tool's first call, not at start (src/mcp/tool-catalog.ts).
    const name = f.slice(f.lastIndexOf("/") + 1, -3);
    expect(registry, f).toContain(`tool("${name}", "`);
    expect(registry, f).toMatch(new RegExp(`tool\\("${name}", "[a-z]+", \\(\\) => import\\("\\./${f.slice("tools/".length, -3)}\\.js"\\)`));
  }
  expect(registry).not.toMatch(/^import (?!type )/m);
});

test("src/common imports nothing of the project", () => {
  for (const f of files("src/common")) expect(code(f), f).not.toMatch(/from "\./);
});
