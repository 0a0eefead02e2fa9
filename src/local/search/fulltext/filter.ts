// Filters on documents: the metadata filter language (../filter.ts, answered by the metadata index) plus the
// text-match operators on full-text fields — $match_phrase (the words in order, next to each other), $match_all
// (every word), $match_any (at least one word) — each given a text analysed as the field is. A text that analyses to
// no term (only stop words) matches no document. A full-text field is not in the metadata index: it takes only these.
import { compileFilter, FilterError, type CompiledFilter } from "../filter.js";
import { intersect, unionAll } from "../../memory/metadata-index.js";
import { describe, quote, type Json, type JsonObject } from "../../json.js";
import type { NamespaceVectors } from "../../memory/vectors.js";
import type { DocumentText } from "./document-text.js";
import { evaluate } from "./evaluate.js";
import type { FullTextQuery } from "./query.js";

const MATCH_OPERATORS = ["$match_phrase", "$match_all", "$match_any"];
const MAX_DEPTH = 32;

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks a documents filter whole before anything is read: text-match operators only where `textMatch` allows them
 * (search), only on full-text fields, each with a non-empty string; everything else as any metadata filter. Returns
 * the filter compiled without its text-match operators (where they are refused, the whole filter).
 */
export function checkDocumentFilter(filter: Json, fullTextFields: ReadonlySet<string>, textMatch: boolean): CompiledFilter {
  if (!isObject(filter)) throw new FilterError("object", "filter", `filter must be an object, got ${describe(filter)}`);
  return compileFilter(withoutTextMatch(filter, fullTextFields, textMatch, 0))!;
}

function withoutTextMatch(filter: Json, fields: ReadonlySet<string>, textMatch: boolean, depth: number): Json {
  if (depth > MAX_DEPTH || !isObject(filter)) return filter; // compileFilter names what is wrong
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(filter)) {
    if ((key === "$and" || key === "$or") && Array.isArray(value)) {
      out[key] = value.map((f) => withoutTextMatch(f, fields, textMatch, depth + 1));
      continue;
    }
    if (fields.has(key) && (!isObject(value) || Object.keys(value).some((op) => !MATCH_OPERATORS.includes(op)))) {
      const op = isObject(value) ? Object.keys(value).find((o) => !MATCH_OPERATORS.includes(o)) : "$eq";
      throw new FilterError(
        "condition",
        key,
        `field ${quote(key)} is a full-text field: it is matched by its words with $match_phrase, $match_all or $match_any${textMatch ? "" : " (in search)"}, not filtered by value (${op})`,
      );
    }
    if (!isObject(value) || key.startsWith("$")) {
      out[key] = value;
      continue;
    }
    const rest: JsonObject = {};
    let matched = false;
    for (const [op, arg] of Object.entries(value)) {
      if (!MATCH_OPERATORS.includes(op)) {
        rest[op] = arg;
        continue;
      }
      if (!textMatch) {
        throw new FilterError("operator", key, `${op} on field ${quote(key)}: the text-match operators ($match_phrase, $match_all, $match_any) are supported only in search, not here (documents are selected on metadata alone)`);
      }
      if (!fields.has(key)) {
        const known = [...fields].map((f) => quote(f)).join(", ") || "none";
        throw new FilterError("operator", key, `${op} needs a full-text field; ${quote(key)} is not one of this index's (${known})`);
      }
      if (typeof arg !== "string" || arg.trim() === "") throw new FilterError("operand", key, `${op} on field ${quote(key)} needs a non-empty text, got ${describe(arg)}`);
      matched = true;
    }
    if (!matched || Object.keys(rest).length > 0) out[key] = rest;
  }
  return out;
}

/** The slots of the namespace a (checked) documents filter keeps, sorted ascending. */
export function selectDocuments(filter: Json, nv: NamespaceVectors, text: DocumentText): number[] {
  const live = () => nv.liveSlots();
  const object = (f: JsonObject): number[] => {
    let result: number[] | undefined;
    for (const [key, value] of Object.entries(f)) {
      let part: number[];
      if (key === "$and") part = (value as JsonObject[]).map(object).reduce((a, b) => intersect(a, b));
      else if (key === "$or") part = unionAll((value as JsonObject[]).map(object));
      else part = field(key, value);
      result = result === undefined ? part : intersect(result, part);
      if (result.length === 0) return result;
    }
    return result ?? live();
  };
  const field = (name: string, cond: Json): number[] => {
    if (!isObject(cond) || !Object.keys(cond).some((op) => MATCH_OPERATORS.includes(op))) {
      return nv.metadataIndex().select({ [name]: cond }, live);
    }
    const rest: JsonObject = {};
    const parts: number[][] = [];
    for (const [op, arg] of Object.entries(cond)) {
      if (MATCH_OPERATORS.includes(op)) parts.push(textMatch(text, name, op, arg as string));
      else rest[op] = arg;
    }
    if (Object.keys(rest).length > 0) parts.push(nv.metadataIndex().select({ [name]: rest }, live));
    return parts.reduce((a, b) => intersect(a, b));
  };
  return object(filter as JsonObject);
}

function textMatch(text: DocumentText, name: string, op: string, arg: string): number[] {
  const field = text.fields.get(name);
  if (!field) return [];
  const { terms, positions } = field.analyzer.analyze(arg);
  if (terms.length === 0) return [];
  const leaves: FullTextQuery[] = terms.map((term) => ({ kind: "term", field: name, term, boost: 1 }));
  let q: FullTextQuery;
  if (op === "$match_any") q = { kind: "bool", must: [], should: leaves, mustNot: [], boost: 1 };
  else if (op === "$match_all") q = { kind: "bool", must: leaves, should: [], mustNot: [], boost: 1 };
  else if (terms.length === 1) q = leaves[0];
  else q = { kind: "phrase", field: name, terms: terms.map((term, i) => ({ term, offset: positions[i] - positions[0] })), slop: 0, prefixLast: false, boost: 1 };
  return Array.from(Int32Array.from(evaluate(text, q), (h) => h.slot).sort());
}
