// Prints {toolName: {inputSchema, outputSchema}} for every tool of the registry, converted exactly as the server
// converts them when it has none prebuilt (src/mcp/tool-schemas.ts). Run by scripts/bundle.mjs on the tsc output.
import { tools } from "../dist/tools/index.js";
import { toolJsonSchemas } from "../dist/src/mcp/tool-schemas.js";

const out = {};
for (const tool of tools) out[tool.name] = toolJsonSchemas(tool);
process.stdout.write(JSON.stringify(out));
