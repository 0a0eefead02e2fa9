// `npm run docs`: rewrites the generated documentation from the declarations (scripts/generate/index.ts lists what).
//   --check   writes nothing; lists the files that differ and exits 1 if any does.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { allOutputs } from "./generate/index.js";
import { applyOutputs } from "./generate/output.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const files = applyOutputs(allOutputs(), (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined));
const changed = [...files].filter(([, f]) => f.before !== f.after);
for (const [path, f] of changed) {
  if (check) process.stdout.write(`${path} differs from what the declarations make (npm run docs)\n`);
  else writeFileSync(join(root, path), f.after);
}
if (!check) process.stdout.write(changed.length ? `wrote ${changed.map(([p]) => p).join(", ")}\n` : "nothing to change\n");
if (check && changed.length) process.exitCode = 1;
