// The tests run the shipped bin, dist/vecdb-mcp.js (scripts/bundle.mjs). Whoever rebuilt with `npx tsc` alone would
// otherwise test a stale bundle: this rebuilds it (≈1 s) when a source file (or the bundle script or one of its
// shims) is newer, once per test process, under a lock so that test files starting together do not bundle at once.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository's root directory. */
export const ROOT = resolve(import.meta.dirname, "../..");
export const BUNDLE = join(ROOT, "dist", "vecdb-mcp.js");
const SOURCES = ["src", "tools", "scripts/bundle-shims"].map((dir) => join(ROOT, dir));
const BUILD_SCRIPT = join(ROOT, "scripts", "bundle.mjs");
const LOCK = join(ROOT, "dist", ".bundle-lock");

function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js|cjs)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of SOURCES) if (existsSync(dir)) walk(dir);
  return Math.max(newest, statSync(BUILD_SCRIPT).mtimeMs);
}

const stale = () => !existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < newestSource();

let checked = false;

/** Makes sure dist/vecdb-mcp.js is built from the current sources. */
export function ensureBundle(): void {
  if (checked) return;
  if (stale()) {
    const deadline = Date.now() + 60_000;
    mkdirSync(join(ROOT, "dist"), { recursive: true }); // a fresh checkout has no dist/: the lock could never be taken
    for (;;) {
      try {
        mkdirSync(LOCK, { recursive: false });
        break;
      } catch {
        // Another test process is bundling; a lock older than a minute was left by one that died.
        const lock = statSync(LOCK, { throwIfNoEntry: false });
        if (lock && (Date.now() > deadline || Date.now() - lock.mtimeMs > 60_000)) rmSync(LOCK, { recursive: true, force: true });
        else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      }
    }
    try {
      if (stale()) execFileSync(process.execPath, [join(ROOT, "scripts", "bundle.mjs")], { stdio: ["ignore", "ignore", "pipe"] });
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
  checked = true;
}
