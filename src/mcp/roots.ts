// The directories tools may read files from: --allow-dir (config) plus, over stdio, the MCP roots the client declares.
// Roots are asked of the client (roots/list) when a tool first needs them, and asked again after
// notifications/roots/list_changed. Over HTTP the client is someone else, on another machine perhaps: its roots name
// folders on ITS disk, and taking them as folders on the server's would let it read any file the server can
// (`file:///`). There only --allow-dir counts; the client's roots are never asked for.
import { inputRequired, inputResponse, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { newEraCall, type CallRounds } from "./request-state.js";
import type { Logger } from "../log.js";

/** What a tool call can send to the client; the request goes out on the call's own channel (works over HTTP too). */
export type ClientRequester = Pick<ServerContext["mcpReq"], "send">;

const ROOTS_TIMEOUT_MS = 10_000;

export function trackRoots(
  server: Server,
  allowDirs: readonly string[],
  log: Logger,
  clientRootsCount = true,
): (via: ClientRequester) => Promise<string[]> {
  if (!clientRootsCount) return async () => [...allowDirs];
  let clientRoots: Promise<string[]> | undefined;
  server.setNotificationHandler("notifications/roots/list_changed", async () => {
    clientRoots = undefined;
  });
  return async (via) => {
    if (!server.getClientCapabilities()?.roots) return [...allowDirs];
    const asked = (clientRoots ??= via.send({ method: "roots/list" }, { timeout: ROOTS_TIMEOUT_MS }).then(
      // Only file:// roots name directories; other URI schemes allow nothing here.
      (r) => r.roots.map((root) => root.uri).filter((uri) => uri.startsWith("file:")),
      (err: unknown) => {
        log.warning(`the client did not list its roots: ${err instanceof Error ? err.message : String(err)}`);
        if (clientRoots === asked) clientRoots = undefined; // ask again next time
        return [];
      },
    ));
    return [...allowDirs, ...(await asked)];
  };
}

/**
 * The 2026-07-28 way, over stdio: the client's roots are asked as input_required while the call needs them (that era
 * has no roots/list request from the server, nor its notification), and arrive with the call's next round.
 */
export async function roundsRoots(ctx: ServerContext, rounds: CallRounds, allowDirs: readonly string[], clientRootsCount: boolean): Promise<string[]> {
  if (!clientRootsCount || !newEraCall(ctx)?.capabilities.roots) return [...allowDirs];
  const view = inputResponse({ roots: rounds.ask("roots", "roots/list", inputRequired.listRoots()) }, "roots");
  const uris = view.kind === "roots" ? view.roots.map((root) => root.uri).filter((uri) => uri.startsWith("file:")) : [];
  return [...allowDirs, ...uris];
}
