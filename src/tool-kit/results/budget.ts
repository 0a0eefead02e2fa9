// How much of a result a model gets. Some clients show the model only the text, some only structuredContent, so both
// carry the same records, each channel within a budget of estimated tokens (--max-result-tokens, both together under
// what a client takes in one message): whole records only, in order, and past the budget a note with the call that
// gets the rest.
import { float32Double, float32ToString } from "../../common/float32.js";
import { estimateJsonTokens, estimateTokens } from "./tokens.js";
import { resultChannels } from "../tool.js";

/** A tool's result as the server sends it: the text is the table and the note; structuredContent carries the note too. */
interface Sized {
  table: string;
  structured: unknown;
  note?: string;
}

/** Estimated tokens of each channel of a result, as src/mcp/server.ts sends it. */
export function channelTokens(result: Sized): { text: number; structured: number } {
  const { text, structured } = resultChannels(result);
  return { text: estimateTokens(text), structured: estimateJsonTokens(structured) };
}

/** Tokens a result's head, note and framing take beyond its rows, set aside before the rows are counted. */
const FRAME_TOKENS = 400;

/** The tokens one row adds to the text (its table row) and to structuredContent (its record). */
export interface RowTokens {
  text: number;
  structured: number;
}

/**
 * The result with as many of `count` rows, in order and whole, as keep each channel within `budget` tokens.
 * `rowTokens(i)` estimates row i (called only up to the first row past the budget); `build(k)` makes the result of
 * the first k rows, with the note that says how to get the rest when k < count. The built result is measured, and
 * built again with fewer rows in the rare case its head or note take more than was set aside.
 */
export function fitRows<R extends Sized>(count: number, budget: number, rowTokens: (i: number) => RowTokens, build: (shown: number) => R): R {
  let text = FRAME_TOKENS;
  let structured = FRAME_TOKENS;
  let shown = 0;
  while (shown < count) {
    const row = rowTokens(shown);
    if (text + row.text > budget || structured + row.structured > budget) break;
    text += row.text;
    structured += row.structured;
    shown++;
  }
  for (;;) {
    const result = build(shown);
    if (shown === 0) return result;
    const used = channelTokens(result);
    const most = Math.max(used.text, used.structured);
    if (most <= budget) return result;
    shown = Math.min(shown - 1, Math.floor((shown * budget) / most));
  }
}

/** How many of the first rows costing `costs` tokens fit in `budget`, beside a head and a note. */
export function countWithin(costs: readonly number[], budget: number): number {
  let used = FRAME_TOKENS;
  for (let i = 0; i < costs.length; i++) {
    used += costs[i];
    if (used > budget) return i;
  }
  return costs.length;
}

/** A list of ids as a call's argument, or undefined when it would take more than `tokens`. */
export function idsArgument(ids: readonly string[], tokens: number): string | undefined {
  const json = JSON.stringify(ids);
  return estimateTokens(json) <= tokens ? json : undefined;
}

/**
 * The page size a note offers when a page was cut after `shown` records: a tenth fewer, so that the page's own
 * paginationToken and note fit beside them.
 */
export function smallerPage(shown: number): number {
  return Math.max(1, shown - Math.ceil(shown / 10));
}

/** How a note names the budget: "10,000 tokens a channel (--max-result-tokens)". */
export function budgetWords(budget: number): string {
  return `${budget.toLocaleString("en-US")} tokens (--max-result-tokens)`;
}

/**
 * The values as the service stores them (32-bit floats), each as the shortest decimal that reads back as the same
 * float32: -0.559, not the float64 reading -0.5590000152587891 (half the characters, and what was written).
 */
export function float32Values(values: readonly number[]): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // float32Double is Number(float32ToString(v)) without the string (3–4× faster); beyond the float32 range
    // float32ToString refuses the value, and so does this.
    out[i] = !Number.isFinite(v) ? v : Number.isFinite(Math.fround(v)) ? float32Double(v) : Number(float32ToString(v));
  }
  return out;
}
