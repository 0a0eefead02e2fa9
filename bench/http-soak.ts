// A soak of the --http server: BENCH_SOAK_SESSIONS sessions make the mixed calls of http-load without pause for
// BENCH_SOAK_S seconds (20 by default; `--long`: 600, the 10-minute soak), each session closed and replaced by a new
// one every BENCH_SOAK_CHURN calls. The server runs with the heap probe (bench/heap-probe.mjs). Reported: calls,
// calls/s, errors, every acknowledged record held by the service, peak RSS, and the heap after GC with every session
// closed — after a warm-up (the baseline) and after each third of the soak; the ratio must stay near 1 (no memory kept
// per call). `--million` (or BENCH_SOAK_CALLS=N): the soak by count of calls instead (soakByCalls below).
import { rm } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { connect } from "../test/helpers/http-server.js";
import { startServiceProcess } from "../test/helpers/local-service.js";
import { AUTH, heapAfterGc, heapProbeEnv, heldIn, mixedArgs, mixedCall, startBenchServer, written } from "./http-lib.js";
import { createIndex, makeRecords, mb, watchRss, withService } from "./lib.js";
import { modernCall, OldEraSession, soakEndpoint, type ToolAnswer } from "./soak-client.js";

const LONG = process.argv.includes("--long");
const CALLS = Number(process.env.BENCH_SOAK_CALLS ?? (process.argv.includes("--million") ? 1_000_000 : 0));
const SECONDS = Number(process.env.BENCH_SOAK_S ?? (LONG ? 600 : 20));
const SESSIONS = Number(process.env.BENCH_SOAK_SESSIONS ?? 16);
const CHURN = Number(process.env.BENCH_SOAK_CHURN ?? 200);
const DIMENSION = 64;

export async function benchHttpSoak(): Promise<void> {
  if (CALLS > 0) return soakByCalls(CALLS);
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

const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 16);
const WARM_CALLS = Number(process.env.BENCH_SOAK_WARM ?? 5000);
/** Heap measurements after the baseline (a multiple of 4: the quarters are among them). */
const POINTS = Number(process.env.BENCH_SOAK_POINTS ?? 40);
/** A run by count ends early past this many seconds (a shared machine's time slot), with a last point and its summary. */
const MAX_S = Number(process.env.BENCH_SOAK_MAX_S ?? Infinity);
const heapMb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

/**
 * `calls` calls over HTTP, both eras mixed: CLIENTS clients, each in turns of CHURN calls, one turn as an old-era
 * session (initialize, its GET stream, the calls, DELETE) and the next as new-era calls with no session. Raw HTTP
 * (bench/soak-client.ts): the SDK client would spend more CPU than the server. The heap after GC of the server and of
 * the local service is measured with no session open (every client between two turns): after WARM_CALLS calls of
 * warm-up (the baseline), then every POINTS-th of `calls`. Each point is printed as it is reached, so a run cut
 * short still says how far it got.
 */
