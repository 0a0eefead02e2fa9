// Racing a promise against an AbortSignal, with the listener removed once either settles.

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
