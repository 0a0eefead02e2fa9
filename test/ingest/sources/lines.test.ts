import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countNonBlankLines, type Line, lineText, readLines } from "../../../src/ingest/sources/lines.js";
import { collect, tempDir } from "./fixtures.js";
import { descriptorOpener } from "../../helpers/open-files.js";

const fdOf = descriptorOpener();

let dir: string;
const shown = (lines: Line[]) => lines.map((l) => ({ number: l.number, ...(l.buf && { text: lineText(l) }), bytes: l.bytes }));
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

describe("readLines", () => {
  const text = "alpha\r\n\nbé ta — ünïcode\n   \nlast-without-newline";
  const expected = ["alpha", "", "bé ta — ünïcode", "   ", "last-without-newline"];

  it("splits the same way whatever the chunk size (lines and multi-byte characters across chunks)", async () => {
    const p = join(dir, "t.txt");
    await writeFile(p, text);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64, 1 << 20]) {
      const lines = await collect(readLines(fdOf(p), { chunkBytes }));
      expect(lines.map((l) => [l.number, lineText(l)])).toEqual(expected.map((t, i) => [i + 1, t]));
    }
    expect(await countNonBlankLines(fdOf(p))).toBe(3);
  });

  it("startAt and too-long lines work across chunks", async () => {
    const p = join(dir, "u.txt");
    await writeFile(p, "one\n" + "x".repeat(50) + "\nthree\nfour\n");
    for (const chunkBytes of [1, 4, 16, 1024]) {
      const lines = await collect(readLines(fdOf(p), { chunkBytes, maxLineBytes: 10 }));
      expect(shown(lines)).toEqual([
        { number: 1, text: "one", bytes: 3 },
        { number: 2, bytes: 50 },
        { number: 3, text: "three", bytes: 5 },
        { number: 4, text: "four", bytes: 4 },
      ]);
      const from3 = await collect(readLines(fdOf(p), { chunkBytes, startAt: 3 }));
      expect(from3.map(lineText)).toEqual(["three", "four"]);
    }
  });

  it("an empty file has no lines", async () => {
    const p = join(dir, "e.txt");
    await writeFile(p, "");
    expect(await collect(readLines(fdOf(p)))).toEqual([]);
    expect(await countNonBlankLines(fdOf(p))).toBe(0);
  });
});
