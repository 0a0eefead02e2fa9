// The data dir's lock against another local user and across mounts and network namespaces: it lives inside the
// 0700 data dir (service.sock), where only the owner can make or reach it. Attacks that need a second identity
// (setpriv) or a new mount and network namespace (unshare) run as root, as CI does; elsewhere they are skipped.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/local-service.js";
import { acquireDataDirLock, DataDirInUseError, LOCK_SOCKET } from "../../../src/local/storage/lock.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), "vecdb-lock-attack-"));
  chmodSync(d, 0o700);
  dirs.push(d);
  return d;
};
const lockModule = join(repoRoot, "dist", "src", "local", "storage", "lock.js");

function works(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const asRoot = process.platform === "linux" && process.getuid?.() === 0;
const canSetpriv = asRoot && works("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "true"]);
const canUnshare = asRoot && works("unshare", ["--mount", "--net", "true"]);
if (!canSetpriv) console.warn("lock-attacks: skipping the other-user squat (needs root and setpriv, as CI has)");
if (!canUnshare) console.warn("lock-attacks: skipping the bind-mount/netns attack (needs root and unshare, as CI has)");

/** Runs a script in node (as another user or namespace via `prefix`); resolves on its first stdout line. */
function runNode(prefix: string[], script: string) {
  const [command, ...args] = [...prefix, process.execPath, "--input-type=module", "-e", script];
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const firstLine = new Promise<string>((resolve) => {
    child.stdout!.on("data", () => out.includes("\n") && resolve(out.split("\n")[0]));
    child.once("exit", () => resolve(`${out}${err}`.trim()));
  });
  return { child, firstLine, stop: () => child.kill("SIGKILL") };
}

describe("the data dir's lock", () => {
  it.skipIf(!canSetpriv)("another user who binds the old abstract lock name, or tries the data dir, cannot lock the owner out", async () => {
    const dataDir = newDir();
    const oldName = `\0vecdb-mcp-lock-${createHash("sha256").update(realpathSync(dataDir)).digest("hex").slice(0, 40)}`;
    const squatter = runNode(
      ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"],
      `import { createServer } from "node:net";
       import { writeFileSync } from "node:fs";
       let inside = "refused";
       try { writeFileSync(${JSON.stringify(join(dataDir, LOCK_SOCKET))}, "x"); inside = "created"; } catch (e) { inside = e.code; }
       createServer().listen(${JSON.stringify(oldName)}, () => console.log("squatting " + inside));`,
    );
    try {
      expect(await squatter.firstLine).toBe("squatting EACCES");
      const release = await acquireDataDirLock(dataDir);
      expect(existsSync(join(dataDir, LOCK_SOCKET))).toBe(true);
      release();
    } finally {
      squatter.stop();
    }
  });

  it.skipIf(!canUnshare)("held here, it refuses a service in another mount and network namespace reaching the dir through a bind mount, naming the holder", async () => {
    const dataDir = newDir();
    const mountPoint = newDir();
    const release = await acquireDataDirLock(dataDir);
    try {
      const other = runNode(
        ["unshare", "--mount", "--net", "--", "sh", "-c", `mount --bind ${dataDir} ${mountPoint} && exec "$0" "$@"`],
        `const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
         try { await acquireDataDirLock(${JSON.stringify(mountPoint)}); console.log("won"); }
         catch (e) { console.log(e.constructor.name + ": " + e.message); }`,
      );
      const line = await other.firstLine;
      expect(line).toMatch(new RegExp(`^DataDirInUseError: The data dir ${mountPoint} is in use by another vecdb-mcp local service \\(pid ${process.pid}\\)`));
    } finally {
      release();
    }
  });

  it("a socket at service.sock that is not ours is named as such; one left by a dead owner is taken over", async () => {
    const dataDir = newDir();
    const foreign = createServer((s) => s.end("hello from something else\n"));
    await new Promise<void>((r) => foreign.listen(join(dataDir, LOCK_SOCKET), () => r()));
    try {
      await expect(acquireDataDirLock(dataDir)).rejects.toThrow(
        new DataDirInUseError(
          `The data dir ${dataDir} is locked by a process that is not a vecdb-mcp local service (its lock socket ${join(dataDir, LOCK_SOCKET)} answers, but not as ours). ` +
            "Find it with `ss -xlp` or `lsof`, or choose another --data-dir.",
        ),
      );
    } finally {
      await new Promise((r) => foreign.close(r));
    }
    const holder = runNode([], `const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)}); await acquireDataDirLock(${JSON.stringify(dataDir)}); console.log("held"); setTimeout(() => {}, 60000);`);
    expect(await holder.firstLine).toBe("held");
    await expect(acquireDataDirLock(dataDir)).rejects.toThrow(DataDirInUseError);
    holder.stop();
    await new Promise((r) => holder.child.once("exit", r));
    expect(existsSync(join(dataDir, LOCK_SOCKET))).toBe(true); // left by kill -9
    (await acquireDataDirLock(dataDir))();
  });
});
