// Markdown tables whose cells cannot break the table or smuggle markup: data from the service is escaped.

export type Cell = string | number | boolean | null | undefined;

/**
 * `opts.whole`: cells are not cut at MAX_CELL_CHARS — for tables of record data that the caller already keeps within
 * a budget of its own (query and fetch results carry every asked-for value whole).
 */
export function markdownTable(headers: string[], rows: Cell[][], opts: { whole?: boolean } = {}): string {
  const cell = (value: Cell) => escapeCell(value, opts.whole ? Infinity : MAX_CELL_CHARS);
  const head = `| ${headers.map((h) => cell(h)).join(" | ")} |`;
  const rule = `| ${headers.map(() => "---").join(" | ")} |`;
  const body = rows.map((row) => markdownRow(row, headers.length, opts));
  return [head, rule, ...body].join("\n");
}

/** One row of a markdownTable with `columns` columns (also what a row costs in a result's budget). */
export function markdownRow(row: Cell[], columns: number, opts: { whole?: boolean } = {}): string {
  const cells: string[] = [];
  for (let i = 0; i < columns; i++) cells.push(escapeCell(row[i], opts.whole ? Infinity : MAX_CELL_CHARS));
  return `| ${cells.join(" | ")} |`;
}

// Characters that change how text reads without showing themselves: bidirectional overrides and isolates (which can
// make a cell display something other than what it holds), zero-width spaces and joiners, the word joiner family, the
// byte-order mark, and the C1 controls (U+0080–U+009F: NEL breaks a line in some readers, CSI starts a terminal escape).
const INVISIBLE = /[\u0080-\u009f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0]/g;

/** `text` without invisible and direction-changing characters. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

/**
 * Text from elsewhere (a service's message) as one JSON-quoted line: invisible and control characters dropped or
 * escaped, every line break escaped — so it cannot start a line of its own (a forged "Next step:") in what the model reads.
 */
export function quotedLine(text: string): string {
  return JSON.stringify(stripInvisible(text)).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A cell is cut past this many characters (a name or message from the service can be any length). */
export const MAX_CELL_CHARS = 1000;

/**
 * One cell's text: null/undefined → "", line breaks → a space, other control characters dropped, `\`, `|` and
 * backticks escaped with a backslash, `<` written as `&lt;` (no HTML tags), brackets escaped where they would make a
 * link or image, invisible and direction-changing characters dropped, at most MAX_CELL_CHARS characters, and a start that
 * would read as a heading, quote, list item or rule escaped (numbers are left as they are).
 */
export function escapeCell(value: Cell, maxChars = MAX_CELL_CHARS): string {
  if (value === null || value === undefined) return "";
  const raw = [...stripInvisible(String(value))];
  let s = (raw.length > maxChars ? `${raw.slice(0, maxChars - 1).join("")}…` : raw.join(""))
    .replace(/\r\n|[\r\n\u2028\u2029]/g, " ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/\t/g, " ")
    .replace(/[\\|`]/g, (c) => `\\${c}`)
    .replace(/</g, "&lt;")
    .trim();
  // A link, image or reference ([text](url), ![alt](url), [text][ref], [ref]: url) would render or be followed.
  if (mayLink(s)) s = s.replace(/[[\]]/g, (c) => `\\${c}`);
  if (typeof value !== "number" && /^(#|>|[-+*](\s|$)|=+$|\d+[.)](\s|$))/.test(s)) s = `\\${s}`;
  return s;
}

/**
 * Whether a "]" that has a "[" anywhere before it is followed (after white space) by "(", "[" or ":": a link, image or
 * reference, nested brackets included ("![x[y]z](url)"). One pass: a regex such as /\[[^\]]*\]\s*[([:]/ backtracks
 * from every "[" of a run and takes quadratic time on "[[[[…".
 */
function mayLink(s: string): boolean {
  let opened = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "[") opened = true;
    else if (c === "]" && opened) {
      let j = i + 1;
      while (j < s.length && /\s/.test(s[j])) j++;
      if (s[j] === "(" || s[j] === "[" || s[j] === ":") return true;
      i = j - 1; // the white space after "]" is not looked at again
    }
  }
  return false;
}
