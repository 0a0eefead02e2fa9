// One call's abort signal, fed by long-lived ones (the client's, the server's stop, a client's close). Not
// AbortSignal.any: on Node 20 every signal it makes stays in each source's list of dependants for the source's whole
// life (never pruned), so a server-lifetime source grew by one entry per call. Here each call adds one listener to each
// source and removes it when released (or when the call's signal fires), so nothing outlives the call.

import { setMaxListeners } from "node:events";

const unlimited = new WeakSet<AbortSignal>();

export interface LinkedAbort {
  readonly signal: AbortSignal;
  /** True when the call's own timeout fired (not a source). */
  readonly timedOut: boolean;
  /** Detaches from the sources and stops the timeout; call it in `finally`. Idempotent. */
  release(): void;
}

export function linkAbort(sources: readonly (AbortSignal | undefined)[], timeoutMs?: number): LinkedAbort {
  const controller = new AbortController();
  const live = sources.filter((s): s is AbortSignal => s !== undefined);
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  const release = () => {
    for (const source of live) source.removeEventListener("abort", onAbort);
    clearTimeout(timer);
  };
  const already = live.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
  } else {
    for (const source of live) {
      // One listener per call in flight, each removed when its call ends: their number is the calls running, not a
      // leak, so Node's warning past 10 (MaxListenersExceededWarning) would be a false alarm.
      if (!unlimited.has(source)) {
        unlimited.add(source);
        // Not 0 ("unlimited"): Node 20's getMaxListeners then throws for the signal (src/ingest/upsert.ts asks it).
        setMaxListeners(2 ** 30, source);
      }
      source.addEventListener("abort", onAbort, { once: true });
    }
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
      }, timeoutMs);
      timer.unref(); // like AbortSignal.timeout: a pending call's timer does not keep the process alive
    }
    controller.signal.addEventListener("abort", release, { once: true });
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    release,
  };
}
