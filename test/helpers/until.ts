// Waiting in tests for what they cannot be told of directly — a line on stderr, a request reaching a proxy, a state on
// the service — by checking it, never by sleeping a guessed time.
import { setTimeout as sleep } from "node:timers/promises";

/** Resolves once `happened()` is true, checking every 20 ms; fails naming `what` after `ms`. */
export async function until(happened: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await happened())) {
    if (Date.now() - started > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(20);
  }
}
