// The confirmation question of src/tool-kit/confirm.ts, asked when the client declared elicitation: one text field,
// the name typed back. In the 2025 era the server asks (elicitation/create) while the call waits; in the 2026-07-28
// era the call answers input_required with the same question and runs again with the answer (request-state.ts).
import { inputRequired, inputResponse, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { stripInvisible } from "../tool-kit/format/table.js";
import type { ConfirmAnswer } from "../tool-kit/tool.js";
import { newEraCall, questionDigest, type CallRounds } from "./request-state.js";

function question(message: string, expected: string) {
  return {
    message: stripInvisible(message), // no direction or isolate controls in what the person reads
    requestedSchema: {
      type: "object" as const,
      properties: { name: { type: "string" as const, title: "Name", description: `Type ${stripInvisible(expected)} to confirm` } },
      required: ["name"],
    },
  };
}

function answerOf(action: string, content: Record<string, unknown> | undefined, expected: string): ConfirmAnswer {
  if (action === "decline") return "declined";
  if (action !== "accept") return "cancelled";
  return content?.name === expected ? "confirmed" : "mismatch";
}

export function confirmer(server: Server, call: ServerContext["mcpReq"], signal: AbortSignal) {
  return async (message: string, expected: string): Promise<ConfirmAnswer> => {
    if (!server.getClientCapabilities()?.elicitation) return "unsupported";
    // In the bundle, Ajv (which checks the answer) loads lazily: scripts/bundle-shims/ajv-provider.js.
    await (globalThis as Record<symbol, (() => Promise<unknown>) | undefined>)[Symbol.for("vecdb-mcp.loadAjv")]?.();
    const result = await call.elicitInput(question(message, expected), { signal });
    return answerOf(result.action, result.content, expected);
  };
}

/** The 2026-07-28 way: the question goes back as input_required; its answer arrives with the call's next round. */
export function roundsConfirmer(ctx: ServerContext, rounds: CallRounds) {
  return async (message: string, expected: string): Promise<ConfirmAnswer> => {
    if (!newEraCall(ctx)?.capabilities.elicitation) return "unsupported";
    const answer = rounds.ask("confirm", questionDigest(message, expected), inputRequired.elicit(question(message, expected)));
    const view = inputResponse({ confirm: answer }, "confirm");
    return view.kind === "elicit" ? answerOf(view.action, view.content, expected) : "cancelled";
  };
}
