// Schema pieces shared by tools.
import { z } from "zod";
import { nothingWas, type Untouched } from "../refusal.js";

type ErrorParam = { error: (issue: { path?: PropertyKey[]; input?: unknown }) => string };

/**
 * zod check options (`.max(512, ruleError(…))`) whose message says where, what was given and the rule:
 * "record at position 3, id is "": record ids are 1–512 characters. Nothing was written."
 * `list` names the argument whose items are called records (their position is named); `untouched` ends the message.
 */
export function ruleError(
  text: string,
  opts: { list?: string; untouched?: Untouched; detail?: (input: unknown) => { at: string; what: string } | undefined } = {},
): ErrorParam {
  const after = opts.untouched ? ` ${nothingWas(opts.untouched)}` : "";
  return {
    error: (issue) => {
      const path = issue.path ?? [];
      const inRecord = opts.list !== undefined && path[0] === opts.list && typeof path[1] === "number";
      const field = (inRecord ? path.slice(2) : path)
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "");
      const where = inRecord ? `record at position ${String(path[1])}${field ? `, ${field}` : ""}` : field;
      const value = issue.input;
      const detail = opts.detail?.(value);
      if (detail) return `${where}${detail.at} ${detail.what}.${after}`;
      const chars = typeof value === "string" ? [...value] : []; // counted as the limits count them (textArg)
      const got =
        typeof value === "number"
          ? ` is ${value}`
          : typeof value === "string"
            ? chars.length > 40
              ? ` is ${JSON.stringify(`${chars.slice(0, 40).join("")}…`)} (${chars.length} characters)`
              : ` is ${JSON.stringify(value)}`
            : "";
      return `${where}${got}: ${text}.${after}`;
    },
  };
}

/**
 * A list of finite numbers with min/max length — the same JSON Schema as `z.array(z.number()).min(min).max(max)`
 * ({type: array, items: {type: number}, minItems, maxItems}), checked in one loop. zod's per-element parse costs
 * ~100 ns a number: 0.8 s for an upsert of 10,000 × 768 values; this check takes a tenth of that. Build `error` with
 * ruleError(…, { detail: numberListProblem }) so that the message names the first item that is not a number.
 */
export function numberList(opts: { min: number; max: number } & ErrorParam): z.ZodType<number[]> {
  const ok = (v: unknown) => {
    if (!Array.isArray(v) || v.length < opts.min || v.length > opts.max) return false;
    for (let i = 0; i < v.length; i++) if (typeof v[i] !== "number" || !Number.isFinite(v[i])) return false;
    return true;
  };
  return z
    .any()
    .check(z.refine(ok, { error: opts.error, abort: true }))
    .meta({ type: "array", items: { type: "number" }, minItems: opts.min, maxItems: opts.max }) as unknown as z.ZodType<number[]>;
}

/** Describes a value `JSON.stringify`-style, shortened: `a string "0.1"`, `null`, `an object`. */
function kindOf(v: unknown): string {
  if (typeof v === "string") return `a string ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`;
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "number") return String(v);
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** The first item of a would-be number list that is not a finite number: `[3]` `is a string "0.1", not a number`. */
export function numberListProblem(v: unknown): { at: string; what: string } | undefined {
  if (!Array.isArray(v)) return { at: "", what: `is ${kindOf(v)}, not a list of numbers` };
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== "number") return { at: `[${i}]`, what: `is ${kindOf(v[i])}, not a number` };
  }
  return undefined;
}

/** How a tool's argument errors read (see ruleError): each ends with what was untouched, e.g. "Nothing was written.". */
export type RuleOptions = { list?: string; untouched?: Untouched };

/**
 * A string of `min`–`max` characters, counted as the service counts them — code points, so an emoji is one, where
 * zod's min/max would count UTF-16 units; both limits answer with `error`, and the JSON Schema says the same.
 */
export function textArg(min: number, max: number, error: ErrorParam) {
  const fits = (s: string) => {
    if (min <= 1 && s.length <= max) return s.length >= min; // code points ≤ UTF-16 units, and ≥ 1 when there is one
    const n = [...s].length;
    return n >= min && n <= max;
  };
  return z.string().check(z.refine(fits, error)).meta({ ...(min > 0 && { minLength: min }), maxLength: max });
}

/** A whole number from `min` to `max`; every limit answers with `error`. */
export function wholeNumberArg(min: number, max: number, error: ErrorParam) {
  return z.number().int(error).min(min, error).max(max, error);
}

/** "." and ".." would be read as path steps in the URL (/indexes/.. is /): another resource would be asked. */
const notDotSegment = (name: string) => name !== "." && name !== "..";

/** The `index` argument of a tool that works on an existing index. */
export function indexArg(description?: string, rules: RuleOptions = {}) {
  const arg = textArg(1, 45, ruleError("index names are 1–45 characters", rules)).refine(notDotSegment, ruleError('"." and ".." are not index names', rules));
  return description === undefined ? arg : arg.describe(description);
}

/** The `name` argument of a tool that works on an existing collection. */
export function collectionArg(description: string) {
  return textArg(1, 45, ruleError("collection names are 1–45 characters"))
    .refine(notDotSegment, ruleError('"." and ".." are not collection names'))
    .describe(description);
}

/** The optional `namespace` argument; omitted means the default namespace "". */
export function namespaceArg(description?: string, rules: RuleOptions = {}) {
  const arg = textArg(0, 512, ruleError("namespaces are at most 512 characters", rules)).optional();
  return description === undefined ? arg : arg.describe(description);
}

/** A record id, 1–512 characters (undescribed: each tool says what the id is for). */
export function recordIdArg(rules: RuleOptions = {}) {
  return textArg(1, 512, ruleError("record ids are 1–512 characters", rules));
}

/**
 * A sparse vector argument {indices, values} of at most 2048 non-zero values (`nonEmpty`: 1–2048). That both lists
 * have the same length is checked against the call, not here.
 */
export function sparseVectorArg(rules: RuleOptions, opts: { nonEmpty: boolean }) {
  const position = ruleError("sparse indices are unsigned 32-bit integers (0–4294967295)", rules);
  const count = ruleError(`a sparse vector has ${opts.nonEmpty ? "1–2048" : "at most 2048"} non-zero values`, rules);
  const list = (item: z.ZodNumber) => (opts.nonEmpty ? z.array(item).min(1, count) : z.array(item)).max(2048, count);
  return z.object({
    indices: list(z.number().int(position).min(0, position).max(4_294_967_295, position)),
    values: list(z.number()),
  });
}

/** Sparse values in a tool's result (fetch_vectors, query_vectors). */
export const SparseValuesOutput = z.object({
  indices: z.array(z.number()).describe("Positions."),
  values: z.array(z.number()).describe("Values."),
});
