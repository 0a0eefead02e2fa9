// syncDocuments over real files and the in-memory data plane: what a run does with states a run of its own leaves
// only when it stops part-way (orphans, a first chunk marked out of step), with the earlier id layout, and with a
// file changed just before it was read.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { syncDocuments } from "../../../src/ingest/documents/sync-documents.js";
import { fakeDataPlane, type FakeDataPlane } from "./fake-data-plane.js";

let root: string;
let fake: FakeDataPlane;
const NOTE = "# A\n\nFirst part.\n\n## B\n\nSecond part.\n\n## C\n\nThird part.\n"; // three chunks at chunkSize 200

function write(name: string, text: string, ageMs = 3_600_000): void {
  const path = join(root, "notes", name);
  writeFileSync(path, text);
  const then = new Date(Date.now() - ageMs);
  utimesSync(path, then, then);
}

const run = () =>
  syncDocuments({
    service: fake.service, index: fake.index, field: "text", namespace: "", paths: ["."], roots: [join(root, "notes")],
    sizes: { size: 200, overlap: 0 }, dryRun: false, prune: true, concurrency: 1, signal: new AbortController().signal, progress: () => {},
  });
const counts = (o: Awaited<ReturnType<typeof run>>) => ({ filesRead: o.filesRead, added: o.added, changed: o.changed, unchanged: o.unchanged, pruned: o.pruned, listed: o.listed });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "vecdb-sync-docs-"));
  mkdirSync(join(root, "notes"));
  fake = fakeDataPlane();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("syncDocuments", () => {
  test("an index of the earlier layout: its first chunks are replaced, its other chunks kept as they are", async () => {
    write("a.md", NOTE);
    await run();
    // Rewrite the index as the earlier layout had it: the first chunk without the leading "/".
    const first = fake.records.get("/notes/a.md#1")!;
    fake.records.delete("/notes/a.md#1");
    fake.records.set("notes/a.md#1", first);
    const migrated = await run();
    expect(counts(migrated)).toEqual({ filesRead: 1, added: 1, changed: 0, unchanged: 2, pruned: 1, listed: "every id" });
    expect([...fake.records.keys()].sort()).toEqual(["/notes/a.md#1", "notes/a.md#2", "notes/a.md#3"]);
    expect(counts(await run())).toEqual({ filesRead: 0, added: 0, changed: 0, unchanged: 3, pruned: 0, listed: "nothing" });
  });

  test("chunks no first chunk claims (a run stopped, then the file was deleted) are found by the count and pruned", async () => {
    write("a.md", NOTE);
    await run();
    fake.records.set("notes/gone.md#2", { source: "notes/gone.md", contentHash: "h2", text: "left behind" });
    fake.records.set("notes/gone.md#3", { source: "notes/gone.md", contentHash: "h3", text: "left behind" });
    expect(counts(await run())).toEqual({ filesRead: 0, added: 0, changed: 0, unchanged: 3, pruned: 2, listed: "every id" });
    expect(counts(await run())).toEqual({ filesRead: 0, added: 0, changed: 0, unchanged: 3, pruned: 0, listed: "nothing" });
  });

  test("a first chunk marked out of step is not trusted, even when the file's size, time and hash match it", async () => {
    write("a.md", NOTE);
    await run();
    // A run rewrote the second chunk for an edit, then stopped; the edit was undone with the old time restored.
    fake.records.set("/notes/a.md#1", { ...fake.records.get("/notes/a.md#1")!, fileHash: "" });
    fake.records.set("notes/a.md#2", { ...fake.records.get("notes/a.md#2")!, text: "an edit since undone", contentHash: "other" });
    const fixed = await run();
    expect(counts(fixed)).toEqual({ filesRead: 1, added: 0, changed: 1, unchanged: 2, pruned: 0, listed: "every id" });
    expect(fake.records.get("notes/a.md#2")?.text).toBe("## B\n\nSecond part.");
    expect(fake.records.get("/notes/a.md#1")?.fileHash).toBe(fake.records.get("notes/a.md#2")?.fileHash);
  });

  test("a file changed just before it was read is read again next time, then stamped once it is older", async () => {
    write("a.md", NOTE, 0);
    await run();
    expect(fake.records.get("/notes/a.md#1")?.modifiedMs).toBe(-1);
    const again = await run();
    expect(again.filesRead).toBe(1);
    write("a.md", NOTE); // same text, an hour old
    fake.ops.length = 0;
    expect(counts(await run())).toEqual({ filesRead: 1, added: 0, changed: 0, unchanged: 3, pruned: 0, listed: "nothing" });
    expect(fake.ops.filter((o) => o.kind === "setMetadata" || o.kind === "upsert")).toEqual([{ kind: "setMetadata", ids: ["/notes/a.md#1"] }]);
    expect(counts(await run()).filesRead).toBe(0);
  });

  test("a deleted file: its chunks go, found by listing first chunks only", async () => {
    write("a.md", NOTE);
    write("b.md", NOTE);
    await run();
    rmSync(join(root, "notes", "b.md"));
    expect(counts(await run())).toEqual({ filesRead: 0, added: 0, changed: 0, unchanged: 3, pruned: 3, listed: "first chunks" });
    expect([...fake.records.keys()].sort()).toEqual(["/notes/a.md#1", "notes/a.md#2", "notes/a.md#3"]);
  });

  test("a shortened file: the chunks past its end go after its first chunk names the new version", async () => {
    write("a.md", NOTE);
    await run();
    write("a.md", NOTE.split("\n\n## C")[0], 3_000_000);
    fake.ops.length = 0;
    expect(counts(await run())).toEqual({ filesRead: 1, added: 0, changed: 0, unchanged: 2, pruned: 1, listed: "nothing" });
    expect(fake.ops.filter((o) => o.kind !== "list" && o.kind !== "fetch" && o.kind !== "stats").map((o) => `${o.kind} ${o.ids.join(",")}`)).toEqual([
      "setMetadata /notes/a.md#1",
      "delete notes/a.md#3",
    ]);
  });
});