async function soakByCalls(calls: number): Promise<void> {
  if (!(POINTS >= 4 && POINTS % 4 === 0)) throw new Error(`BENCH_SOAK_POINTS must be a multiple of 4 (the quarters are among the points), not ${POINTS}`);
  const service = await startServiceProcess({ env: heapProbeEnv() });
  const host = await createIndex(service, "soak", DIMENSION);
  const server = await startBenchServer(service, [], { heapProbe: true });
  const endpoint = soakEndpoint(server.url, AUTH, CLIENTS * 2 + 4);
  const acknowledged = new Set<string>();
  const failures = new Map<string, number>();
  let made = 0;
  let errors = 0;
  let sessions = 0;
  const failed = (err: unknown) => {
    errors++;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 160);
    failures.set(message, (failures.get(message) ?? 0) + 1);
  };
  const records = Array.from({ length: CLIENTS }, (_, c) => makeRecords(500, DIMENSION, c + 1, `c${c}-`));
  const turns = new Array<number>(CLIENTS).fill(0);
  const started = performance.now();
  const outOfTime = () => performance.now() - started > MAX_S * 1000;
  let reported = 0;
  const progress = () => {
    if (made - reported < 10_000) return;
    reported = made;
    const s = (performance.now() - started) / 1000;
    const kinds = [...failures].map(([message, n]) => `${n}× ${message}`).join("; ");
    process.stderr.write(`http-soak: ${made} calls in ${s.toFixed(0)} s (${(made / s).toFixed(0)} calls/s), ${sessions} sessions, ${errors} errors${kinds && `: ${kinds}`}\n`);
  };
  /** One call of client `c`'s mix through `send`; counts it, keeps what an upsert wrote. */
  const one = async (c: number, i: number, send: (name: string, args: Record<string, unknown>) => Promise<ToolAnswer>) => {
    made++;
    const { name, args, writes } = mixedArgs("soak", "soak", records[c], i);
    try {
      const answer = await send(name, args);
      if (answer.isError) failed(new Error(`${name} answered an error`));
      else for (const id of written(writes, answer.structuredContent)) acknowledged.add(id);
    } catch (err) {
      failed(err);
    }
    progress();
  };
  /** Every client takes turns until `goal` calls were made; resolves with every session closed. */
  const runTo = (goal: number) =>
    Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        while (made < goal && !outOfTime()) {
          const oldEra = (c + turns[c]++) % 2 === 0;
          if (!oldEra) {
            for (let i = 0; i < CHURN && made < goal && !outOfTime(); i++) await one(c, i, (name, args) => modernCall(endpoint, name, args));
            continue;
          }
          let session: OldEraSession;
          try {
            session = await OldEraSession.open(endpoint);
            sessions++;
          } catch (err) {
            made++;
            failed(err);
            continue;
          }
          for (let i = 0; i < CHURN && made < goal && !outOfTime(); i++) await one(c, i, (name, args) => session.call(name, args));
          await session.close().catch(failed);
        }
      }),
    );
  const point = async (label: string) => {
    const [ours, its] = await Promise.all([heapAfterGc(server), heapAfterGc(service)]);
    const s = (performance.now() - started) / 1000;
    process.stdout.write(
      `http-soak ${label}: ${made} calls, ${sessions} sessions opened and closed, ${errors} errors, ${s.toFixed(0)} s (${(made / s).toFixed(0)} calls/s); ` +
        `heap after GC with no session open: server ${heapMb(ours)} (${(ours / (baseline?.ours ?? ours)).toFixed(2)}×), local service ${heapMb(its)} (${(its / (baseline?.its ?? its)).toFixed(2)}×)\n`,
    );
    return { ours, its };
  };
  let baseline: { ours: number; its: number } | undefined;
  const rss = watchRss(server.child.pid!);
  try {
    await runTo(WARM_CALLS);
    const base = await point("baseline (after the warm-up)");
    baseline = base;
    // Measured every POINTS-th of the run (the quarters among them), so that a run cut short still says how far it got.
    const quarters: { ours: number; its: number }[] = [];
    let last = base;
    for (let p = 1; p <= POINTS && !outOfTime(); p++) {
      await runTo(WARM_CALLS + Math.round((calls * p) / POINTS));
      const label = outOfTime() ? `out of time (BENCH_SOAK_MAX_S=${MAX_S}) at ${(made - WARM_CALLS).toLocaleString("en")}` : ((calls * p) / POINTS).toLocaleString("en");
      last = await point(`${label} of ${calls.toLocaleString("en")}`);
      if ((p * 4) % POINTS === 0 && !outOfTime()) quarters.push(last);
    }
    const seconds = (performance.now() - started) / 1000;
    const held = await heldIn(service, host, "soak");
    const exact = held === acknowledged.size;
    process.stdout.write(
      `http-soak ${(made - WARM_CALLS).toLocaleString("en")} of ${calls.toLocaleString("en")} calls (+${WARM_CALLS} warm-up), ${CLIENTS} clients, both eras (turns of ${CHURN} calls): ${(made / seconds).toFixed(0)} calls/s, ` +
        `${sessions} sessions, errors ${errors}, records acknowledged ${acknowledged.size}, held ${held}${exact ? " (exact)" : " (MISMATCH)"}, ` +
        `server peak RSS ${mb(rss.stop().peakBytes)}; heap after GC with no session open, server: ${heapMb(baseline.ours)} → ${quarters.filter((q) => q !== last).map((q) => `${heapMb(q.ours)} / `).join("")}` +
        `${heapMb(last.ours)} at the end (${(last.ours / baseline.ours).toFixed(2)}× the baseline, target ≤ 1.10×; the quarters reached before it); local service: ` +
        `${heapMb(baseline.its)} → ${quarters.filter((q) => q !== last).map((q) => `${heapMb(q.its)} / `).join("")}${heapMb(last.its)} at the end (${(last.its / baseline.its).toFixed(2)}×)\n`,
    );
    for (const [message, n] of failures) process.stdout.write(`  ${n}× ${message}\n`);
    if (!exact || errors > 0) throw new Error(`${errors} errors; the service holds ${held} records, ${acknowledged.size} were acknowledged`);
  } finally {
    rss.stop();
    await endpoint.agent.close();
    await server.stop();
    await service.stop();
    await rm(service.dataDir, { recursive: true, force: true });
  }
}
