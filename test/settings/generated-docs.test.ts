// The documentation written from the declarations (npm run docs) is what the declarations make today: a setting
// changed in src/settings.ts and not in docs/configuration.md, README, manifest.json or server.json fails here.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { allOutputs } from "../../scripts/generate/index.js";
import { applyOutputs, markerBlock } from "../../scripts/generate/output.js";
import { loadToolCatalog } from "../../src/mcp/tool-catalog.js";
import { DELETE_TOOLS } from "../../src/settings.js";
import { ROOT } from "../helpers/mcp-client.js";

const read = (path: string) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), "utf8") : undefined);

describe("generated documentation", () => {
  const files = applyOutputs(allOutputs(), read);

  test.each([...files.keys()])("%s is what npm run docs writes", (path) => {
    const file = files.get(path)!;
    expect(file.before, `${path} differs from the declarations: run npm run docs`).toBe(file.after);
  });

  test("a drifted block is caught and rewritten, the text around it kept", () => {
    const block = markerBlock("X.md", "settings", () => "| fresh |");
    const drifted = "before\n<!-- generated:settings -->\n| stale |\n<!-- /generated:settings -->\nafter\n";
    const out = block.update(drifted);
    expect(out).toBe("before\n<!-- generated:settings -->\n| fresh |\n<!-- /generated:settings -->\nafter\n");
    expect(out).not.toBe(drifted);
    expect(() => block.update("no markers\n")).toThrow("X.md has no <!-- generated:settings --> … <!-- /generated:settings --> block");
  });
});

test("the delete tools --allow-destructive adds are the ones the tool declarations mark so", async () => {
  const marked = (await loadToolCatalog()).filter((t) => t.requiresAllowDestructive).map((t) => t.name);
  expect([...DELETE_TOOLS].sort()).toEqual(marked.sort());
});
