// The process's shutdown has a deadline: a step that never finishes, or file-system threads stuck in an open() that
// never returns (a FIFO with no writer), cannot keep the process alive after stdin closes or SIGTERM.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "vecdb-shutdown-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shutdownModule = pathToFileURL(join(import.meta.dirname, "../../src/shutdown.ts")).href;

/** Runs `body` in a child (tsx) that then shuts down; resolves with how long the child took to end after that, and how. */
function runChild(body: string): Promise<{ ms: number; code: number | null; signal: string | null; stderr: string }> {
  const code = `import { shutdownOnce } from ${JSON.stringify(shutdownModule)};
    const log = { debug() {}, info() {}, warning: (m) => process.stderr.write(m + "\\n"), error() {} };
    ${body}
    process.stderr.write("shutting down\\n");
    void shutdown("test");`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: join(import.meta.dirname, "../.."), stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let since = 0;
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      if (!since && stderr.includes("shutting down")) since = Date.now();
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (code, signal) => {
      clearTimeout(killer);
      resolve({ ms: Date.now() - since, code, signal, stderr });
    });
  });
}

describe("shutdownOnce", () => {
  it("ends the process when a step never finishes, soon after the deadline", async () => {
    const r = await runChild(`const shutdown = shutdownOnce(log, [() => new Promise(() => {})], 300);`);
    expect(r.stderr).toContain("took longer than 300 ms; ending the process now");
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(3000);
  });

  it("ends the process even when every file-system thread is stuck opening a FIFO (process.exit alone would hang)", async () => {
    const fifo = join(dir, "fifo");
    await new Promise((r) => spawn("mkfifo", [fifo]).on("exit", r));
    const r = await runChild(`import { open } from "node:fs/promises";
      for (let i = 0; i < 4; i++) void open(${JSON.stringify(fifo)}, "r").catch(() => {});
      await new Promise((r) => setTimeout(r, 200));
      const shutdown = shutdownOnce(log, [() => open(${JSON.stringify(join(dir, "never"))}, "w")], 300);`);
    expect(r.stderr).toContain("took longer than 300 ms");
    expect(r.signal).toBe("SIGKILL"); // what ended it: the pool could not be joined
    expect(r.ms).toBeLessThan(4000);
  });
});
