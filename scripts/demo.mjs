// `npm run demo`: what a user came for, on the embedded local service, end to end.
// Spawns the built bin over stdio (no API key → the embedded local service in a fresh temporary data dir), then makes
// the calls an assistant would: remember a note and find it (the text path), index a small folder of documents and
// search it, then store vectors and query them. Prints each call and what the model reads (each result's text).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8"));
const bin = path.join(repoRoot, pkg.bin["vecdb-mcp"]);
const work = await mkdtemp(path.join(tmpdir(), "vecdb-demo-"));
const dataDir = path.join(work, "data");
const notesDir = path.join(work, "notes");

// The folder the demo indexes: three short notes, the way a person keeps them.
const NOTES = {
  "house/boiler.md": "# Boiler\n\nServiced every March by Priya (0161 496 0000). The pressure should read 1.2 bar when cold.\n\n## Faults\n\nIf it shows F22, top up the pressure at the filling loop under the boiler.\n",
  "car.md": "# Car\n\nNew tyres before the winter. The MOT is due on 14 October; the garage on Mill Lane does it.\n",
  "garden.txt": "Plant the garlic in November, the potatoes at Easter. The water butt drains through the tap at the back.\n",
};
for (const [name, text] of Object.entries(NOTES)) {
  await mkdir(path.dirname(path.join(notesDir, name)), { recursive: true });
  await writeFile(path.join(notesDir, name), text);
}

const transport = new StdioClientTransport({
  command: process.execPath,
  // Every toolset, so that each tool shown here is listed whatever the lean default holds; the notes folder may be read.
  args: [bin, "--toolsets", "all", "--allow-dir", notesDir],
  env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", VECDB_DATA_DIR: dataDir, VECDB_LOCAL_IDLE_S: "2" }, // the demo's service stops soon after it
  stderr: "inherit",
});
const client = new Client({ name: "vecdb-demo", version: pkg.version });
const out = (text) => process.stdout.write(text);

function say(heading, line) {
  out(`\n━━ ${heading}\n${line}\n`);
}

async function call(name, args = {}) {
  const shown = JSON.stringify(args);
  out(`\n▶ ${name} ${shown.length > 160 ? `${shown.slice(0, 157)}…` : shown}\n`);
  const result = await client.callTool({ name, arguments: args });
  for (const block of result.content) if (block.type === "text") out(`${block.text.replace(/^/gm, "  ")}\n`);
  if (result.isError) throw new Error(`${name} answered isError`);
  return result;
}

const started = Date.now();
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  out(`Connected to ${client.getServerVersion()?.name} on the embedded local service (data in ${dataDir}): ${tools.length} tools.\n`);
  out("Below, each call the assistant makes (▶) and, indented, the text the model reads back.\n");

  say("1. Remember a note", '"Make me a notes index, and remember: the boiler service is booked for 3 March; the engineer is Priya."');
  const textIndex = (name) => ({ name, cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } });
  await call("create_index_for_model", textIndex("notes"));
  await call("upsert_records", {
    index: "notes",
    records: [
      { _id: "boiler", text: "The boiler service is booked for 3 March; the engineer is called Priya.", topic: "house" },
      { _id: "car", text: "The car needs new tyres before the winter.", topic: "car" },
    ],
  });

  say("2. Find it", '"When is the boiler being serviced?"');
  await call("search_records", { index: "notes", query: { text: "When is the boiler being serviced?", topK: 2 } });

  say("3. A folder of notes", `"Index my notes folder (${notesDir}), then tell me what F22 on the boiler means."`);
  await call("create_index_for_model", textIndex("handbook"));
  await call("index_documents", { index: "handbook", paths: [notesDir] });
  await call("search_records", { index: "handbook", query: { text: "boiler shows F22", topK: 2 } });

  say("4. Vectors", '"I have embeddings of my own: store these three and find the nearest to mine."');
  await call("create_index", { name: "pantry", dimension: 3, metric: "cosine", serverless: { cloud: "aws", region: "us-east-1" } });
  await call("upsert_vectors", {
    index: "pantry",
    vectors: [
      { id: "apple", values: [0.9, 0.1, 0.0], metadata: { kind: "fruit", colour: "red" } },
      { id: "banana", values: [0.8, 0.3, 0.1], metadata: { kind: "fruit", colour: "yellow" } },
      { id: "carrot", values: [0.1, 0.9, 0.2], metadata: { kind: "vegetable", colour: "orange" } },
    ],
  });
  await call("query_vectors", { index: "pantry", vector: [1, 0.2, 0], topK: 2, includeMetadata: true });
  await call("list_indexes");

  out(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s. Add the server to your MCP client: README.md, "Add it to a client".\n`);
} finally {
  await client.close().catch(() => {});
  await rm(work, { recursive: true, force: true });
}
