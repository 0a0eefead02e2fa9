// The one error a tool throws on purpose: its message is already written for a model (bad input, wrong state, …)
// and becomes the isError text as it is.

export class ToolError extends Error {
  override readonly name = "ToolError";
}
