// Waiting for a new index to become ready: polls describe (200 ms, growing to 2 s) until it is ready, fails, or the
// time is up, with a progress notification per poll. Running out of time is not an error: the caller says so.
import type { IndexModel } from "../api/records.js";
import { ToolError } from "./tool-error.js";
import type { ToolContext } from "./tool.js";

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => (signal.removeEventListener("abort", stop), resolve());
    const stop = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}

export async function waitUntilReady(index: IndexModel, limitS: number, ctx: ToolContext): Promise<{ index: IndexModel; seconds: number }> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  let current = index;
  let pause = 200;
  ctx.progress(0, limitS, `index ${index.name}: ${current.status.state}, waiting until it is ready`);
  while (!current.status.ready && seconds() < limitS) {
    if (/fail/i.test(current.status.state) || current.status.state === "Terminating") {
      throw new ToolError({
        problem: `Index ${JSON.stringify(index.name)} was created but did not become ready: its state is ${current.status.state}.`,
        untouched: false,
        next: "look at it with list_indexes; delete it and create it again if it stays in that state.",
      });
    }
    await sleep(Math.min(pause, Math.max(0, limitS * 1000 - (Date.now() - started))), ctx.signal);
    pause = Math.min(pause * 1.5, 2000);
    current = await ctx.service.control.describeIndex(index.name, ctx.signal);
    ctx.progress(Math.min(seconds(), limitS), limitS, `index ${index.name}: ${current.status.state} after ${seconds()} s`);
  }
  if (current.status.ready) ctx.progress(limitS, limitS, `index ${index.name} is ready`);
  return { index: current, seconds: seconds() };
}
