// `node --import ./bench/conformance-node20.mjs …`: lets the official conformance suite (@modelcontextprotocol/conformance,
// built for Node 22) run on Node 20, where node:fs has no globSync. The suite uses it once, to find its own
// checks.json files under a directory; this hook gives it a small equivalent. Nothing else is changed.
import { register } from "node:module";

if (!("globSync" in (await import("node:fs")))) {
  register(
    "data:text/javascript," +
      encodeURIComponent(`
export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (!/@modelcontextprotocol\\/conformance\\/dist\\/index\\.js$/.test(url)) return loaded;
  let source = String(loaded.source);
  const m = /globSync as (\\w+),/.exec(source);
  if (!m) return loaded;
  source = source.replace(m[0], "");
  const glob = "import * as __vecdbFs from 'node:fs'; function " + m[1] + "(pattern, { cwd }) { const name = pattern.split('/').pop(); const out = []; " +
    "const walk = (dir, rel) => { for (const e of __vecdbFs.readdirSync(dir, { withFileTypes: true })) { const r = rel ? rel + '/' + e.name : e.name; " +
    "if (e.isDirectory()) walk(dir + '/' + e.name, r); else if (e.name === name) out.push(r); } }; walk(cwd, ''); return out; }";
  const newline = source.startsWith("#!") ? source.indexOf("\\n") + 1 : 0;
  return { ...loaded, source: source.slice(0, newline) + glob + "\\n" + source.slice(newline) };
}`),
  );
}
