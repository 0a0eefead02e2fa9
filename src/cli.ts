#!/usr/bin/env node
// The bin. `vecdb-mcp serve …` runs the embedded local service alone; anything else runs the MCP server.
// Each branch is imported lazily so that the MCP server's start does not load the local service's storage.
const [command, ...rest] = process.argv.slice(2);

if (command === "serve") {
  const { runServeCommand } = await import("./serve-main.js");
  await runServeCommand(rest);
} else {
  (await import("./mcp/zod-jit.js")).startWithoutJit(); // before the SDK builds its schemas (zod-jit.ts says why)
  const { runMcpCommand } = await import("./main.js");
  await runMcpCommand(process.argv.slice(2));
}
