// A Markdown file's YAML front matter ("---" lines around "title: …", "tags: […]" at its very start) is data about the
// file, not text of it: it becomes metadata of every chunk of the file and is not chunked. Values are kept in the
// shapes the service stores (string, number, boolean, list of strings); other values are written as JSON text. A key
// this tool uses itself ("source", "chunk", the text field, …) is kept as "frontMatter.<key>". A block that is not a
// YAML mapping stays in the text, as written.
import { parse } from "yaml";

/** Front matter longer than this is left in the text (notes' front matter is a few lines). */
const MAX_FRONT_MATTER_CHARS = 64 * 1024;

export type MetadataValue = string | number | boolean | string[];

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/** The text without its front matter, and the front matter's fields (undefined when there is none). */
export function splitFrontMatter(text: string): { body: string; fields?: Record<string, unknown> } {
  const opening = OPENING.exec(text);
  if (!opening) return { body: text };
  const rest = text.slice(opening[0].length, opening[0].length + MAX_FRONT_MATTER_CHARS + 8);
  const closing = CLOSING.exec(rest);
  if (!closing || closing.index > MAX_FRONT_MATTER_CHARS) return { body: text };
  let fields: unknown;
  try {
    fields = parse(rest.slice(0, closing.index), { maxAliasCount: 16, uniqueKeys: false });
  } catch {
    return { body: text };
  }
  if (fields === null || fields === undefined) fields = {};
  if (typeof fields !== "object" || Array.isArray(fields)) return { body: text };
  const after = opening[0].length + closing.index + closing[0].length;
  return { body: text.slice(after).replace(/^\r?\n/, ""), fields: fields as Record<string, unknown> };
}

function metadataValue(value: unknown): MetadataValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")) return value.map(String);
  return JSON.stringify(value);
}

/** The fields as record metadata; a key in `reserved` is kept as "frontMatter.<key>"; empty values are left out. */
export function frontMatterMetadata(fields: Record<string, unknown> | undefined, reserved: ReadonlySet<string>): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const [key, raw] of Object.entries(fields ?? {})) {
    const value = metadataValue(raw);
    if (value === undefined || key === "") continue;
    out[reserved.has(key) ? `frontMatter.${key}` : key] = value;
  }
  return out;
}
