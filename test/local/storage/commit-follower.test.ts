// The storage layer alone (no memory, no engine above it): every commit's changes reach its one follower once they are
// on disk, in the order the writes were asked for, before the write resolves; what it loads into a sink is what lmdb
// holds.
import { describe, expect, it } from "vitest";
import { RecordStore, toWriteRecord, type RecordChange } from "../../../src/local/storage/store.js";
import { openEnv } from "../setup.js";

const records = (ids: string[], metadata?: Record<string, unknown>) => ids.map((id, i) => toWriteRecord({ id, values: [i, 1], ...(metadata ? { metadata } : {}) }));
const summary = (c: RecordChange) => (c.kind === "reload" ? `reload ${c.namespace ?? "*"}` : `${c.kind} ${c.namespace}/${c.id}`);

describe("RecordStore's commits", () => {
  it("reach the follower in the order asked for, each before its write resolves", async () => {
    const env = openEnv();
    try {
      const storage = new RecordStore(env.root);
      const heard: string[] = [];
      storage.follow((changes) => heard.push(...changes.map(summary)));
      const seenAtResolve: number[] = [];
      const heardBy = (write: Promise<unknown>) => write.then(() => seenAtResolve.push(heard.length));
      await Promise.all([heardBy(storage.upsert("i:s", "a", records(["x", "y"]), 2)), heardBy(storage.upsert("i:s", "b", records(["z"]), 2))]);
      // (a delete looks its namespace up when asked, so these wait for the namespaces to exist)
      await Promise.all([heardBy(storage.deleteIds("i:s", "a", ["x", "absent"])), heardBy(storage.deleteAll("i:s", "b"))]);
      expect(heard).toEqual(["put a/x", "put a/y", "put b/z", "remove a/x", "reload b"]);
      expect(seenAtResolve).toEqual([2, 3, 4, 5]);
      await storage.settled();
      expect([...storage.scan("i:s", "a")].map((r) => r.id)).toEqual(["y"]);
      expect(storage.has("i:s", "b")).toBe(false);
    } finally {
      await env.close();
    }
  });

  it("removes by id only what the metadata test keeps, and loads a namespace into a sink a slice at a time", async () => {
    const env = openEnv();
    try {
      const storage = new RecordStore(env.root);
      await storage.upsert("i:s", "", [...records(["k1", "k2"], { keep: true }), ...records(["d1"], { keep: false })], 2);
      expect(await storage.removeIdsWhere("i:s", "", ["k1", "d1", "k2"], (json) => json !== undefined && JSON.parse(json).keep === false)).toBe(1);
      const loaded: string[] = [];
      let reserved = 0;
      const step = storage.loadInto("i:s", "", { reserve: (n) => (reserved = n), put: (id, dense) => loaded.push(`${id}:${dense.byteLength}`) });
      expect(reserved).toBe(2);
      expect(step(1)).toBe(false);
      expect(step(1)).toBe(false);
      expect(step(1)).toBe(true);
      expect(loaded).toEqual(["k1:8", "k2:8"]);
    } finally {
      await env.close();
    }
  });
});
