// The model-facing size of tools/list: for each tool, the tokens of JSON.stringify({name, description, inputSchema})
// as the built server lists it with every tool on (--allow-destructive). Tokens are counted with gpt-tokenizer's
// o200k_base encoding (GPT-4o's); other models' tokenizers differ by some percent, so compare figures of one method.
// Run: npm run build && node --import tsx bench/tools-list-size.ts [--json]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { serverBin } from "./lib.js";

const dataDir = await mkdtemp(path.join(tmpdir(), "vecdb-list-size-"));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [serverBin, "--allow-destructive", "--data-dir", dataDir],
  stderr: "ignore",
});
const client = new Client({ name: "tools-list-size", version: "1.0.0" });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const rows = tools.map((t) => {
    const text = JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema });
    return { tool: t.name, tokens: countTokens(text), characters: text.length };
  });
  const total = rows.reduce((sum, r) => sum + r.tokens, 0);
  const average = Math.round(total / rows.length);
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify({ tools: rows.length, total, average, rows }) + "\n");
  } else {
    for (const r of rows) process.stdout.write(`${r.tool.padEnd(24)} ${String(r.tokens).padStart(5)} tokens ${String(r.characters).padStart(6)} chars\n`);
    process.stdout.write(`tools/list: ${rows.length} tools, ${total} tokens, ${average} tokens a tool on average (o200k_base; target ≤ 250)\n`);
  }
} finally {
  await client.close();
  await rm(dataDir, { recursive: true, force: true });
}
