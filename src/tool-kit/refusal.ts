// A refusal as data: what was wrong, what the call left untouched, and the next step. One function (refusalText)
// turns it into the text the model reads, so every refusal reads the same way:
//   <problem> Nothing was <untouched>.
//   Next step: <next>

/** What a refused call did not do: "Nothing was read." … "Nothing was deleted." */
export type Untouched = "read" | "written" | "created" | "changed" | "deleted";

export interface Refusal {
  /** What was wrong, as the model should read it: the field, the value, the rule. */
  problem: string;
  /**
   * What the call left as it was. Left out, the tool's declaration says (see untouchedBy); `false` when something
   * did happen and the problem says what (an index created that never became ready).
   */
  untouched?: Untouched | false;
  /** The next step: what to call, or what to tell the user. */
  next?: string;
}

/** What a tool declared to do: enough to say what a refused call of it did not do. */
export type Declared = { annotations: { readOnlyHint: boolean }; requiresAllowDestructive?: boolean };

/** What a refused call of `tool` did not do, by what the tool does: reads, deletes, or else writes. */
export function untouchedBy(tool: Declared): Untouched {
  if (tool.annotations.readOnlyHint) return "read";
  return tool.requiresAllowDestructive ? "deleted" : "written";
}

/** "Nothing was written." */
export function nothingWas(untouched: Untouched): string {
  return `Nothing was ${untouched}.`;
}

/** The text the model reads; `declared` stands in for an `untouched` the refusal left out. */
export function refusalText(refusal: Refusal, declared?: Untouched): string {
  const untouched = refusal.untouched ?? declared;
  const said = untouched ? withUntouched(refusal.problem, untouched) : refusal.problem;
  return refusal.next ? `${said}\nNext step: ${refusal.next}` : said;
}

/** A problem that lists things (one per line) gets "Nothing was …" on a line of its own; a sentence, after its full stop. */
function withUntouched(problem: string, untouched: Untouched): string {
  if (problem.includes("\n")) return `${problem}\n${nothingWas(untouched)}`;
  return `${/[.?!:]$/.test(problem) ? problem : `${problem}.`} ${nothingWas(untouched)}`;
}
