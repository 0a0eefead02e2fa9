/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => (signal.removeEventListener("abort", stop), resolve());
    const stop = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
