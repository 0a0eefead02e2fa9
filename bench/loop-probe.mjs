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

// BENCH_CPU_PROF_DIR=<dir>: a CPU profile of the whole run too, written there when the process exits (--cpu-prof is
// not allowed in NODE_OPTIONS). The inspector session on the process's own thread answers synchronously.
const profileDir = process.env.BENCH_CPU_PROF_DIR;
if (profileDir) {
  const { Session } = await import("node:inspector");
  const { writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 1000 });
  session.post("Profiler.start");
  process.on("exit", () => {
    session.post("Profiler.stop", (err, result) => {
      if (!err) writeFileSync(`${profileDir}/${process.pid}.cpuprofile`, JSON.stringify(result.profile));
    });
  });
}
