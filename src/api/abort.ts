// Waiting that an AbortSignal cuts short: a sleep, and a promise raced against the signal.
import { setTimeout as delay } from "node:timers/promises";

/** Waits `ms`, or rejects with the signal's own reason (not node's AbortError) as soon as it aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch((err: unknown) => {
    throw signal?.aborted ? signal.reason : err;
  });
}

/**
 * Settles as `promise` does, unless `signal` aborts first: then with what `whenAborted` returns (or throws).
 * A signal that is already aborted is not consulted; callers that care check `signal.aborted` first.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal, whenAborted: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      try {
        resolve(whenAborted());
      } catch (err) {
        reject(err);
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
