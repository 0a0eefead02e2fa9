import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { takeOnce } from "../../src/mcp/used-states.js";

const TEN_MINUTES = 600_000;
const dirs: string[] = [];
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), "vecdb-used-states-"));
  dirs.push(d);
  return join(d, "used-request-states");
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("a nonce is taken once, whoever asks; of many asking at once exactly one wins", async () => {
  const f = folder();
  expect(await takeOnce(f, "0b6f3c1e-8d2a-4f5b-9c7d-1e2f3a4b5c6d", TEN_MINUTES)).toBe(true);
  expect(await takeOnce(f, "0b6f3c1e-8d2a-4f5b-9c7d-1e2f3a4b5c6d", TEN_MINUTES)).toBe(false);
  const racing = await Promise.all(Array.from({ length: 8 }, () => takeOnce(f, "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", TEN_MINUTES)));
  expect(racing.filter(Boolean)).toHaveLength(1);
  expect(statSync(f).mode & 0o777).toBe(0o700);
});

test("marks older than a state can live are removed at the next take; younger marks and other files stay", async () => {
  const f = folder();
  mkdirSync(f, { mode: 0o700 });
  const mark = (nonce: string, ageMs: number) => {
    const path = join(f, nonce);
    writeFileSync(path, "");
    const at = (Date.now() - ageMs) / 1000;
    utimesSync(path, at, at);
  };
  mark("22222222-2222-4222-8222-222222222222", 2 * TEN_MINUTES + 60_000); // expired long ago
  mark("44444444-4444-4444-8444-444444444444", TEN_MINUTES / 2); // its state may still come back
  writeFileSync(join(f, "notes.txt"), "");
  expect(await takeOnce(f, "33333333-3333-4333-8333-333333333333", TEN_MINUTES)).toBe(true);
  expect(readdirSync(f).sort()).toEqual(["33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444", "notes.txt"]);
  expect(await takeOnce(f, "44444444-4444-4444-8444-444444444444", TEN_MINUTES)).toBe(false);
});

test("a name that is no nonce of ours is never used as a file name", async () => {
  const f = folder();
  expect(await takeOnce(f, "../../etc/passwd", TEN_MINUTES)).toBe(false);
  expect(existsSync(f)).toBe(false);
});
