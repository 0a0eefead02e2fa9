// An HTML page's readable text as sections: <h1>–<h6> open sections (their text is the heading path), block
// elements end paragraphs, <br> ends a line, and what a reader never sees (<script>, <style>, <template>, <head>
// except its <title>, hidden inputs' values) is left out. htmlparser2 does the tokenising and entity decoding; the
// walk below only decides where paragraphs and sections begin.
import { Parser } from "htmlparser2";
import type { Section } from "./sections.js";

const SKIPPED = new Set(["script", "style", "template", "noscript", "svg", "math", "iframe", "object", "canvas", "head"]);
const BLOCKS = new Set([
  "p", "div", "section", "article", "main", "aside", "header", "footer", "nav", "blockquote", "pre", "li", "ul", "ol",
  "dl", "dt", "dd", "table", "tr", "td", "th", "figure", "figcaption", "hr", "address", "details", "summary", "form",
  "fieldset", "body", "html",
]);

export function htmlSections(html: string): Section[] {
  const sections: Section[] = [];
  const stack: { level: number; title: string }[] = [];
  let current: Section = { headings: [], paragraphs: [] };
  let text = "";
  let skipping = 0;
  let heading: { level: number; text: string } | undefined;
  let title = "";
  let inTitle = false;
  let preDepth = 0;

  const endParagraph = () => {
    const body = preDepth > 0 ? text.replace(/^\n+|\s+$/g, "") : text.replace(/[ \t\f\r\n]+/g, " ").trim();
    if (body !== "") current.paragraphs.push(body);
    text = "";
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (name === "title") inTitle = true;
        if (SKIPPED.has(name)) skipping++;
        if (skipping > 0) return;
        const level = /^h([1-6])$/.exec(name);
        if (level) {
          endParagraph();
          heading = { level: Number(level[1]), text: "" };
        } else if (name === "br") text += "\n";
        else if (BLOCKS.has(name)) endParagraph();
        if (name === "pre") preDepth++;
      },
      ontext(data) {
        if (inTitle) title += data;
        if (skipping > 0) return;
        if (heading) heading.text += data;
        else text += data;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (SKIPPED.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (skipping > 0) return;
        if (heading && name === `h${heading.level}`) {
          const titleText = heading.text.replace(/\s+/g, " ").trim() || "(untitled)";
          if (current.paragraphs.length > 0) sections.push(current);
          while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) stack.pop();
          stack.push({ level: heading.level, title: titleText });
          current = { headings: stack.map((h) => h.title), paragraphs: [titleText] };
          heading = undefined;
        } else if (BLOCKS.has(name)) endParagraph();
        if (name === "pre") preDepth = Math.max(0, preDepth - 1);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  endParagraph();
  if (current.paragraphs.length > 0) sections.push(current);
  // A page whose only heading-less text comes first gets its <title> as the heading path of that text.
  const pageTitle = title.replace(/\s+/g, " ").trim();
  if (pageTitle !== "" && sections[0] && sections[0].headings.length === 0) sections[0].headings = [pageTitle];
  return sections;
}
