// Sections → chunks of at most `size` characters that follow the text's own shape: a chunk never spans two
// sections; within a section whole paragraphs are packed first, a paragraph too long for a chunk is split into
// sentences, and a sentence too long into hard cuts (at a space when one is near). Each chunk after the first of a
// section starts with up to `overlap` characters of the one before it (from a word boundary), so a sentence cut
// between two chunks can still be found whole.
import { headingPath, type Section } from "./sections.js";

export interface Chunk {
  text: string;
  /** "Setup > Linux", or "" before the first heading. */
  headingPath: string;
}

export interface ChunkSizes {
  size: number;
  overlap: number;
}

// A sentence ends at . ! ? (or their full-width forms) followed by a space or the end, closing quotes kept with it.
const SENTENCE_END = /(?<=[.!?。！？]["'”’)\]]*)\s+/u;

/** Splits `text` into pieces of at most `max` characters, at a whitespace in the last fifth when there is one. */
function hardCuts(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    const space = rest.lastIndexOf(" ", max);
    if (space > max * 0.8) cut = space;
    // never between the two halves of a surrogate pair
    else if (/[\uD800-\uDBFF]/.test(rest[cut - 1])) cut -= 1;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.trim() !== "") pieces.push(rest.trim());
  return pieces.filter((p) => p !== "");
}

/** A paragraph as pieces that each fit `max`: itself, else its sentences, else hard cuts of a long sentence. */
function fittingPieces(paragraph: string, max: number): { text: string; joiner: string }[] {
  if (paragraph.length <= max) return [{ text: paragraph, joiner: "\n\n" }];
  return paragraph
    .split(SENTENCE_END)
    .flatMap((sentence) => (sentence.length <= max ? [sentence] : hardCuts(sentence, max)))
    .filter((s) => s !== "")
    .map((text, i) => ({ text, joiner: i === 0 ? "\n\n" : " " }));
}

/** The last `overlap` characters of `text`, starting at a word boundary ("" when no boundary is that close). */
function tail(text: string, overlap: number): string {
  if (overlap <= 0 || text.length === 0) return "";
  if (text.length <= overlap) return text;
  const start = text.length - overlap;
  const space = text.slice(start).search(/\s/);
  return space < 0 ? "" : text.slice(start + space).trim();
}

export function chunkSections(sections: readonly Section[], { size, overlap }: ChunkSizes): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const path = headingPath(section.headings);
    let text = "";
    let fresh = true; // the current chunk holds only the overlap carried from the chunk before
    const flush = () => {
      if (!fresh) chunks.push({ text, headingPath: path });
      const carried = tail(text, overlap);
      text = carried;
      fresh = true;
    };
    // Room for new text beside the carried overlap: a piece always fits a chunk on its own.
    const budget = Math.max(1, size - Math.min(overlap, size >> 1) - 2);
    for (const paragraph of section.paragraphs) {
      for (const piece of fittingPieces(paragraph, budget)) {
        const joined = text === "" ? piece.text : text + piece.joiner + piece.text;
        if (joined.length <= size) {
          text = joined;
          fresh = false;
          continue;
        }
        flush();
        text = text === "" || text.length + 1 + piece.text.length > size ? piece.text : text + " " + piece.text;
        fresh = false;
      }
    }
    if (!fresh) chunks.push({ text, headingPath: path });
  }
  return chunks;
}
