// A soak of the --http server: BENCH_SOAK_SESSIONS sessions make the mixed calls of http-load without pause for
// BENCH_SOAK_S seconds (20 by default; `--long`: 600, the 10-minute soak), each session closed and replaced by a new
// one every BENCH_SOAK_CHURN calls. The server runs with the heap probe (bench/heap-probe.mjs). Reported: calls,
// calls/s, errors, every acknowledged record held by the service, peak RSS, and the heap after GC with every session
// closed — after a warm-up (the baseline) and after each third of the soak; the ratio must stay near 1 (no memory kept
// per call).
import { performance } from "node:perf_hooks";
import { connect } from "../test/helpers/http-server.js";
import { AUTH, heapAfterGc, heldIn, mixedCall, startBenchServer } from "./http-lib.js";
import { createIndex, makeRecords, mb, watchRss, withService } from "./lib.js";

const LONG = process.argv.includes("--long");
const SECONDS = Number(process.env.BENCH_SOAK_S ?? (LONG ? 600 : 20));
const SESSIONS = Number(process.env.BENCH_SOAK_SESSIONS ?? 16);
const CHURN = Number(process.env.BENCH_SOAK_CHURN ?? 200);
const DIMENSION = 64;

export async function benchHttpSoak(): Promise<void> {
  await withService(async (service) => {
    const host = await createIndex(service, "soak", DIMENSION);
    const server = await startBenchServer(service, [], { heapProbe: true });
    const acknowledged = new Set<string>();
    let calls = 0;
    let errors = 0;
    /** Runs the sessions until `until` (performance.now()), each replaced every CHURN calls. */
    const run = (until: number) =>
      Promise.all(
        Array.from({ length: SESSIONS }, async (_, s) => {
          const records = makeRecords(500, DIMENSION, s + 1, `s${s}-`);
          while (performance.now() < until) {
            const { client, transport } = await connect(server.url, AUTH);
            for (let c = 0; c < CHURN && performance.now() < until; c++) {
              try {
                const ids = await mixedCall(client, "soak", "soak", records, c);
                if (ids === undefined) errors++;
                else for (const id of ids) acknowledged.add(id);
              } catch {
                errors++;
              }
              calls++;
            }
            await transport.terminateSession().catch(() => errors++);
            await client.close();
          }
        }),
      );
    try {
      await run(performance.now() + 5000); // warm-up: every path taken once, the JIT settled
      const baseline = await heapAfterGc(server);
      const warmCalls = calls;
      const rss = watchRss(server.child.pid!);
      const started = performance.now();
      // In thirds, the heap measured after each: still growing at the end is a leak, a step early on is a cache.
      const heaps: number[] = [];
      for (let third = 1; third <= 3; third++) {
        await run(started + (SECONDS * 1000 * third) / 3);
        heaps.push(await heapAfterGc(server));
      }
      const seconds = (performance.now() - started) / 1000;
      const peak = rss.stop().peakBytes;
      const after = heaps[2];
      const heapMb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
      const soakCalls = calls - warmCalls;
      const held = await heldIn(service, host, "soak");
      const exact = held === acknowledged.size;
      process.stdout.write(
        `http soak ${SECONDS} s, ${SESSIONS} sessions (new one every ${CHURN} calls): ${soakCalls} calls, ${(soakCalls / seconds).toFixed(0)} calls/s, ` +
          `errors ${errors}, records acknowledged ${acknowledged.size}, held ${held}${exact ? " (exact)" : " (MISMATCH)"}, peak RSS ${mb(peak)}; ` +
          `heap after GC with no session open: ${heapMb(baseline)} after the warm-up, ${heaps.map(heapMb).join(" / ")} after each third of the soak; ` +
          `last third against the first ${(after / heaps[0]).toFixed(2)}× (target ≤ 1.05×: no growth per call), against the warm-up ${(after / baseline).toFixed(2)}×\n`,
      );
      if (!exact || errors > 0) throw new Error(`${errors} errors; the service holds ${held} records, ${acknowledged.size} were acknowledged`);
    } finally {
      await server.stop();
    }
  });
}
