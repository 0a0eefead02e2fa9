// Progress notifications for one tool call: only when the client sent a progress token, always increasing.
import type { ServerContext } from "@modelcontextprotocol/server";
import type { ToolContext } from "../tool-kit/tool.js";
import { setTimeout as sleep } from "node:timers/promises";

export type Extra = ServerContext;

// The SDK client drops a progress notification that arrives in the same read as the response
// (modelcontextprotocol/typescript-sdk#2580), so a result waits this long after the last progress notification.
const PROGRESS_SETTLE_MS = 25;

export function progressOf(extra: Extra): ToolContext["progress"] & { settle(): Promise<void> } {
  const token = extra.mcpReq._meta?.progressToken;
  let last = -Infinity;
  let sentAt = 0;
  const progress = (done: number, total?: number, message?: string) => {
    if (token === undefined || !(done > last)) return; // the protocol requires progress to increase
    last = done;
    sentAt = Date.now();
    extra.mcpReq
      .notify({
        method: "notifications/progress",
        params: { progressToken: token, progress: done, ...(total !== undefined && { total }), ...(message && { message }) },
      })
      .catch(() => {});
  };
  const settle = async () => {
    const wait = sentAt + PROGRESS_SETTLE_MS - Date.now();
    if (sentAt && wait > 0) await sleep(wait);
  };
  return Object.assign(progress, { settle });
}
