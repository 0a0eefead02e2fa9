// Text the model reads cannot carry links, images or invisible direction controls, nor run long.
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
