// The token estimate against the real tokenizer (o200k) on what the tools write: never below it, and close on the
// float lists that make results large.
import { readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, test } from "vitest";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { float32Values } from "../../src/tool-kit/results/budget.js";
import { encodeFloat32Base64 } from "../../src/ingest/float32-base64.js";
import { estimateJsonTokens, estimateTokens } from "../../src/tool-kit/results/tokens.js";

let seed = 7;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
}
const unitVector = (dim: number) => {
  const v = Array.from({ length: dim }, () => random() - 0.5);
  const norm = Math.hypot(...v);
  return float32Values(v.map((x) => x / norm));
};
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
const prose = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const matches = Array.from({ length: 4 }, (_, i) => ({ id: `doc-${i}`, score: 0.8123, values: unitVector(1536), metadata: { genre: "news", year: 2020 + i } }));
const chunks = Array.from({ length: 20 }, (_, i) => ({
  id: `/docs/guide.md#${i + 1}`,
  score: 0.7134,
  fields: { text: prose.slice(i * 1500, (i + 1) * 1500), source: "docs/guide.md", headingPath: "Install > Claude Code", chunk: i + 1, modified: 1764150000, contentHash: hex(32), fileHash: hex(32) },
}));

const payloads: Record<string, string> = {
  "prose (the README)": prose,
  "a table of document chunks": markdownTable(["id", "score", "text", "source"], chunks.map((c) => [c.id, c.score, c.fields.text, c.fields.source]), { whole: true }),
  "search hits as JSON": JSON.stringify({ hits: chunks }),
  "1536-d matches as JSON": JSON.stringify({ matches }),
  "1536-d values in a table": markdownTable(["id", "values"], matches.map((m) => [m.id, JSON.stringify(m.values)]), { whole: true }),
  "values as base64": encodeFloat32Base64(matches[0].values),
  "sparse values": JSON.stringify({ indices: Array.from({ length: 500 }, () => Math.floor(random() * 100_000)), values: unitVector(500) }),
  "1,000 ids": JSON.stringify(Array.from({ length: 1000 }, (_, i) => `vec-${i}-${hex(6)}`)),
  uuids: JSON.stringify(Array.from({ length: 300 }, () => crypto.randomUUID())),
  "hex hashes": JSON.stringify(Array.from({ length: 200 }, () => hex(32))),
  "Chinese text": "向量数据库是一种专门存储和查询向量的数据库。".repeat(50),
  "Russian text": "Векторная база данных хранит эмбеддинги и ищет ближайшие. ".repeat(50),
  emoji: "🙂🚀✨ ok ".repeat(100),
};

describe("estimateTokens against o200k", () => {
  test.each(Object.entries(payloads))("%s: never fewer tokens than o200k counts", (_name, text) => {
    expect(estimateTokens(text)).toBeGreaterThanOrEqual(countTokens(text));
  });

  test.each(["1536-d matches as JSON", "1536-d values in a table", "sparse values"])("%s: at most 1.5 times o200k's count", (name) => {
    const text = payloads[name];
    expect(estimateTokens(text)).toBeLessThanOrEqual(1.5 * countTokens(text));
  });

  test("prose and tables of prose: at most twice o200k's count", () => {
    for (const name of ["prose (the README)", "a table of document chunks", "search hits as JSON"]) {
      expect(estimateTokens(payloads[name]), name).toBeLessThanOrEqual(2 * countTokens(payloads[name]));
    }
  });

  test("JSON of a value; nothing for undefined", () => {
    expect(estimateJsonTokens({ a: "bc" })).toBe(estimateTokens('{"a":"bc"}'));
    expect(estimateJsonTokens(undefined)).toBe(0);
    expect(estimateTokens("")).toBe(0);
  });
});
