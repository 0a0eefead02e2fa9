// What is written about the tools — docs/tools.md, the README's tools block, manifest.json's tool list — is what
// scripts/generate/tools.ts makes of the declarations now: a tool added, renamed, moved to another toolset or
// described anew without `npm run docs` fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { generatedFiles } from "../../scripts/generate/tools.js";
import { toolModules } from "../../tools/index.js";
import { root } from "./helpers.js";

const files = await generatedFiles(root);

test.each(files.map((f) => [f.path, f.content]))("%s is as the declarations make it (npm run docs)", (path, content) => {
  expect(readFileSync(join(root, path), "utf8"), `${path} drifted from the tool declarations: run npm run docs`).toBe(content);
});

test("docs/tools.md has one entry per tool, with its toolset, arguments, an example call and what it answers", () => {
  const doc = files.find((f) => f.path === "docs/tools.md")!.content;
  for (const { name, toolset } of toolModules) {
    const entry = doc.split(`### \`${name}\`\n`)[1]?.split("\n### ")[0];
    expect(entry, name).toBeDefined();
    expect(entry, name).toContain(`Toolset \`${toolset}\``);
    expect(entry, name).toContain(`{"name":"${name}","arguments":`);
    expect(entry, name).toContain("Answers with");
  }
  expect(doc.match(/^### /gm)).toHaveLength(toolModules.length);
});
