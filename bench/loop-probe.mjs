// Loaded into a process by the http-heavy benchmark (NODE_OPTIONS=--import): every 250 ms it writes to stderr
// "loop-probe: <epoch ms> <p50> <p99> <max>", the event loop's delay in ms over that window (how long a callback that
// was due had to wait). Nothing else in the process changes.
import { monitorEventLoopDelay } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const ms = (ns) => (ns / 1e6).toFixed(1);
setInterval(() => {
  process.stderr.write(`loop-probe: ${Date.now()} ${ms(histogram.percentile(50))} ${ms(histogram.percentile(99))} ${ms(histogram.max)}\n`);
  histogram.reset();
}, 250).unref();
