// What differs on the hosted service (api.pinecone.io and its index hosts) from the embedded local service, said
// where it matters: the hosted service makes writes visible to queries and stats after a short delay.

/**
 * Whether the server talks to the hosted service (by its control-plane host). With no key (mode "local") it never
 * does, whatever controllerUrl says: the shared local service's URL is found at run time, not in the settings.
 */
export function isHostedService(config: { controllerUrl: string; mode?: "local" | "remote" }): boolean {
  if (config.mode === "local") return false;
  try {
    return /(^|\.)pinecone\.io$/.test(new URL(config.controllerUrl).hostname);
  } catch {
    return false;
  }
}

/** The note after a write on the hosted service. */
export const FRESHNESS_NOTE =
  "On the hosted service, written and deleted records reach queries and describe_index_stats after a short delay " +
  "(usually seconds): counts read right after a write may not show it yet.";
