// Issue 16 item 14: text the model reads cannot carry links, images or invisible direction controls, nor run long.
import { describe, expect, it } from "vitest";
import { escapeCell, MAX_CELL_CHARS } from "../../../src/tool-kit/format/table.js";

describe("escapeCell against text from the service or a file", () => {
  it("neutralises markdown links, images and references", () => {
    expect(escapeCell("[click](https://evil.example/?q=secret)")).toBe("\\[click\\](https://evil.example/?q=secret)");
    expect(escapeCell("![x](https://evil.example/pixel.png)")).toBe("!\\[x\\](https://evil.example/pixel.png)");
    expect(escapeCell("see [docs][1]")).toBe("see \\[docs\\]\\[1\\]");
    expect(escapeCell("[1]: https://evil.example")).toBe("\\[1\\]: https://evil.example");
    expect(escapeCell("a list [1, 2]")).toBe("a list [1, 2]"); // not a link: left as it is
  });

  it("drops bidi overrides, isolates and zero-width characters", () => {
    expect(escapeCell("abc\u202Edcba\u202C")).toBe("abcdcba");
    expect(escapeCell("ad\u200Bmin\u2066x\u2069\uFEFF")).toBe("adminx");
  });

  it(`cuts a cell past ${MAX_CELL_CHARS} characters`, () => {
    const cell = escapeCell("n".repeat(5000));
    expect([...cell].length).toBe(MAX_CELL_CHARS);
    expect(cell.endsWith("…")).toBe(true);
  });
});

describe("escapeCell's link check takes time in proportion to the text", () => {
  const fastest = (text: string) => {
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      escapeCell(text, Infinity);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };

  it.each([
    ["a run of [", (n: number) => "[".repeat(n)],
    ["[ and text", (n: number) => "[a".repeat(n / 2)],
    ["brackets that close with no link", (n: number) => "[a] ".repeat(n / 4)],
  ])("1 MiB of %s costs about ten times 100 KiB of it, not a hundred", (_, make) => {
    const small = fastest(make(104_858));
    const large = fastest(make(1_048_576));
    expect(large).toBeLessThan(Math.max(small, 1) * 30);
    expect(large).toBeLessThan(2000);
  });

  it("still finds a link behind nested brackets", () => {
    expect(escapeCell("![x[y]z](https://evil.example/p.png)")).toBe("!\\[x\\[y\\]z\\](https://evil.example/p.png)");
    expect(escapeCell("[a] [b]\t(https://evil.example)")).toBe("\\[a\\] \\[b\\] (https://evil.example)");
    expect(escapeCell("x ] (y) [z]")).toBe("x ] (y) [z]");
  });
});
