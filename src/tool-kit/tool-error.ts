// The one error a tool throws on purpose: a refusal written for a model (bad input, wrong state, …), kept as data
// (see refusal.ts) and formatted into the isError text by the server, which knows what the tool would have done.
import { refusalText, type Refusal } from "./refusal.js";

export class ToolError extends Error {
  override readonly name = "ToolError";

  constructor(readonly refusal: Refusal) {
    super(refusalText(refusal));
  }
}
