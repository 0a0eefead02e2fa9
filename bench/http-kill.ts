// SIGTERM of the --http server under load: BENCH_KILL_SESSIONS sessions each upserting batches of BENCH_KILL_BATCH
// records one after another; after BENCH_KILL_AFTER_MS the server gets SIGTERM with --shutdown-grace-s 0, so the
// calls in flight are stopped at once. Every call started before the signal must be answered, with its exact account
// (records written, ids not written), and the service must hold exactly the records the answers say were written.
// Calls started after the signal may be refused (503, or no connection) and must have written nothing.
import { performance } from "node:perf_hooks";
import { connect } from "../test/helpers/http-server.js";
import { AUTH, heldIn, startBenchServer } from "./http-lib.js";
import { createIndex, makeRecords, withService } from "./lib.js";

const SESSIONS = Number(process.env.BENCH_KILL_SESSIONS ?? 8);
const BATCH = Number(process.env.BENCH_KILL_BATCH ?? 2000);
const DIMENSION = Number(process.env.BENCH_KILL_DIM ?? 128);
const AFTER_MS = Number(process.env.BENCH_KILL_AFTER_MS ?? 6000);

export async function benchHttpKill(): Promise<void> {
  await withService(async (service) => {
    const host = await createIndex(service, "kill", DIMENSION);
    const server = await startBenchServer(service, ["--shutdown-grace-s", "0"]);
    const clients = await Promise.all(Array.from({ length: SESSIONS }, () => connect(server.url, AUTH)));
    let signalledAt = Infinity;
    const tally = { whole: 0, partial: 0, refusedAfter: 0, unanswered: 0, written: 0, notWritten: 0 };
    const loops = clients.map(async ({ client }, s) => {
      for (let c = 0; performance.now() < signalledAt; c++) {
        const vectors = makeRecords(BATCH, DIMENSION, s * 1000 + c + 1, `s${s}-c${c}-`);
        const started = performance.now();
        try {
          const r = await client.callTool({ name: "upsert_vectors", arguments: { index: "kill", namespace: "kill", vectors } }, undefined, { timeout: 120_000 });
          const account = r.structuredContent as { upserted: number; failedIds: string[] } | undefined;
          if (account) {
            tally.written += account.upserted;
            tally.notWritten += account.failedIds.length;
            if (account.upserted + account.failedIds.length !== BATCH) throw new Error(`an account that does not add up: ${account.upserted} + ${account.failedIds.length} ≠ ${BATCH}`);
            if (account.failedIds.length === 0) tally.whole++;
            else tally.partial++;
          } else if (started > signalledAt) tally.refusedAfter++;
          else {
            tally.unanswered++;
            if (process.env.BENCH_VERBOSE) process.stderr.write(`unanswered: ${String((err as Error).message)}\n`);
          }
        } catch (err) {
          // A 503 "shutting down" is an answer too: nothing of the call was written.
          if (started > signalledAt || /shutting down/.test(String((err as Error).message))) tally.refusedAfter++;
          else {
            tally.unanswered++;
            if (process.env.BENCH_VERBOSE) process.stderr.write(`unanswered: ${String((err as Error).message)}\n`);
          }
        }
      }
    });
    await new Promise((r) => setTimeout(r, AFTER_MS));
    signalledAt = performance.now();
    server.child.kill("SIGTERM");
    await Promise.all(loops);
    const code = await server.exited;
    for (const { client } of clients) await client.close().catch(() => {});
    const held = await heldIn(service, host, "kill");
    const exact = held === tally.written && tally.unanswered === 0;
    process.stdout.write(
      `http kill: SIGTERM after ${AFTER_MS} ms of ${SESSIONS} sessions upserting ${BATCH} × ${DIMENSION}: ` +
        `${tally.whole} calls answered whole, ${tally.partial} stopped with their account, ${tally.unanswered} in flight left unanswered, ` +
        `${tally.refusedAfter} refused (nothing written); ${tally.written} records said written, ${tally.notWritten} said not written, ` +
        `${held} held by the service${exact ? " (exact)" : " (MISMATCH)"}; exit code ${code}\n`,
    );
    if (!exact) throw new Error(`${tally.unanswered} calls unanswered; the service holds ${held} records, the answers said ${tally.written}`);
  });
}
