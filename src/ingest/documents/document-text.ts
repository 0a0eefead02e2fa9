// A file's bytes → the document's sections, or the reason it is skipped. Formats by extension: Markdown, plain text
// and HTML (the third format people keep notes in: saved web pages, exported notes; PDF needs a parser far larger
// than the rest of the server and returns text without its headings). Text must be UTF-8 (a BOM is dropped);
// anything else is skipped with the reason, never decoded into replacement characters.
import { extname } from "node:path";
import { splitFrontMatter } from "./front-matter.js";
import { htmlSections } from "./html-sections.js";
import { markdownSections, plainSections, type Section } from "./sections.js";

export type DocumentFormat = "markdown" | "text" | "html";

const FORMATS: Record<string, DocumentFormat> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".mdx": "markdown",
  ".txt": "text",
  ".text": "text",
  ".html": "html",
  ".htm": "html",
  ".xhtml": "html",
};

export const SUPPORTED_EXTENSIONS = Object.keys(FORMATS);

export function documentFormat(path: string): DocumentFormat | undefined {
  return FORMATS[extname(path).toLowerCase()];
}

/** `frontMatter`: a Markdown file's front matter fields (front-matter.ts), kept out of its sections. */
export type DocumentText = { ok: true; sections: Section[]; frontMatter?: Record<string, unknown> } | { ok: false; reason: string };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  return head.includes(0);
}

export function documentText(bytes: Uint8Array, format: DocumentFormat): DocumentText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ok: false, reason: "not UTF-8 (a UTF-16 little-endian byte order mark)" };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ok: false, reason: "not UTF-8 (a UTF-16 big-endian byte order mark)" };
  if (looksBinary(bytes)) return { ok: false, reason: "binary content (NUL bytes)" };
  let text: string;
  try {
    text = strictUtf8.decode(bytes); // drops a UTF-8 BOM
  } catch {
    return { ok: false, reason: "not UTF-8 (invalid byte sequences)" };
  }
  if (format === "markdown") {
    const { body, fields } = splitFrontMatter(text);
    return { ok: true, sections: markdownSections(body), ...(fields ? { frontMatter: fields } : {}) };
  }
  return { ok: true, sections: format === "html" ? htmlSections(text) : plainSections(text) };
}
