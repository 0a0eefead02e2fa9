// Metadata filters, checked before they are sent: an unknown operator is named with the ones there are, so a model
// can fix the filter without a round trip (the service would refuse it too, in its own words).
import { z } from "zod";
import type { Refusal, Untouched } from "../refusal.js";
import { ToolError } from "../tool-error.js";

const FILTER_OPERATORS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"] as const;

/**
 * The input-schema field shared by the tools that take a filter. The grammar is written out once, in query_vectors'
 * filter (`grammar: true`); the others refer to it, so a model reads it once in tools/list.
 */
export function filterSchema(what: string, opts: { grammar?: boolean } = {}) {
  const grammar =
    `field → condition, e.g. {"genre": "drama", "year": {"$gte": 2020}}; operators ${FILTER_OPERATORS.join(" ")}; ` +
    'combine with {"$and": [...]} or {"$or": [...]}';
  return z
    .record(z.string(), z.unknown())
    .describe(`Metadata filter: ${what}${opts.grammar ? `. ${grammar}` : " (as in query_vectors)"}.`);
}

/** What is wrong with the filter's structure or operators, or undefined (the service checks the rest). */
export function filterProblem(filter: unknown, path = "filter"): string | undefined {
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) return `${path} must be an object of field → condition`;
  for (const [key, cond] of Object.entries(filter)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(cond) || cond.length === 0) return `${path}.${key} must be a non-empty list of filters`;
      for (let i = 0; i < cond.length; i++) {
        const problem = filterProblem(cond[i], `${path}.${key}[${i}]`);
        if (problem) return problem;
      }
    } else if (key.startsWith("$")) {
      return `unknown operator ${JSON.stringify(key)} at ${path}; only $and and $or combine filters`;
    } else if (cond === null) {
      return `the condition on field ${JSON.stringify(key)} is null`;
    } else if (Array.isArray(cond)) {
      return `field ${JSON.stringify(key)} is compared with a list; use {"$in": [...]}`;
    } else if (typeof cond === "object") {
      const ops = Object.keys(cond);
      if (ops.length === 0) return `the condition on field ${JSON.stringify(key)} is empty`;
      const unknown = ops.find((op) => !(FILTER_OPERATORS as readonly string[]).includes(op));
      if (unknown !== undefined) return `unknown operator ${JSON.stringify(unknown)} on field ${JSON.stringify(key)}`;
    }
  }
  return undefined;
}

/** The refusal of a filter with a problem; what was untouched is the tool's to say (a read, a delete, an update). */
export function filterRefusal(problem: string, untouched?: Untouched): Refusal {
  return {
    problem: `Invalid filter: ${problem}`,
    untouched,
    next:
      `write the filter with the operators ${FILTER_OPERATORS.join(", ")} (and $and / $or to combine), ` +
      'e.g. {"genre": {"$eq": "drama"}, "year": {"$gte": 2020}}, and call again.',
  };
}

/** Throws filterRefusal when the filter (if given) has a problem. */
export function checkFilter(filter: Record<string, unknown> | undefined): void {
  if (filter === undefined) return;
  const problem = filterProblem(filter);
  if (problem) throw new ToolError(filterRefusal(problem));
}
