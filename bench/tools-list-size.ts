// The model-facing size of tools/list in each mode: for each tool, the tokens of JSON.stringify({name, description,
// inputSchema}) as the built server lists it, summed per mode; and the tokens of the initialize instructions. Modes:
// the lean default, each toolset alone, every toolset, every toolset with --allow-destructive, and read-only.
// Tokens are counted with gpt-tokenizer's o200k_base encoding (GPT-4o's); other models' tokenizers differ by some
// percent, so compare figures of one method.
// Run: npm run build && node --import tsx bench/tools-list-size.ts [--json] [--tools] (--tools: each tool's size, all on)
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { TOOLSET_NAMES } from "../tools/index.js";
import { serverBin } from "./lib.js";

const MODES: [mode: string, args: string[]][] = [
  ["default", []],
  ...TOOLSET_NAMES.map((set): [string, string[]] => [`--toolsets ${set}`, ["--toolsets", set]]),
  ["all", ["--toolsets", "all"]],
  ["all --allow-destructive", ["--toolsets", "all", "--allow-destructive"]],
  ["default --read-only", ["--read-only"]],
  ["all --read-only", ["--toolsets", "all", "--read-only"]],
];

interface ToolSize {
  tool: string;
  tokens: number;
  characters: number;
}

async function measure(args: string[], dataDir: string): Promise<{ rows: ToolSize[]; instructions: number }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverBin, ...args, "--data-dir", dataDir], stderr: "ignore" });
  const client = new Client({ name: "tools-list-size", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const rows = tools.map((t) => {
      const text = JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema });
      return { tool: t.name, tokens: countTokens(text), characters: text.length };
    });
    return { rows, instructions: countTokens(client.getInstructions() ?? "") };
  } finally {
    await client.close();
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), "vecdb-list-size-"));
try {
  const results = [];
  for (const [mode, args] of MODES) {
    const { rows, instructions } = await measure(args, dataDir);
    const total = rows.reduce((sum, r) => sum + r.tokens, 0);
    results.push({ mode, tools: rows.length, total, average: Math.round(total / rows.length), instructions, rows });
  }
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify(results) + "\n");
  } else {
    if (process.argv.includes("--tools")) {
      for (const r of results.find((m) => m.mode === "all --allow-destructive")!.rows) {
        process.stdout.write(`${r.tool.padEnd(24)} ${String(r.tokens).padStart(5)} tokens ${String(r.characters).padStart(6)} chars\n`);
      }
      process.stdout.write("\n");
    }
    process.stdout.write("| mode | tools | tokens | tokens a tool | instructions (tokens) |\n|---|---:|---:|---:|---:|\n");
    for (const m of results) process.stdout.write(`| ${m.mode} | ${m.tools} | ${m.total} | ${m.average} | ${m.instructions} |\n`);
    process.stdout.write("(o200k_base; targets: default ≤ 12 tools and ≤ 2,500 tokens, instructions ≤ 300, ≤ 250 tokens a tool)\n");
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
