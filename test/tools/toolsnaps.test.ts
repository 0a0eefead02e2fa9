// Every tool's schema as the built server lists it (tools/list with every toolset on and --allow-destructive): name,
// title, description, inputSchema, outputSchema, annotations, _meta, one pretty-printed file per tool in
// test/tools/__toolsnaps__/<tool>.json. A change to what a model reads about a tool shows in review as a change to
// its file. After an intended change, rebuild and update the files, then commit them with the change:
//   npm run build && npx vitest run test/tools/toolsnaps.test.ts -u
// With CI=true vitest writes no missing file, so a new tool fails until its snapshot is committed. A snapshot left
// for a tool that is no longer listed fails too: delete its file.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { toolModules } from "../../tools/index.js";

const SNAPS = join(import.meta.dirname, "__toolsnaps__");
const ENV = { PINECONE_API_KEY: "toolsnaps-test-key", PINECONE_CONTROLLER_HOST: "http://127.0.0.1:9" };

let session: McpSession;
beforeAll(async () => {
  session = await startMcp({ env: ENV, args: ["--toolsets", "all", "--allow-destructive"] });
});
afterAll(async () => {
  await session?.close();
});

const listed = (name: string): Tool | undefined => session.tools.find((t) => t.name === name);

describe("each tool's listed schema matches its snapshot", () => {
  test("the server lists every tool of the registry", () => {
    expect(session.tools.map((t) => t.name).sort()).toEqual(toolModules.map((m) => m.name).sort());
  });

  for (const { name } of toolModules) {
    test(name, async () => {
      const tool = listed(name);
      expect(tool, `${name} is not listed`).toBeDefined();
      const { title, description, inputSchema, outputSchema, annotations, _meta } = tool!;
      const snapshot = { name, title, description, inputSchema, outputSchema, annotations, _meta };
      await expect(JSON.stringify(snapshot, null, 2) + "\n").toMatchFileSnapshot(join(SNAPS, `${name}.json`));
    });
  }

  test("no snapshot is left for a tool that is no longer listed", () => {
    const stale = readdirSync(SNAPS)
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -".json".length))
      .filter((name) => !listed(name));
    expect(stale, "delete these files from test/tools/__toolsnaps__/").toEqual([]);
  });
});
