// Unknown argument keys, found before any tool runs. zod (which checks the arguments) drops a key it does not know, so
// `dry_run: true` or a record's `meta` would be ignored and the call would succeed without them. This walks the
// arguments beside the tool's JSON Schema (the one tools/list shows, tool-schemas.ts): in every object whose schema
// names its properties and closes them (additionalProperties: false), a key not named is refused. Objects whose
// schema is a map (z.record: metadata, filters, tags, a text record's fields) hold data and are not looked into.
// It needs nothing from the tool, so every tool registered later is checked the same way.
import type { JsonSchema } from "./tool-schemas.js";
import { nothingWas, untouchedBy, type Declared } from "../tool-kit/refusal.js";

export interface UnknownArgument {
  /** The key as given. */
  key: string;
  /** Where the object holding it sits, e.g. "vectors[3]"; "" for the top level. */
  at: string;
  /** The valid name closest to `key`, when one is close enough. */
  suggestion?: string;
  /** The names that object takes. */
  valid: string[];
  /** Further objects in the same place of other list items with the same key (e.g. every record with `meta`). */
  more: number;
}

/** Keys compared as a person would: case, "_", "-" and spaces aside (dry_run ~ dryRun ~ DryRun). */
const loose = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The valid name a model most likely meant by `key`, or undefined when none is close. */
export function nearestName(key: string, names: readonly string[]): string | undefined {
  const k = loose(key);
  if (k === "") return undefined;
  const same = names.find((n) => loose(n) === k);
  if (same !== undefined) return same;
  const allowed = k.length <= 4 ? 1 : k.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = distance(k, loose(name));
    if (d <= allowed && d < bestDistance) [best, bestDistance] = [name, d];
  }
  if (best !== undefined) return best;
  // A shortened or lengthened name: meta → metadata, include → includeMetadata only when that is the one such name.
  const extended = names.filter((n) => {
    const l = loose(n);
    return k.length >= 3 && (l.startsWith(k) || k.startsWith(l));
  });
  return extended.length === 1 ? extended[0] : undefined;
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return schema;
  const target = (root.$defs as Record<string, JsonSchema> | undefined)?.[ref.slice("#/$defs/".length)];
  return target ? resolve(target, root) : schema;
}

/** Whether values of this schema can hold a closed object somewhere (so a list of them is worth walking). */
function holdsObjects(schema: JsonSchema, root: JsonSchema): boolean {
  const s = resolve(schema, root);
  if (s.type === "object") return s.properties !== undefined;
  if (s.type === "array" && s.items && typeof s.items === "object") return holdsObjects(s.items as JsonSchema, root);
  return false;
}

/** Every unknown key in `args` under `schema` (a tool's input schema), grouped by place and key. */
export function unknownArguments(schema: JsonSchema, args: unknown): UnknownArgument[] {
  const found = new Map<string, UnknownArgument>();
  // The path is kept as a stack and turned into text only for an unknown key: a 10,000-record upsert is walked whole.
  const path: (string | number)[] = [];
  const text = (withIndexes: boolean) =>
    path.map((p) => (typeof p === "number" ? (withIndexes ? `[${p}]` : "[]") : `.${p}`)).join("").replace(/^\./, "");
  const walk = (node: JsonSchema, value: unknown) => {
    const s = resolve(node, schema);
    if (value === null || typeof value !== "object") return; // a wrong type is the schema check's to report
    if (Array.isArray(value)) {
      const items = s.items;
      if (s.type !== "array" || !items || typeof items !== "object" || !holdsObjects(items as JsonSchema, schema)) return;
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(items as JsonSchema, value[i]);
        path.pop();
      }
      return;
    }
    if (s.type !== "object" || s.properties === undefined || (s.additionalProperties !== false && s.additionalProperties !== undefined)) return;
    const properties = s.properties as Record<string, JsonSchema>;
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) {
        path.push(key);
        walk(properties[key], (value as Record<string, unknown>)[key]);
        path.pop();
        continue;
      }
      const group = `${text(false)}\u0000${key}`;
      const seen = found.get(group);
      if (seen) seen.more++;
      else {
        const valid = Object.keys(properties);
        found.set(group, { key, at: text(true), valid, more: 0, ...withSuggestion(key, valid) });
      }
    }
  };
  walk(schema, args);
  return [...found.values()];
}

function withSuggestion(key: string, valid: readonly string[]): { suggestion?: string } {
  const suggestion = nearestName(key, valid);
  return suggestion === undefined ? {} : { suggestion };
}

/** How the refusal ends, by what the tool would have done. */
export function nothingDone(tool: Declared): string {
  return nothingWas(untouchedBy(tool));
}

function quoteList(names: readonly string[]): string {
  return names.length === 0 ? "no arguments" : names.map((n) => JSON.stringify(n)).join(", ");
}

function describeOne(u: UnknownArgument, toolName: string): string {
  const where = u.at ? ` in ${u.at}${u.more > 0 ? ` (and ${u.more} more like it)` : ""}` : "";
  const hint = u.suggestion !== undefined
    ? `did you mean ${JSON.stringify(u.suggestion)}?`
    : `${u.at || toolName} takes ${quoteList(u.valid)}.`;
  return `${JSON.stringify(u.key)}${where} — ${hint}`;
}

/**
 * The refusal a model reads:
 * `Unknown argument "dry_run" — did you mean "dryRun"? Nothing was written.`
 * `Unknown argument "meta" in vectors[0] (and 9 more like it) — did you mean "metadata"? Nothing was written.`
 * `Unknown argument "records" — upsert_vectors takes "index", "namespace", "vectors". Nothing was written.`
 * Several unknown keys: one per line after "Unknown arguments — <nothing done>".
 */
export function unknownArgumentsText(found: readonly UnknownArgument[], toolName: string, nothing: string): string {
  if (found.length === 1) return `Unknown argument ${describeOne(found[0], toolName)} ${nothing}`;
  return `Unknown arguments — ${nothing[0].toLowerCase()}${nothing.slice(1)}\n${found.map((u) => `- ${describeOne(u, toolName)}`).join("\n")}`;
}
