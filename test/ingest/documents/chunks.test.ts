import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { chunkSections } from "../../../src/ingest/documents/chunks.js";
import { documentText } from "../../../src/ingest/documents/document-text.js";
import { htmlSections } from "../../../src/ingest/documents/html-sections.js";
import { markdownSections, plainSections } from "../../../src/ingest/documents/sections.js";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("markdown sections", () => {
  test("headings open sections with their path; fenced code is not a heading", () => {
    const md = "Intro line.\n\n# Setup\n\nInstall it.\n\n## Linux\n\n```sh\n# not a heading\napt install x\n```\n\nThen run.\n\nWindows\n-------\n\nUse the installer.\n\n# Use\nCall it.";
    expect(markdownSections(md)).toEqual([
      { headings: [], paragraphs: ["Intro line."] },
      { headings: ["Setup"], paragraphs: ["# Setup", "Install it."] },
      { headings: ["Setup", "Linux"], paragraphs: ["## Linux", "```sh\n# not a heading\napt install x\n```", "Then run."] },
      { headings: ["Setup", "Windows"], paragraphs: ["Windows\n-------", "Use the installer."] },
      { headings: ["Use"], paragraphs: ["# Use", "Call it."] },
    ]);
  });

  test("plain text is one section of paragraphs", () => {
    expect(plainSections("a\nb\n\n  \n\nc\r\n\r\nd")).toEqual([{ headings: [], paragraphs: ["a\nb", "c", "d"] }]);
  });
});

describe("chunks", () => {
  test("paragraphs are packed whole, sentences next, hard cuts last; a chunk never spans sections", () => {
    const long = "First sentence is here. Second sentence follows it. Third one ends the paragraph.";
    const chunks = chunkSections(
      [
        { headings: ["A"], paragraphs: ["# A", "short one", long] },
        { headings: ["A", "B"], paragraphs: ["## B", "x".repeat(70)] },
      ],
      { size: 40, overlap: 0 },
    );
    expect(chunks).toEqual([
      { text: "# A\n\nshort one\n\nFirst sentence is here.", headingPath: "A" },
      { text: "Second sentence follows it.", headingPath: "A" },
      { text: "Third one ends the paragraph.", headingPath: "A" },
      { text: "## B", headingPath: "A > B" },
      { text: "x".repeat(38), headingPath: "A > B" },
      { text: "x".repeat(32), headingPath: "A > B" },
    ]);
  });

  test("a chunk after the first of a section starts with the end of the one before", () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
    const chunks = chunkSections([{ headings: [], paragraphs: [words] }], { size: 50, overlap: 12 });
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1].text;
      const carried = [...Array(13).keys()].filter((k) => k > 1 && previous[previous.length - k - 1] === " " && chunks[i].text.startsWith(previous.slice(-k)));
      expect(carried.length, `${previous} | ${chunks[i].text}`).toBeGreaterThan(0);
    }
    expect(chunks.length).toBeGreaterThan(4);
  });

  test("no chunk is longer than the size, no text is lost (without overlap)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 300 }), { maxLength: 8 }), fc.integer({ min: 10, max: 120 }), (paragraphs, size) => {
        const kept = paragraphs.map((p) => p.trim()).filter((p) => p !== "");
        const chunks = chunkSections([{ headings: [], paragraphs: kept }], { size, overlap: 0 });
        for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(size);
        const squash = (s: string) => s.replace(/\s+/g, "");
        expect(squash(chunks.map((c) => c.text).join(""))).toBe(squash(kept.join("")));
      }),
    );
  });
});

describe("html and encodings", () => {
  test("headings, blocks and entities; scripts and styles left out; the title names heading-less text", () => {
    const html = "<html><head><title>Notes</title><style>p{}</style></head><body><p>Lead &amp; intro</p><h1>Setup</h1><p>Step one<br>Step two</p><script>alert(1)</script><h2>Linux</h2><ul><li>apt</li><li>dnf</li></ul></body></html>";
    expect(htmlSections(html)).toEqual([
      { headings: ["Notes"], paragraphs: ["Lead & intro"] },
      { headings: ["Setup"], paragraphs: ["Setup", "Step one Step two"] },
      { headings: ["Setup", "Linux"], paragraphs: ["Linux", "apt", "dnf"] },
    ]);
  });

  test("UTF-8 with a BOM is read; UTF-16, Latin-1 and binary are refused with the reason", () => {
    expect(documentText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("héllo")]), "text")).toEqual({ ok: true, sections: [{ headings: [], paragraphs: ["héllo"] }] });
    expect(documentText(new Uint8Array([0xff, 0xfe, 0x68, 0x00]), "text")).toEqual({ ok: false, reason: "not UTF-8 (a UTF-16 little-endian byte order mark)" });
    expect(documentText(new Uint8Array([0x68, 0xe9, 0x6c]), "text")).toEqual({ ok: false, reason: "not UTF-8 (invalid byte sequences)" });
    expect(documentText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]), "markdown")).toEqual({ ok: false, reason: "binary content (NUL bytes)" });
  });
});
