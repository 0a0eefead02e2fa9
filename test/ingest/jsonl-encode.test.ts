// The JSONL upload pass (jsonl-encode.ts) sends the same records in the same batches as reading the file into
// records and planning them (the long way), whichever way each line takes, and stops at a line it cannot send.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PlannedBatch, planBatches } from "../../src/ingest/batches.js";
import { encodeJsonl } from "../../src/ingest/jsonl-encode.js";
import { openJsonl, PositionMap, recordsWithPositions } from "../../src/ingest/sources/index.js";
import { tempDir } from "./sources/fixtures.js";
import { closedAfterEach, descriptorOpener } from "../helpers/open-files.js";

const fdOf = descriptorOpener();
const closing = closedAfterEach();

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

const parsed = (batches: PlannedBatch[]) => batches.map((b) => ({ body: JSON.parse(b.body.toString("utf8")) as unknown, ids: b.ids, first: b.firstPosition }));

async function both(file: string, namespace = "ns") {
  const fast: PlannedBatch[] = [];
  const fastPositions = new PositionMap();
  for await (const b of encodeJsonl(fdOf(file), { startAt: 1, namespace, maxLineBytes: 1 << 20, positions: fastPositions })) fast.push(b);
  const long: PlannedBatch[] = [];
  const longPositions = new PositionMap();
  for await (const b of planBatches(recordsWithPositions(closing(await openJsonl(file)).records(), longPositions), { namespace })) long.push(b);
  return { fast, long, fastPositions, longPositions };
}

describe("encodeJsonl", () => {
  it("sends what the long way sends, in the same batches, with the same line numbers (mixed lines)", async () => {
    const lines: string[] = ["\ufeff" + JSON.stringify({ id: "bom", values: [0.1, 0.2] })];
    for (let i = 0; i < 230; i++) {
      if (i % 50 === 7) lines.push("");
      if (i % 3 === 0) lines.push(JSON.stringify({ id: `d-${i}`, values: [i / 7, -i / 3], metadata: { i, tag: "é" } }));
      else if (i % 3 === 1) lines.push(`  { "values" : [ ${i}e-3 , 1E2 ] , "id" : "spaced-${i}" }\r`);
      else lines.push(JSON.stringify({ id: `s-${i}`, values: [1, 2], sparse_values: { indices: [i], values: [0.5] } }));
    }
    lines.push(JSON.stringify({ id: "ünï\\code", values: [3, 4] }));
    const file = join(dir, "mixed.jsonl");
    await writeFile(file, lines.join("\n") + "\n");
    const { fast, long, fastPositions, longPositions } = await both(file);
    expect(parsed(fast)).toEqual(parsed(long));
    expect(fast.map((b) => b.ids.length)).toEqual([100, 100, 32]);
    expect(fastPositions.size).toBe(232);
    for (const i of [0, 1, 8, 99, 150, 231]) expect(fastPositions.positionOf(i)).toBe(longPositions.positionOf(i));
  });

  it("sends a record bigger than its first buffer (20,000 values) as the long way does", async () => {
    const values = Array.from({ length: 20_000 }, (_, i) => Math.sin(i) * 1e-3);
    const file = join(dir, "wide.jsonl");
    await writeFile(file, `${JSON.stringify({ id: "wide", values, metadata: { k: "v" } })}\n${JSON.stringify({ id: "small", values: [1] })}\n`);
    const { fast, long } = await both(file);
    expect(parsed(fast)).toEqual(parsed(long));
    expect(fast[0].ids).toEqual(["wide", "small"]);
  });

  it("stops at a line it cannot send, naming it, after the batches before it; later lines are not read", async () => {
    const lines = Array.from({ length: 150 }, (_, i) => JSON.stringify({ id: `r-${i}`, values: [i] }));
    lines.splice(120, 0, '{"id":"broken","values":[1,');
    const file = join(dir, "broken.jsonl");
    await writeFile(file, lines.join("\n"));
    const seen: PlannedBatch[] = [];
    const positions = new PositionMap();
    await expect(async () => {
      for await (const b of encodeJsonl(fdOf(file), { startAt: 1, maxLineBytes: 1 << 20, positions })) seen.push(b);
    }).rejects.toThrow(/^line 121: not valid JSON at column \d+: /);
    expect(seen.map((b) => [b.firstPosition, b.ids.length])).toEqual([[0, 100]]);
    expect(positions.size).toBe(120);
  });

  it("names the line and id of a value that cannot be sent as a 32-bit float", async () => {
    const file = join(dir, "range.jsonl");
    await writeFile(file, `${JSON.stringify({ id: "ok", values: [1] })}\n{"id":"big","values":[1],"sparse_values":{"indices":[1],"values":[1e39]}}\n`);
    await expect(async () => {
      for await (const _ of encodeJsonl(fdOf(file), { startAt: 1, maxLineBytes: 1 << 20, positions: new PositionMap() })) void _;
    }).rejects.toThrow('line 2 (id "big"): sparseValues.values[0] is 1e+39; every value must be a finite 32-bit number');
  });
});
