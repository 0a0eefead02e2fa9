// The id layout, what a run learns from the index (first chunks only, or every id when they do not account for every
// record), and what it prunes.
import { describe, expect, test } from "vitest";
import { chunkId, documentIdPrefix, fileStamp, parseDocumentId } from "../../../src/ingest/documents/document-records.js";
import { learnIndex, otherChunks } from "../../../src/ingest/documents/index-view.js";
import { prunePlan } from "../../../src/ingest/documents/sync-plan.js";
import { FetchPool } from "../../../src/ingest/documents/fetch-pool.js";
import { fakeDataPlane } from "./fake-data-plane.js";

describe("ids", () => {
  test("the first chunk carries a leading '/', the others do not; both parse back", () => {
    const prefix = documentIdPrefix("notes\\a#1.md");
    expect(prefix).toBe("notes/a#1.md#");
    expect(chunkId(prefix, 1)).toBe("/notes/a#1.md#1");
    expect(chunkId(prefix, 12)).toBe("notes/a#1.md#12");
    expect(parseDocumentId("/notes/a#1.md#1")).toEqual({ prefix: "notes/a#1.md#", chunk: 1, first: true });
    expect(parseDocumentId("notes/a#1.md#12")).toEqual({ prefix: "notes/a#1.md#", chunk: 12, first: false });
    expect(parseDocumentId("notes/a.md#1")).toEqual({ prefix: "notes/a.md#", chunk: 1, first: false }); // the earlier layout
    expect(parseDocumentId("/notes/a.md#2")).toBeUndefined();
    expect(parseDocumentId("rec-1")).toBeUndefined();
  });

  test("a file changed less than 2 s before it was read gets no time in its stamp", () => {
    expect(fileStamp({ size: 10, mtimeMs: 1000 }, 5000, 2, "1:200/0")).toEqual({ chunks: 2, fileBytes: 10, modifiedMs: 1000, chunking: "1:200/0" });
    expect(fileStamp({ size: 10, mtimeMs: 4000 }, 5000, 2, "1:200/0").modifiedMs).toBe(-1);
  });
});

const first = (chunks: number, fileHash = "h") => ({ source: "s", chunk: 1, fileHash, chunks, contentHash: "c1" });

describe("learnIndex", () => {
  const learn = (fake: ReturnType<typeof fakeDataPlane>, scopes: string[], found: string[] = []) =>
    learnIndex({ service: fake.service, index: fake.index, namespace: "", signal: new AbortController().signal, scopes, found: Promise.resolve(found) });

  test("an empty namespace: nothing is fetched or listed", async () => {
    const fake = fakeDataPlane();
    expect((await learn(fake, ["notes/"], ["/notes/a.md#1"])).listed).toBe("nothing");
    expect(fake.ops.map((o) => o.kind)).toEqual(["stats"]);
  });

  test("the found files' first chunks account for every record: nothing is listed", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": first(3), "notes/a.md#2": {}, "notes/a.md#3": {}, "/notes/b.md#1": first(1) });
    const view = await learn(fake, ["notes/"], ["/notes/a.md#1", "/notes/b.md#1", "/notes/new.md#1"]);
    expect(view.listed).toBe("nothing");
    expect(fake.ops.map((o) => o.kind).sort()).toEqual(["fetch", "stats"]);
    expect(otherChunks(view, "notes/a.md#")).toEqual([2, 3]);
  });

  test("a file gone since: its first chunk is found by listing the first chunks, not every id", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": first(1), "/notes/gone.md#1": first(2), "notes/gone.md#2": {} });
    const view = await learn(fake, ["notes/"], ["/notes/a.md#1"]);
    expect(view.listed).toBe("first chunks");
    expect(otherChunks(view, "notes/gone.md#")).toEqual([2]);
  });

  test("first chunks that account for every record: only they are listed, the other chunks follow from their counts", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": first(3), "notes/a.md#2": {}, "notes/a.md#3": {}, "/notes/b.md#1": first(1) });
    const view = await learn(fake, ["notes/"]);
    expect(view.others).toBeUndefined();
    expect([...view.firsts.keys()].sort()).toEqual(["notes/a.md#", "notes/b.md#"]);
    expect(otherChunks(view, "notes/a.md#")).toEqual([2, 3]);
    expect(fake.ops.filter((o) => o.kind === "list")).toHaveLength(1);
  });

  test("an orphan chunk (no first chunk claims it) makes the run list every id", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": first(1), "notes/gone.md#2": {} });
    const view = await learn(fake, ["notes/"]);
    expect(view.others).toEqual(new Map([["notes/gone.md#", new Set([2])]]));
  });

  test("a first chunk marked out of step makes the run list every id", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": first(2, ""), "notes/a.md#2": {} });
    const view = await learn(fake, ["notes/"]);
    expect(view.others).toEqual(new Map([["notes/a.md#", new Set([2])]]));
  });

  test("a file's scope holds that file only, not another whose name it begins", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": first(1), "/notes/a.md#x.md#1": first(1) });
    const view = await learn(fake, ["notes/a.md#"]);
    expect([...view.firsts.keys()]).toEqual(["notes/a.md#"]);
    expect(view.others).toBeDefined(); // the namespace holds a record the scope's first chunks do not account for
    expect(view.others!.size).toBe(0);
  });
});

