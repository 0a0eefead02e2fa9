// A copy's checkpoint on disk: written whole (0600, in a 0700 folder) and read back; never read through a link; a
// file that is not one this server wrote is reported, not trusted; removed when the copy is complete; one process
// copies at a time.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { CheckpointStore, emptyMark, type CopyCheckpoint } from "../../src/ingest/copy/checkpoint.js";

const copy = { from: { service: "local /data", index: "notes" }, to: { service: "https://api.pinecone.io", index: "notes" } };
const checkpoint: CopyCheckpoint = { version: 1, ...copy, mode: "vectors", namespaces: { "": { ...emptyMark(), token: "t-1000", copied: 1000 } } };

test("a checkpoint is written whole, private, read back, and removed", async () => {
  const folder = join(mkdtempSync(join(tmpdir(), "vecdb-checkpoint-")), "copy-checkpoints");
  const store = new CheckpointStore(folder, copy);
  expect(await store.read()).toEqual({});
  await Promise.all([store.save({ ...checkpoint, namespaces: {} }), store.save(checkpoint)]);
  expect(await store.read()).toEqual({ checkpoint });
  expect(readdirSync(folder)).toEqual([store.path.slice(folder.length + 1)]); // no temporary file left
  if (process.platform !== "win32") {
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  }
  await store.remove();
  expect(readdirSync(folder)).toEqual([]);
  await store.remove(); // already gone: nothing to do
});

test.skipIf(process.platform === "win32")("a link in the checkpoint's place is not followed, and a foreign file is not trusted", async () => {
  const folder = join(mkdtempSync(join(tmpdir(), "vecdb-checkpoint-")), "copy-checkpoints");
  const store = new CheckpointStore(folder, copy);
  await store.save(checkpoint);
  await store.remove();
  const elsewhere = join(folder, "..", "elsewhere.json");
  writeFileSync(elsewhere, JSON.stringify(checkpoint));
  symlinkSync(elsewhere, store.path);
  expect((await store.read()).problem).toMatch(/^the checkpoint .+ could not be opened \(ELOOP\)$/);
  await store.remove();
  writeFileSync(store.path, '{"version":1,"from":{}}');
  expect(await store.read()).toEqual({ problem: `the checkpoint ${store.path} is not one this server wrote` });
  writeFileSync(store.path, "{not json");
  expect((await store.read()).problem).toMatch(/could not be read/);
});

test("a copy is claimed by one process at a time; a claim left by a process that died is taken over", async () => {
  const folder = join(mkdtempSync(join(tmpdir(), "vecdb-checkpoint-")), "copy-checkpoints");
  const store = new CheckpointStore(folder, copy);
  const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  try {
    await store.save(checkpoint);
    writeFileSync(`${store.path}.lock`, String(other.pid));
    writeFileSync(`${store.path}.4242-deadbeef.tmp`, "{half a checkp"); // a write a killed process never renamed
    expect(await store.claim()).toEqual({ ok: false, pid: other.pid });
  } finally {
    const gone = new Promise((resolve) => other.once("exit", resolve));
    other.kill("SIGKILL");
    await gone;
  }
  const claim = await store.claim();
  expect(claim.ok).toBe(true);
  expect(readFileSync(`${store.path}.lock`, "utf8")).toBe(String(process.pid));
  if (claim.ok) await claim.release();
  expect(readdirSync(folder)).toEqual([store.path.slice(folder.length + 1)]);
});
