// Short forms of record data for table cells; the full values go to structuredContent.

/** Rows a tool's table shows at most; the rest is in structuredContent (a model reads the table in full). */
export const TABLE_ROWS = 100;

/** `text` cut to at most `max` characters, the cut marked with "…". */
export function shorten(text: string, max = 40): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** One metadata value as a cell: lists joined with ", ", anything else as its text; shortened. */
export function metadataValue(value: unknown, max = 40): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return shorten(value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", "), max);
  if (typeof value === "object") return shorten(JSON.stringify(value), max);
  return shorten(String(value), max);
}

/** A whole metadata map in one cell: "genre: sf; year: 1965", each value shortened. */
export function metadataSummary(metadata: Record<string, unknown> | null | undefined, max = 40): string {
  if (!metadata) return "";
  return Object.entries(metadata)
    .map(([k, v]) => `${shorten(k, max)}: ${metadataValue(v, max)}`)
    .join("; ");
}
