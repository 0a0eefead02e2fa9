// The confirmation question of src/tool-kit/confirm.ts, asked through MCP elicitation (elicitation/create) when the
// client declared the capability: one text field, the name typed back.
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { stripInvisible } from "../tool-kit/format/table.js";
import type { ConfirmAnswer } from "../tool-kit/tool.js";

export function confirmer(server: Server, call: ServerContext["mcpReq"], signal: AbortSignal) {
  return async (message: string, expected: string): Promise<ConfirmAnswer> => {
    if (!server.getClientCapabilities()?.elicitation) return "unsupported";
    // In the bundle, Ajv (which checks the answer) loads lazily: scripts/bundle-shims/ajv-provider.js.
    await (globalThis as Record<symbol, (() => Promise<unknown>) | undefined>)[Symbol.for("vecdb-mcp.loadAjv")]?.();
    const result = await call.elicitInput(
      {
        message: stripInvisible(message), // no direction or isolate controls in what the person reads
        requestedSchema: {
          type: "object",
          properties: { name: { type: "string", title: "Name", description: `Type ${stripInvisible(expected)} to confirm` } },
          required: ["name"],
        },
      },
      { signal },
    );
    if (result.action === "decline") return "declined";
    if (result.action !== "accept") return "cancelled";
    return result.content?.name === expected ? "confirmed" : "mismatch";
  };
}
