// `npm run demo`: the server's main job on the embedded local service, shown end to end.
// Spawns the built bin over stdio (no API key → embedded local service in a fresh temporary data dir), then
// calls the tools an assistant would: list_indexes, create_index, upsert_vectors, query_vectors, list_indexes.
// Prints what the model would read (each result's markdown table).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8"));
const bin = path.join(repoRoot, pkg.bin["vecdb-mcp"]);
const dataDir = await mkdtemp(path.join(tmpdir(), "vecdb-demo-"));

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, "--toolsets", "all"], // the demo calls tools outside the lean default
  env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", VECDB_DATA_DIR: dataDir, VECDB_LOCAL_IDLE_S: "2" }, // the demo's service stops soon after it
  stderr: "inherit",
});
const client = new Client({ name: "vecdb-demo", version: pkg.version });

async function call(name, args = {}) {
  process.stdout.write(`\n▶ ${name} ${JSON.stringify(args).slice(0, 120)}\n`);
  const result = await client.callTool({ name, arguments: args });
  for (const block of result.content) if (block.type === "text") process.stdout.write(`${block.text}\n`);
  if (result.isError) throw new Error(`${name} answered isError`);
  return result;
}

try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  process.stdout.write(`Connected to ${client.getServerVersion()?.name}: ${tools.length} tools — ${tools.map((t) => t.name).join(", ")}\n`);
  await call("list_indexes");
  await call("create_index", { name: "demo", dimension: 3, metric: "cosine", serverless: { cloud: "aws", region: "us-east-1" } });
  await call("upsert_vectors", {
    index: "demo",
    vectors: [
      { id: "apple", values: [0.9, 0.1, 0.0], metadata: { kind: "fruit", colour: "red" } },
      { id: "banana", values: [0.8, 0.3, 0.1], metadata: { kind: "fruit", colour: "yellow" } },
      { id: "carrot", values: [0.1, 0.9, 0.2], metadata: { kind: "vegetable", colour: "orange" } },
    ],
  });
  await call("query_vectors", { index: "demo", vector: [1, 0.2, 0], topK: 2, includeMetadata: true });
  await call("list_indexes");
  process.stdout.write("\nThe server works. Add it to your MCP client with the snippet in README.md.\n");
} finally {
  await client.close().catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}
