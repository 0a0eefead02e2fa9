// A document's text in the shape it was written in: sections under their headings, each a list of paragraphs.
// Markdown headings (ATX "# Title" and setext "Title\n===") open sections; fenced code blocks stay whole and their
// lines are never taken for headings. Plain text is one section of blank-line-separated paragraphs.

export interface Section {
  /** The headings above this section, outermost first ("Setup", "Linux"); empty before the first heading. */
  headings: string[];
  /** The section's paragraphs in order; a section's own heading line is its first paragraph. */
  paragraphs: string[];
}

const ATX = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

/** "Setup > Linux": the heading path as metadata and tables show it. */
export function headingPath(headings: readonly string[]): string {
  return headings.join(" > ");
}

export function markdownSections(text: string): Section[] {
  const lines = text.split(/\r\n|\r|\n/);
  const sections: Section[] = [];
  const stack: { level: number; title: string }[] = [];
  let current: Section = { headings: [], paragraphs: [] };
  let paragraph: string[] = [];
  let fence: string | undefined;

  const endParagraph = () => {
    const body = paragraph.join("\n").trim();
    if (body !== "") current.paragraphs.push(body);
    paragraph = [];
  };
  const openSection = (level: number, title: string, line: string) => {
    endParagraph();
    if (current.paragraphs.length > 0) sections.push(current);
    while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, title });
    current = { headings: stack.map((h) => h.title), paragraphs: [line.trim()] };
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence !== undefined) {
      paragraph.push(line);
      if (line.trimStart().startsWith(fence)) {
        fence = undefined;
        endParagraph();
      }
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      endParagraph();
      fence = opening[1];
      paragraph.push(line);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      openSection(atx[1].length, atx[2].trim() || "(untitled)", line);
      continue;
    }
    const next = lines[i + 1];
    if (line.trim() !== "" && paragraph.length === 0 && next !== undefined && SETEXT.test(next)) {
      openSection(next.trim().startsWith("=") ? 1 : 2, line.trim(), `${line}\n${next}`);
      i++;
      continue;
    }
    if (line.trim() === "") endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  if (current.paragraphs.length > 0) sections.push(current);
  return sections;
}

export function plainSections(text: string): Section[] {
  const paragraphs = text
    .split(/(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  return paragraphs.length > 0 ? [{ headings: [], paragraphs }] : [];
}
