// Reads a refusal's text back into its fields, so a test asserts what was wrong, what was untouched and the next step
// without repeating the formatting (src/tool-kit/refusal.ts owns it; test/tool-kit/refusal.test.ts pins it).
import type { Refusal, Untouched } from "../../src/tool-kit/refusal.js";

export function refusalOf(text: string): Refusal {
  const at = text.indexOf("\nNext step: ");
  const said = at < 0 ? text : text.slice(0, at);
  const next = at < 0 ? undefined : text.slice(at + "\nNext step: ".length);
  const m = /^([\s\S]*?)([ \n])Nothing was (read|written|created|changed|deleted)\.$/.exec(said);
  // The full stop the formatter adds before "Nothing was …" on the same line is not part of the problem.
  const problem = m ? (m[2] === " " ? m[1].replace(/\.$/, "") : m[1]) : said;
  return { problem, untouched: m ? (m[3] as Untouched) : false, ...(next !== undefined && { next }) };
}
