// The house rules of the MCP surface, checked on its source: tools know nothing of MCP plumbing, nothing but
// config.ts reads process.env, and nothing writes to stdout except the transport (and --help).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "../helpers/mcp-client.js";

const MINE = ["src/config.ts", "src/main.ts", "src/server.ts", "src/errors.ts", "src/log.ts", "src/tool.ts", "src/schema.ts", "src/stdio-transport.ts"];
const TOOLS = readdirSync(join(ROOT, "tools")).filter((f) => f.endsWith(".ts")).map((f) => `tools/${f}`);
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");
const code = (f: string) => read(f).replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");

test("tools import nothing from the MCP SDK and no other tool (except the registry)", () => {
  for (const f of TOOLS) {
    expect(code(f), f).not.toMatch(/@modelcontextprotocol/);
    if (f !== "tools/index.ts") expect(code(f), f).not.toMatch(/from "\.\/[^"]+"/);
  }
});

test("process.env is read in src/config.ts only", () => {
  for (const f of [...MINE, ...TOOLS].filter((f) => f !== "src/config.ts")) expect(code(f), f).not.toMatch(/process\.env/);
});

test("no console.log; stdout is written by the transport (and --help) only", () => {
  for (const f of [...MINE, ...TOOLS]) {
    expect(code(f), f).not.toMatch(/console\.(log|info)/);
    if (f !== "src/stdio-transport.ts" && f !== "src/main.ts") expect(code(f), f).not.toMatch(/process\.stdout/);
  }
  expect(code("src/main.ts").match(/process\.stdout/g)).toHaveLength(1); // the --help text
});

test("every tool file exports one definition, registered in tools/index.ts", () => {
  const registry = read("tools/index.ts");
  for (const f of TOOLS.filter((f) => f !== "tools/index.ts")) {
    expect(code(f).match(/export default defineTool\(/g), f).toHaveLength(1);
    expect(registry, f).toContain(`from "./${f.slice("tools/".length, -3)}.js"`);
  }
});

test("src/local imports nothing from the client side, only src/shared; src/shared imports nothing of the project", () => {
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith(".ts") ? [`${dir}/${e.name}`] : []));
  const local = files("src/local");
  expect(local.length).toBeGreaterThan(10);
  for (const f of local) {
    for (const [, spec] of code(f).matchAll(/from "(\.[^"]+)"/g)) {
      const target = join(f, "..", spec).split("\\").join("/");
      expect(target.startsWith("src/local/") || target.startsWith("src/shared/"), `${f} imports ${spec}`).toBe(true);
    }
  }
  for (const f of files("src/shared")) expect(code(f), f).not.toMatch(/from "\./);
});
