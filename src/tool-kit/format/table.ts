// Markdown tables whose cells cannot break the table or smuggle markup: data from the service is escaped.

type Cell = string | number | boolean | null | undefined;

export function markdownTable(headers: string[], rows: Cell[][]): string {
  const head = `| ${headers.map(escapeCell).join(" | ")} |`;
  const rule = `| ${headers.map(() => "---").join(" | ")} |`;
  const body = rows.map((row) => `| ${headers.map((_, i) => escapeCell(row[i])).join(" | ")} |`);
  return [head, rule, ...body].join("\n");
}

/**
 * One cell's text: null/undefined → "", line breaks → a space, other control characters dropped, `\`, `|` and
 * backticks escaped with a backslash, `<` written as `&lt;` (no HTML tags), and a start that would read as a
 * heading, quote, list item or rule escaped (numbers are left as they are).
 */
export function escapeCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  let s = String(value)
    .replace(/\r\n|[\r\n\u2028\u2029]/g, " ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/\t/g, " ")
    .replace(/[\\|`]/g, (c) => `\\${c}`)
    .replace(/</g, "&lt;")
    .trim();
  if (typeof value !== "number" && /^(#|>|[-+*](\s|$)|=+$|\d+[.)](\s|$))/.test(s)) s = `\\${s}`;
  return s;
}
