// A cancel stops a run from sending anything new at once, but requests already sent get a moment to be answered:
// then the account of what landed is exact instead of "may have landed". This signal fires that moment after the
// cancel and cuts what is still in flight short.
const CANCEL_GRACE_MS = 5000;

export function afterGrace(signal: AbortSignal, ms = CANCEL_GRACE_MS): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const start = () => {
    timer = setTimeout(() => controller.abort(signal.reason), ms);
    timer.unref();
  };
  if (signal.aborted) start();
  else signal.addEventListener("abort", start, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", start);
    },
  };
}
