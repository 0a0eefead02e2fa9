// How much of a result a model gets whole. Some clients show the model only the text, some only structuredContent, so
// both carry the same records: whole (every metadata value, and values when asked) up to a budget, the rest by id
// with a note that says how to get them. The budget keeps one result well under what a client accepts in one message.
import { float32ToString } from "../../common/float32.js";

/** Characters of record data (metadata and values, as JSON) one result carries whole. */
export const RESULT_BUDGET_CHARS = 200_000;

/** The records that fit whole in the budget, in order, and the first index past it (items.length when all fit). */
export function fitBudget<T>(items: readonly T[], size: (item: T) => number, budget = RESULT_BUDGET_CHARS): number {
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    used += size(items[i]);
    if (used > budget) return i;
  }
  return items.length;
}

/** JSON length of a value (0 for undefined): what it costs in the budget. */
export function jsonSize(value: unknown): number {
  return value === undefined ? 0 : JSON.stringify(value).length;
}

/**
 * The values as the service stores them (32-bit floats), each as the shortest decimal that reads back as the same
 * float32: -0.559, not the float64 reading -0.5590000152587891 (half the characters, and what was written).
 */
export function float32Values(values: readonly number[]): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Number.isFinite(values[i]) ? Number(float32ToString(values[i])) : values[i];
  return out;
}
