// How the server process ends, whichever transport it serves: once, however many triggers fire.
import type { Logger } from "./log.js";

/**
 * A shutdown that runs only on its first call: logs why, runs each step in order (a step that fails does not stop the
 * next), then exits with code 0.
 */
export function shutdownOnce(log: Logger, steps: readonly (() => Promise<unknown> | undefined)[]): (why: string) => Promise<void> {
  let closing = false;
  return async (why) => {
    if (closing) return;
    closing = true;
    log.debug(`shutting down (${why})`);
    for (const step of steps) await step()?.catch(() => {});
    process.exit(0);
  };
}
