// Arguments that carry vectors as base64 of little-endian float32 (upsert_vectors' valuesBase64, query_vectors'
// vectorBase64, sparse valuesBase64) and how results give values back (valuesFormat). Each base64 field sits beside
// its numbers field with no union in the schema: "exactly one" is checked in code, with a message naming both.
import { z } from "zod";
import { BadBase64, base64Length, decodeFloat32Base64 } from "../../ingest/float32-base64.js";
import type { Untouched } from "../refusal.js";
import { ToolError } from "../tool-error.js";
import { ruleError, sparseVectorArg, type RuleOptions } from "./schema.js";

/**
 * A base64 string of at most `maxValues` float32 values. Only its length is checked here (zod's max: constant time,
 * however long the string); the message gives the length rather than quoting the text. The alphabet, the byte count
 * and the values are checked when it is decoded, in the order of the records (src/ingest/compact-records.ts).
 */
export function base64ValuesArg(field: string, maxValues: number, rules: RuleOptions) {
  const max = base64Length(maxValues);
  const rule = `base64 of at most ${maxValues} float32 values (${max} characters)`;
  return z.string().max(max, {
    error: (issue: { path?: PropertyKey[]; input?: unknown }) => {
      const given = typeof issue.input === "string" ? `${issue.input.length} characters given; ` : "";
      return ruleError(`${given}${field} is ${rule}`, rules).error({ path: issue.path });
    },
  });
}

/** sparseVectorArg with `values` optional and `valuesBase64` beside it (one of the two; checked in code). */
export function compactSparseVectorArg(rules: RuleOptions, opts: { nonEmpty: boolean }) {
  const plain = sparseVectorArg(rules, opts);
  return plain.extend({
    values: plain.shape.values.optional().describe("Or valuesBase64."),
    valuesBase64: base64ValuesArg("valuesBase64", 2048, rules)
      .optional()
      .describe("Base64 of little-endian float32."),
  });
}

/** How a result gives vector values back. */
export const valuesFormatArg = z
  .enum(["numbers", "base64"], ruleError('valuesFormat is "numbers" or "base64"'))
  .optional()
  .describe('"base64": values as valuesBase64 (default "numbers").');

type SparseIn = { indices: number[]; values?: number[]; valuesBase64?: string };

/**
 * A query's dense and sparse vectors with base64 decoded into numbers (a query is one vector: a list is cheap here).
 * Throws a ToolError (saying `untouched`) when a vector is given both ways or its base64 is not whole float32s.
 */
export function queryVectors(
  args: { vector?: number[]; vectorBase64?: string; sparseVector?: SparseIn },
  untouched: Untouched,
): { vector?: number[]; sparseVector?: { indices: number[]; values: number[] } } {
  const refuse = (text: string) => {
    throw new ToolError({ problem: text, untouched });
  };
  const decode = (field: string, text: string): number[] => {
    const decoded = decodeFloat32Base64(text);
    if (decoded instanceof BadBase64) return refuse(`${field} ${decoded.rule}.`);
    const at = decoded.findIndex((v) => v - v !== 0);
    if (at >= 0) return refuse(`${field}[${at}] is ${decoded[at]}; every value must be a finite number.`);
    return Array.from(decoded);
  };
  let vector = args.vector;
  if (args.vectorBase64 !== undefined) {
    if (vector !== undefined) refuse("Give vector or vectorBase64, not both.");
    vector = decode("vectorBase64", args.vectorBase64);
  }
  const sparse = args.sparseVector;
  if (sparse === undefined) return vector === undefined ? {} : { vector };
  let values = sparse.values;
  if (sparse.valuesBase64 !== undefined) {
    if (values !== undefined) refuse("Give sparseVector.values or sparseVector.valuesBase64, not both.");
    values = decode("sparseVector.valuesBase64", sparse.valuesBase64);
  }
  if (values === undefined) refuse("sparseVector needs values (numbers) or valuesBase64.");
  return { ...(vector !== undefined && { vector }), sparseVector: { indices: sparse.indices, values: values as number[] } };
}
