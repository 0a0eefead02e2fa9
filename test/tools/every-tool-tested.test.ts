// Every tool of the registry has its tests where a reviewer looks for them: a file test/tools/<folder>/<tool>.test.ts
// (or <tool>-<aspect>.test.ts), where <folder> is the folder of tools/ that holds the tool's module or the tool's
// toolset, or a describe under one of those folders whose title names the tool.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "../helpers/bundle.js";
import { toolModules } from "../../tools/index.js";

const TOOLS = join(ROOT, "tools");
const TESTS = join(ROOT, "test", "tools");

/** The folder of tools/ holding `<name>.ts`. */
function folderOf(name: string): string | undefined {
  return readdirSync(TOOLS, { withFileTypes: true }).find((d) => d.isDirectory() && existsSync(join(TOOLS, d.name, `${name}.ts`)))?.name;
}

const testFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".test.ts")) : []);

/** The titles of every describe in a file, as written. */
function describeTitles(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/\bdescribe(?:\.\w+)*\(\s*(["'`])(.*?)\1/g)].map((m) => m[2]);
}

const names = (title: string, tool: string) => new RegExp(`(?<![a-z_])${tool}(?![a-z_])`).test(title);

function whereTested(tool: string, toolset: string): string[] {
  const dirs = [...new Set([folderOf(tool), toolset].filter((d): d is string => d !== undefined))];
  const found: string[] = [];
  for (const dir of dirs) {
    for (const file of testFiles(join(TESTS, dir))) {
      const path = `test/tools/${dir}/${file}`;
      if (file === `${tool}.test.ts` || file.startsWith(`${tool}-`)) found.push(path);
      else if (describeTitles(join(TESTS, dir, file)).some((t) => names(t, tool))) found.push(path);
    }
  }
  return found;
}

test("every tool's module is in a folder of tools/", () => {
  expect(toolModules.filter((t) => folderOf(t.name) === undefined).map((t) => t.name)).toEqual([]);
});

test("every tool has a test file, or a describe naming it, under test/tools/<its folder or toolset>/", () => {
  const untested = toolModules.filter((t) => whereTested(t.name, t.toolset).length === 0).map((t) => `${t.name} (tools/${folderOf(t.name)}/, toolset ${t.toolset})`);
  expect(untested).toEqual([]);
});

test("a file named by a tool is found for it, and a describe that names it elsewhere only by its whole name", () => {
  expect(whereTested("upsert_vectors", "vectors")).toContain("test/tools/vectors/upsert_vectors.test.ts");
  expect(whereTested("create_index", "indexes")).toContain("test/tools/indexes/create_index.test.ts");
  expect(whereTested("create_index", "indexes")).not.toContain("test/tools/indexes/create_index_for_model.test.ts");
  expect(names("create_index_for_model and list_indexes", "create_index")).toBe(false);
  expect(names("namespaces: create_namespace, list_namespaces", "list_namespaces")).toBe(true);
});
