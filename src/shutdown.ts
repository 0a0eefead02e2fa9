// How the server process ends, whichever transport it serves: once, however many triggers fire, and within a deadline.
import { stat } from "node:fs";
import type { Logger } from "./log.js";

/** How long the steps may take before the process ends anyway. */
export const SHUTDOWN_DEADLINE_MS = 5000;
const POOL_PROBE_MS = 500;

/**
 * A shutdown that runs only on its first call: logs why, runs each step in order (a step that fails does not stop the
 * next), then exits with code 0. If the steps have not finished within `deadlineMs`, the process ends anyway.
 */
export function shutdownOnce(
  log: Logger,
  steps: readonly (() => Promise<unknown> | undefined)[],
  deadlineMs = SHUTDOWN_DEADLINE_MS,
): (why: string) => Promise<void> {
  let closing = false;
  return async (why) => {
    if (closing) return;
    closing = true;
    log.debug(`shutting down (${why})`);
    const deadline = setTimeout(() => {
      log.warning(`shutting down (${why}) took longer than ${deadlineMs} ms; ending the process now`);
      void exitNow(0);
    }, deadlineMs);
    for (const step of steps) await step()?.catch(() => {});
    clearTimeout(deadline);
    await exitNow(0);
  };
}

/**
 * process.exit, unless file-system threads are stuck (an open() that never returns): libuv joins its thread pool
 * when the process exits, so exit would then hang for ever. A stat that does not come back in POOL_PROBE_MS says
 * so, and the process kills itself instead.
 */
async function exitNow(code: number): Promise<never> {
  const poolAnswers = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), POOL_PROBE_MS);
    stat("/", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!poolAnswers) process.kill(process.pid, "SIGKILL");
  process.exit(code);
}
