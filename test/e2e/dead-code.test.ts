// The dead-code check: knip (knip.json names the entry points) finds no unused file, export, type or dependency.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { ROOT } from "../helpers/mcp-client.js";

test("knip finds no unused file, export, type or dependency", async () => {
  const knip = join(ROOT, "node_modules", "knip", "bin", "knip.js");
  const found = await promisify(execFile)(process.execPath, [knip, "--no-progress", "--reporter", "compact"], { cwd: ROOT }).then(
    () => "",
    (e: { stdout?: string; stderr?: string; message: string }) => e.stdout || e.stderr || e.message,
  );
  expect(found).toBe("");
});
