// 10,000 records of dimension 768: upsert_vectors through the MCP server (stdio parse included) against the
// official client's hand-written loop, on the same local service in the same run.
import { performance } from "node:perf_hooks";
import { connectServer, createIndex, makeRecords, officialClientLoop, ratioLine, withService } from "./lib.js";

const COUNT = Number(process.env.BENCH_COUNT ?? 10_000);
const DIMENSION = 768;
const ROUNDS = 2;

/**
 * What any stdio MCP client and server pay for the one JSON-RPC message of the call, whatever the server does next:
 * the client's JSON.stringify and the server's JSON.parse of it (measured here, in this process).
 */
function messageCost(records: unknown[]): { mb: number; stringifyMs: number; parseMs: number } {
  let start = performance.now();
  const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "upsert_vectors", arguments: { index: "x", vectors: records } } });
  const stringifyMs = performance.now() - start;
  start = performance.now();
  JSON.parse(text);
  return { mb: Math.round(text.length / 1e6), stringifyMs, parseMs: performance.now() - start };
}

export async function benchUpsertTool(): Promise<{ ours: number; reference: number }> {
  const records = makeRecords(COUNT, DIMENSION);
  return withService(async (service) => {
    let best = { ours: 0, reference: 0 };
    let stdioLegMs = 0;
    const { client, close } = await connectServer(service);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const refIndex = `ref-${round}`;
        const refHost = await createIndex(service, refIndex, DIMENSION);
        let start = performance.now();
        await officialClientLoop(service, refIndex, refHost, records);
        const reference = COUNT / ((performance.now() - start) / 1000);

        const ourIndex = `ours-${round}`;
        await createIndex(service, ourIndex, DIMENSION);
        start = performance.now();
        const result = await client.callTool(
          { name: "upsert_vectors", arguments: { index: ourIndex, vectors: records } },
          undefined,
          { timeout: 600_000 },
        );
        const ours = COUNT / ((performance.now() - start) / 1000);
        if (result.isError) throw new Error(`upsert_vectors failed: ${JSON.stringify(result.content)}`);
        best = { ours: Math.max(best.ours, ours), reference: Math.max(best.reference, reference) };
      }
      // Where the time goes: the same call to an index that does not exist costs the stdio leg alone (the client
      // serialises the message, the pipe, the server parses it and checks the arguments) plus one control-plane call.
      const start = performance.now();
      const missing = await client.callTool(
        { name: "upsert_vectors", arguments: { index: "no-such-index", vectors: records } },
        undefined,
        { timeout: 600_000 },
      );
      stdioLegMs = performance.now() - start;
      if (!missing.isError) throw new Error("upsert_vectors to a missing index did not fail");
    } finally {
      await close();
    }
    const line = ratioLine(`upsert_vectors ${COUNT}×${DIMENSION}`, best.ours, best.reference, "vectors/s", "≥ 1.0×");
    const oursMs = (COUNT / best.ours) * 1000;
    const referenceMs = (COUNT / best.reference) * 1000;
    const message = messageCost(records);
    process.stdout.write(
      `${line}; stdio leg alone ${stdioLegMs.toFixed(0)} ms of our ${oursMs.toFixed(0)} ms (the reference's whole run: ${referenceMs.toFixed(0)} ms); ` +
        `the ${message.mb} MB call message alone costs JSON.stringify ${message.stringifyMs.toFixed(0)} ms + JSON.parse ${message.parseMs.toFixed(0)} ms\n`,
    );
    return best;
  });
}
