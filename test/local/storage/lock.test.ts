// The data dir's lock: a lock left by a dead owner is taken over atomically — of several services
// started at once on such a directory, exactly one runs. Before, two of them held one data dir in 1 run of 20.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../../helpers/local-service.js";
import { acquireDataDirLock, DataDirInUseError, LOCK_FILE, LOCK_SOCKET } from "../../../src/local/storage/lock.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), "vecdb-lock-"));
  dirs.push(d, `${d}.tally`);
  return d;
};

/** A pid that no process has now: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

/** Starts `serve`; resolves with "listening" (and the child, to stop) or the line it exited with. */
function serve(dataDir: string): Promise<{ listening: boolean; line: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [cliPath, "serve", "--data-dir", dataDir, "--port", "0", "--api-key", "lock-test-key-0123456789"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr!.setEncoding("utf8");
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const done = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await done;
  };
  return new Promise((resolve) => {
    child.stderr!.on("data", (chunk: string) => {
      err += chunk;
      if (/listening on/.test(err)) resolve({ listening: true, line: err.trim(), stop });
    });
    child.once("exit", () => resolve({ listening: false, line: err.trim(), stop }));
  });
}

/**
 * Contenders in separate processes (the lock is per process) that all try at the same millisecond; a winner holds
 * the lock until every contender has tried (each appends a line to a tally file): the tightest race the takeover can
 * meet, whatever the machine's load. Uses the compiled module (npm run build).
 */
async function contend(dataDir: string, count: number): Promise<string[]> {
  const lockModule = join(repoRoot, "dist", "src", "local", "storage", "lock.js");
  const tally = `${dataDir}.tally`;
  const startAt = Date.now() + 1000;
  const script = `
    import { appendFileSync, readFileSync } from "node:fs";
    const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
    const tried = (what) => appendFileSync(${JSON.stringify(tally)}, what + "\\n");
    const all = () => { try { return readFileSync(${JSON.stringify(tally)}, "utf8").split("\\n").length > ${count}; } catch { return false; } };
    while (Date.now() < ${startAt}) {}
    try {
      const release = await acquireDataDirLock(${JSON.stringify(dataDir)});
      tried("won"); console.log("won");
      const deadline = Date.now() + 20000;
      const wait = setInterval(() => { if (all() || Date.now() > deadline) { clearInterval(wait); release(); } }, 20);
    } catch (e) { tried(e.constructor.name); console.log(e.constructor.name); }`;
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      return new Promise<string>((r) => child.once("exit", () => r(out.trim())));
    }),
  );
}

describe("stale-lock takeover", () => {
  it("eight processes taking the lock at the same millisecond from a dead owner: exactly one wins, every round", async () => {
    for (let round = 0; round < 2; round++) {
      const dataDir = newDir();
      writeFileSync(join(dataDir, LOCK_FILE), `${await deadPid()}\n`, { mode: 0o600 });
      // The dead owner's lock socket, left behind as kill -9 leaves it (an exit does not remove it either).
      if (process.platform === "linux") execFileSync(process.execPath, ["-e", `require("node:net").createServer().listen(${JSON.stringify(join(dataDir, LOCK_SOCKET))}, () => process.exit(0))`]);
      const outcomes = await contend(dataDir, 8);
      expect(outcomes.filter((o) => o === "won"), `round ${round}: ${outcomes.join(", ")}`).toHaveLength(1);
      expect(outcomes.filter((o) => o !== "won").every((o) => o === "DataDirInUseError"), outcomes.join(", ")).toBe(true);
    }
  }, 120_000);

  it("the race's end state cannot happen: with the lock file of a live holder replaced by a dead pid (what a racing takeover's unlink did), a newcomer is still refused", async () => {
    const dataDir = newDir();
    const lockModule = join(repoRoot, "dist", "src", "local", "storage", "lock.js");
    const holder = spawn(
      process.execPath,
      ["--input-type=module", "-e", `const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)}); await acquireDataDirLock(${JSON.stringify(dataDir)}); console.log("held"); setTimeout(() => {}, 60000);`],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((r) => holder.stdout!.once("data", () => r()));
      writeFileSync(join(dataDir, LOCK_FILE), `${await deadPid()}\n`); // the holder's file, clobbered
      await expect(acquireDataDirLock(dataDir)).rejects.toThrow(DataDirInUseError);
    } finally {
      holder.kill("SIGKILL");
    }
    await new Promise((r) => holder.once("exit", r));
    (await acquireDataDirLock(dataDir))(); // the holder died with -9: free at once, nothing stale to take over
  });

  it("six services started at once on a data dir whose lock names a dead pid: exactly one runs", async () => {
    const dataDir = newDir();
    writeFileSync(join(dataDir, LOCK_FILE), `${await deadPid()}\n`, { mode: 0o600 });
    const results = await Promise.all(Array.from({ length: 6 }, () => serve(dataDir)));
    try {
      const running = results.filter((r) => r.listening);
      expect(running, results.map((r) => r.line).join("\n")).toHaveLength(1);
      for (const r of results.filter((r) => !r.listening)) {
        expect(r.line).toMatch(/^vecdb-mcp serve: The data dir .* is in use by another vecdb-mcp local service/);
      }
    } finally {
      await Promise.all(results.map((r) => r.stop()));
    }
  }, 60_000);

  it("in one process: a second hold of the same data dir is refused; a lock file of a dead pid is taken over and rewritten", async () => {
    const dataDir = newDir();
    writeFileSync(join(dataDir, LOCK_FILE), `${await deadPid()}\n`);
    const release = await acquireDataDirLock(dataDir);
    try {
      expect(readFileSync(join(dataDir, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
      await expect(acquireDataDirLock(dataDir)).rejects.toThrow(DataDirInUseError);
    } finally {
      release();
    }
    const again = await acquireDataDirLock(dataDir); // released: free again
    again();
  });
});
