// JSON values as a request carries them, and how a value is named in a message: shared by every layer of the local
// service (storage, memory, engine and HTTP alike), so it imports nothing.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** Quotes a user-supplied string for an error message, shortened so a huge id cannot flood the message. */
export function quote(s: string, max = 64): string {
  const chars = [...s];
  const shown = chars.length > max ? chars.slice(0, max).join("") + "…" : s;
  return `'${shown}'`;
}

/** What a value is, for a message: "a list", "the string 'x'", "number 3". */
export function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${quote(v, 32)}`;
  return `${typeof v} ${String(v)}`;
}
