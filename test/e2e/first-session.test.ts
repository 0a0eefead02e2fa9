// A model's first session on an empty project (the embedded local service, a fresh data dir, no settings): it picks
// its tools only from what tools/list and the instructions say. "Remember this note", then "find it", must take at
// most 3 calls — the path the instructions give for text, in their order.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";

let dataDir: string;
let mcp: McpSession;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "vecdb-first-session-"));
  mcp = await startMcp({ env: {}, args: ["--local", "--data-dir", dataDir], asGiven: true });
});
afterAll(async () => {
  await mcp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The tools the instructions' sentence for a task names, in its order, that tools/list has. */
function pathFor(task: string): string[] {
  const sentence = (mcp.client.getInstructions() ?? "").split("\n").find((line) => line.startsWith(task));
  expect(sentence, `the instructions have a sentence for "${task}"`).toBeDefined();
  const listed = new Set(mcp.tools.map((t) => t.name));
  return [...sentence!.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map(([name]) => name).filter((name) => listed.has(name));
}

test('"remember this note" then "find it": three calls, on the path the instructions give for text', async () => {
  const path = pathFor("To remember and find text:");
  expect(path.slice(0, 3)).toEqual(["create_index_for_model", "upsert_records", "search_records"]);
  // The model the instructions name for an index that needs no account.
  expect(mcp.client.getInstructions()).toContain("local-bm25");
  const calls: string[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    calls.push(name);
    const r = await mcp.call(name, args);
    expect(r.isError, `${name}: ${r.text}`).toBe(false);
    return r;
  };

  await call(path[0], { name: "notes", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", fieldMap: { text: "text" } } });
  await call(path[1], { index: "notes", records: [{ _id: "note-1", text: "The dentist appointment moved to Thursday at 3 pm." }] });
  const found = await call(path[2], { index: "notes", query: { text: "when is the dentist appointment", topK: 3 } });

  expect(calls).toHaveLength(3);
  expect(found.text).toContain("note-1");
  expect(found.text).toContain("The dentist appointment moved to Thursday at 3 pm.");
});

test("the instructions do not send text to the vector path: the vector sentence says it is not for text, and comes after", () => {
  const text = mcp.client.getInstructions() ?? "";
  expect(text.indexOf("To remember and find text:")).toBeGreaterThan(-1);
  expect(text.indexOf("To remember and find text:")).toBeLessThan(text.indexOf("To store your own embeddings (not for text):"));
});

test("an empty answer in the default set names no tool that is off", async () => {
  const listed = new Set(mcp.tools.map((t) => t.name));
  const r = await mcp.call("search_records", { index: "notes", namespace: "elsewhere", query: { text: "dentist", topK: 3 } });
  expect(r.text).toMatch(/^No records found in /);
  for (const name of r.text.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []) expect(listed.has(name), `${name} is named but off`).toBe(true);
  expect(r.text).not.toContain("describe_index_stats");
});
