// Prints the declaration of every tool of the registry (src/mcp/tool-schemas.ts: all of its definition but run and
// the zod schemas, which become the JSON Schemas tools/list shows), in the registry's order, made exactly as the
// server makes them when the build carries none (src/mcp/tool-catalog.ts). scripts/bundle.mjs bundles this from the
// sources and runs it, and the bundle carries what it prints, so that no tool module is loaded before its tool is
// first called. By hand: `node --import tsx scripts/tool-catalog.mjs`.
import { loadToolCatalog } from "../src/mcp/tool-catalog.js";

const tools = await loadToolCatalog();
// The toolset and default mark come from tools/index.ts itself, in the bundle as in the sources.
process.stdout.write(JSON.stringify(tools.map(({ load: _load, toolset: _toolset, inDefault: _inDefault, ...declaration }) => declaration)));