describe("prunePlan", () => {
  test("chunks past a shortened file's end and every chunk of a gone file go, first chunks last; a file found but not read keeps its chunks", async () => {
    const fake = fakeDataPlane({
      "/notes/a.md#1": first(3), "notes/a.md#2": {}, "notes/a.md#3": {},
      "/notes/gone.md#1": first(2), "notes/gone.md#2": {},
      "/notes/excluded.md#1": first(2), "notes/excluded.md#2": {},
    });
    const view = await learnIndex({ service: fake.service, index: fake.index, namespace: "", signal: new AbortController().signal, scopes: ["notes/"], found: Promise.resolve([]) });
    const present = new Set(["notes/a.md#", "notes/excluded.md#"]);
    expect(prunePlan(view, new Map([["notes/a.md#", 2]]), (p) => present.has(p))).toEqual(["notes/a.md#3", "notes/gone.md#2", "/notes/gone.md#1"]);
    expect(prunePlan(view, new Map([["notes/a.md#", 0]]), (p) => present.has(p))).toEqual(["notes/a.md#2", "notes/a.md#3", "notes/gone.md#2", "/notes/a.md#1", "/notes/gone.md#1"]);
  });

  test("with every id listed: orphans of gone files and first chunks of the earlier layout go too", async () => {
    const fake = fakeDataPlane({ "/notes/a.md#1": first(2), "notes/a.md#1": {}, "notes/a.md#2": {}, "notes/a.md#5": {}, "notes/orphan.md#2": {} });
    const view = await learnIndex({ service: fake.service, index: fake.index, namespace: "", signal: new AbortController().signal, scopes: ["notes/"], found: Promise.resolve([]) });
    expect(prunePlan(view, new Map([["notes/a.md#", 2]]), (p) => p === "notes/a.md#")).toEqual(["notes/a.md#1", "notes/a.md#5", "notes/orphan.md#2"]);
  });
});

describe("FetchPool", () => {
  test("fetches each id once, in batches, while ids keep coming; close waits for all, and reports a failure", async () => {
    const batches: string[][] = [];
    const pool = new FetchPool(async (ids) => void batches.push(ids), 2, () => 1, 3);
    pool.add(["a", "b", "c", "d"]);
    pool.add(["b", "e"]);
    await pool.close();
    expect(batches.flat().sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(3);

    // by weight: as many as fit, at least one
    const weighed: string[][] = [];
    const byLength = new FetchPool(async (ids) => void weighed.push(ids), 1, (id) => id.length, 5);
    byLength.add(["aa", "bb", "c", "dddddd", "e"]);
    await byLength.close();
    expect(weighed).toEqual([["aa", "bb", "c"], ["dddddd"], ["e"]]);

    const failing = new FetchPool(async (ids) => {
      if (ids.includes("x")) throw new Error("HTTP 503");
    }, 2, () => 1, 1);
    failing.add(["w", "x", "y"]);
    await expect(failing.close()).rejects.toThrow("HTTP 503");
  });
});
