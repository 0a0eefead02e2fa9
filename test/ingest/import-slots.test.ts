import { describe, expect, it } from "vitest";
import { importLoad, importSlot, MAX_RUNNING_IMPORTS } from "../../src/ingest/import-slots.js";

describe("importSlot", () => {
  it("lets MAX_RUNNING_IMPORTS run, queues the rest first come first served, and skips a cancelled waiter", async () => {
    expect(MAX_RUNNING_IMPORTS).toBe(2);
    const signal = new AbortController().signal;
    const started: string[] = [];
    const waits: number[] = [];
    const take = (name: string, s = signal) => importSlot(s, (ahead) => waits.push(ahead)).then((release) => (started.push(name), release));
    const a = await take("a");
    const b = await take("b");
    const cancel = new AbortController();
    const c = take("c");
    const d = take("d", cancel.signal);
    const e = take("e");
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual(["a", "b"]);
    expect(waits).toEqual([2, 3, 4]);
    expect(importLoad()).toEqual({ running: 2, waiting: 3 });
    cancel.abort(new Error("cancelled"));
    await expect(d).rejects.toThrow("cancelled");
    a();
    a(); // a second release gives nothing back twice
    const releaseC = await c;
    expect(started).toEqual(["a", "b", "c"]);
    b();
    const releaseE = await e;
    expect(started).toEqual(["a", "b", "c", "e"]);
    releaseC();
    releaseE();
    expect(importLoad()).toEqual({ running: 0, waiting: 0 });
  });
});
