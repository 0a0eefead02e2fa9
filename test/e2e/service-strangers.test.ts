// What another local user can no longer do to the shared local service: make the server write its service.log through
// a link in a data dir that user owns, or keep the service alive with refused requests. And a document that grows
// after it was checked is read only as far as it was checked.
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { openAllowedFile, readAsChecked } from "../../src/common/safe-open.js";
import { startServiceProcess } from "../helpers/local-service.js";
import { startMcp } from "../helpers/mcp-client.js";

const base = mkdtempSync(join(tmpdir(), "vecdb-strangers-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const asRoot = process.platform === "linux" && process.getuid?.() === 0;
if (!asRoot) console.warn("service-strangers: skipping the foreign data dir (needs root to give a directory to another user, as CI has)");

describe("another local user", () => {
  test.skipIf(!asRoot)("owns the data dir and links its service.log to a file: the server refuses the dir and writes nothing there", async () => {
    const dir = join(base, "foreign");
    mkdirSync(dir, { mode: 0o755 });
    const target = join(base, "victim-file");
    symlinkSync(target, join(dir, "service.log"));
    chownSync(dir, 65534, 65534);
    const mcp = await startMcp({ env: { VECDB_DATA_DIR: dir, VECDB_LOCAL_IDLE_S: "2" } });
    try {
      const r = await mcp.call("list_indexes", {});
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`The data dir ${dir} belongs to uid 65534, not to the user running the service (uid 0)`);
      expect(existsSync(target)).toBe(false);
    } finally {
      await mcp.close();
    }
  });

  test("sends refused requests (no key, a wrong key) without end: the service still stops when idle", async () => {
    const svc = await startServiceProcess({ args: ["--local-idle-s", "1"] });
    const exited = new Promise<void>((r) => svc.child.once("exit", () => r()));
    let stopped = false;
    void exited.then(() => (stopped = true));
    const dataHost = svc.controlUrl;
    const started = Date.now();
    while (!stopped && Date.now() - started < 15_000) {
      await fetch(`${dataHost}/indexes`, { headers: { "Api-Key": "wrong-key-0123456789" } }).catch(() => undefined);
      await fetch(`${dataHost}/indexes`).catch(() => undefined);
    }
    expect(stopped).toBe(true);
    await svc.stop();
  }, 30_000);
});

describe("a document that grows after it was checked", () => {
  test("is read up to the size that was checked, not past it", async () => {
    const path = join(base, "doc.md");
    writeFileSync(path, "checked text\n");
    const opened = await openAllowedFile(path, [base]);
    if (!opened.ok) throw new Error(opened.message);
    try {
      appendFileSync(path, "x".repeat(1024 * 1024));
      expect((await readAsChecked(opened.file)).toString()).toBe("checked text\n");
    } finally {
      await opened.file.close();
    }
  });
});
