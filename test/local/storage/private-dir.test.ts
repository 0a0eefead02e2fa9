// The local service's data is private to its user, and it trusts no data dir, file or key
// that someone else owns or has linked in.
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalService } from "../../../src/local/index.js";
import { newDataDir } from "../../helpers/local-service.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dir = () => {
  const d = newDataDir();
  dirs.push(d);
  return d;
};
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
const quiet = { log: () => undefined };
const OTHER_UID = 54321;
const root = process.getuid?.() === 0; // only root can hand a file to another user

describe("the data directory", () => {
  it("is created 0700, its files 0600 (another user cannot read stored metadata or the key)", async () => {
    const dataDir = join(dir(), "fresh");
    const svc = await startLocalService({ dataDir, ...quiet });
    await svc.close();
    expect(mode(dataDir)).toBe("700");
    for (const f of ["vecdb.mdb", "vecdb.mdb-lock", "api-key"]) expect(`${f} ${mode(join(dataDir, f))}`).toBe(`${f} 600`);
  });

  it("an existing one of ours that is open to others is tightened, files included", async () => {
    const dataDir = dir();
    const first = await startLocalService({ dataDir, ...quiet });
    await first.close();
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, "vecdb.mdb"), 0o644);
    chmodSync(join(dataDir, "api-key"), 0o644);
    const again = await startLocalService({ dataDir, ...quiet });
    await again.close();
    expect([mode(dataDir), mode(join(dataDir, "vecdb.mdb")), mode(join(dataDir, "api-key"))]).toEqual(["700", "600", "600"]);
  });

  it.runIf(root)("one owned by someone else is refused, with the fix", async () => {
    const dataDir = dir();
    mkdirSync(dataDir, { recursive: true });
    chownSync(dataDir, OTHER_UID, OTHER_UID);
    await expect(startLocalService({ dataDir, ...quiet })).rejects.toThrow(
      `The data dir ${dataDir} belongs to uid ${OTHER_UID}, not to the user running the service (uid 0): its owner could read every stored record or plant the API key. Choose a data dir of your own (--data-dir DIR).`,
    );
  });
});

describe("the api-key file", () => {
  it.runIf(root)("a key planted by another user is never used", async () => {
    const dataDir = dir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dataDir, "api-key"), "planted-key-0123456789\n");
    chownSync(join(dataDir, "api-key"), OTHER_UID, OTHER_UID);
    await expect(startLocalService({ dataDir, ...quiet })).rejects.toThrow(`${join(dataDir, "api-key")} belongs to uid ${OTHER_UID}, not to the user running the service (uid 0). Remove it or choose another data dir.`);
  });

  it("a link in place of the key file is not followed", async () => {
    const dataDir = dir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const elsewhere = join(dir(), "key");
    mkdirSync(join(elsewhere, ".."), { recursive: true });
    writeFileSync(elsewhere, "attacker-chosen-key-0123\n");
    symlinkSync(elsewhere, join(dataDir, "api-key"));
    await expect(startLocalService({ dataDir, ...quiet })).rejects.toThrow(`${join(dataDir, "api-key")} is a symbolic link; the data dir's files must be plain files. Remove it.`);
    expect(readFileSync(elsewhere, "utf8")).toBe("attacker-chosen-key-0123\n");
  });
});
