// How many file imports run at once, in the whole process (every HTTP session shares it). Each import may start up
// to four check workers (~15 MB each) and keep --concurrency batches in flight: 24 imports at once once took 944 MB
// and 48 threads. Past MAX_RUNNING, a call waits in line (first come, first served) until one finishes or it is
// cancelled.
export const MAX_RUNNING_IMPORTS = 2;

let running = 0;
const waiting: { admit: () => void }[] = [];

/**
 * Resolves with the function that gives the slot back (call it exactly once) when the import may start; rejects
 * with the signal's reason if the call is cancelled while waiting. `onWait` hears how many are ahead, once.
 */
export function importSlot(signal: AbortSignal, onWait?: (ahead: number) => void): Promise<() => void> {
  signal.throwIfAborted();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    running--;
    waiting.shift()?.admit();
  };
  if (running < MAX_RUNNING_IMPORTS) {
    running++;
    return Promise.resolve(release);
  }
  onWait?.(running + waiting.length);
  return new Promise((resolve, reject) => {
    const entry = {
      admit: () => {
        signal.removeEventListener("abort", onAbort);
        running++;
        resolve(release);
      },
    };
    const onAbort = () => {
      const i = waiting.indexOf(entry);
      if (i !== -1) waiting.splice(i, 1);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    waiting.push(entry);
  });
}

/** Imports running and waiting now (for tests and logs). */
export function importLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}
