import { describe, expect, it } from "vitest";
import { PositionMap, recordsWithPositions } from "../../../src/ingest/sources/index.js";
import type { SourceItem } from "../../../src/ingest/sources/index.js";
import { collect } from "./fixtures.js";

describe("PositionMap", () => {
  it("maps stream indexes to line numbers across blank lines and a start_at offset", () => {
    const map = new PositionMap();
    for (const p of [5, 6, 7, 9, 10, 14]) map.add(p);
    expect(map.size).toBe(6);
    expect([0, 1, 2, 3, 4, 5].map((i) => map.positionOf(i))).toEqual([5, 6, 7, 9, 10, 14]);
    expect(() => map.positionOf(6)).toThrow("no record at stream index 6");
    expect(map.resumePosition(3)).toBe(9);
    expect(map.resumePosition(6)).toBeUndefined();
  });

  it("turns landed stream ranges into line ranges, merging across blank lines only", () => {
    const map = new PositionMap();
    for (const p of [1, 2, 3, 5, 6, 7, 8]) map.add(p); // line 4 blank
    expect(map.toPositionRanges([{ start: 0, end: 3 }, { start: 3, end: 5 }])).toEqual([{ first: 1, last: 6 }]);
    expect(map.toPositionRanges([{ start: 0, end: 2 }, { start: 4, end: 7 }])).toEqual([{ first: 1, last: 2 }, { first: 6, last: 8 }]);
    expect(map.toPositionRanges([])).toEqual([]);
  });

  it("recordsWithPositions feeds records and fills the map; a bad item stops the stream", async () => {
    async function* items(list: SourceItem[]) { yield* list; }
    const map = new PositionMap();
    const got = await collect(recordsWithPositions(items([{ position: 2, record: { id: "a" } }, { position: 4, record: { id: "b" } }]), map));
    expect(got).toEqual([{ id: "a" }, { id: "b" }]);
    expect(map.positionOf(1)).toBe(4);
    await expect(collect(recordsWithPositions(items([{ position: 1, record: { id: "a" } }, { position: 2, error: "bad" }]), new PositionMap()))).rejects.toThrow(
      "line or row 2: bad",
    );
  });
});
