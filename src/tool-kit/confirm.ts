// Confirmation before destruction: when the client supports elicitation, a destructive call first shows the person
// what will be lost and asks them to type the name back; anything but the exact name stops the call, and the tool's
// answer says nothing happened. A client without elicitation keeps the old contract (--allow-destructive consents).
import { stripInvisible } from "./format/table.js";
import type { Untouched } from "./refusal.js";
import { ToolError } from "./tool-error.js";
import type { ToolContext } from "./tool.js";

/**
 * Asks to confirm; returns when confirmed (or the client cannot ask), throws a ToolError saying nothing was done
 * otherwise (`untouched` when it is not what the tool's declaration says, e.g. "changed" for an update). `loses` says what will be lost, e.g. 'index "docs": 1,204,331 records in 3 namespaces'.
 */
export async function confirmDestruction(
  ctx: Pick<ToolContext, "askToConfirm">,
  opts: { action: string; loses: string; name: string; untouched?: Untouched; warning?: string },
): Promise<"confirmed" | "unsupported"> {
  if (!ctx.askToConfirm) return "unsupported";
  // Direction and isolate controls in a name would make the question show something other than what it holds: the
  // person reads, and types back, the name without them.
  const shown = stripInvisible(opts.name);
  const message =
    `${opts.action} — ${opts.warning ?? "this cannot be undone"}.\nWhat will be lost: ${opts.loses}.\n` +
    `To confirm, type ${JSON.stringify(shown)} exactly.`;
  const answer = await ctx.askToConfirm(stripInvisible(message), shown);
  if (answer === "confirmed" || answer === "unsupported") return answer;
  const why =
    answer === "declined"
      ? "the user declined the confirmation"
      : answer === "cancelled"
        ? "the user cancelled the confirmation"
        : `the name typed back did not match ${JSON.stringify(opts.name)}`;
  throw new ToolError({ problem: `Not done: ${why}`, untouched: opts.untouched, next: "do not retry unless the user asks again." });
}

/** "1,204,331 records in 3 namespaces". */
export function recordsIn(records: number | undefined, namespaces: number | undefined): string {
  if (records === undefined) return "its records (they could not be counted)";
  const r = `${records.toLocaleString("en-US")} ${records === 1 ? "record" : "records"}`;
  return namespaces === undefined ? r : `${r} in ${namespaces} ${namespaces === 1 ? "namespace" : "namespaces"}`;
}
