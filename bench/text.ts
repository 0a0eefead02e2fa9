// The text path: upsert_records of 20,000 short documents into a local-bm25 index through the MCP server (stdio
// included) against the official client's upsertRecords loop (batches of 96, 8 at a time) on the same local service
// in the same run; then search_records latency (p50 of sequential searches) against the client's searchRecords.
import { performance } from "node:perf_hooks";
import { Pinecone } from "@pinecone-database/pinecone";
import { connectServer, createIndexForModel, ratioLine, upsertRecordsLoop, withService } from "./lib.js";
import type { RunningService } from "../test/helpers/local-service.js";

const COUNT = Number(process.env.BENCH_TEXT_COUNT ?? 20_000);
const SEARCHES = Number(process.env.BENCH_TEXT_SEARCHES ?? 100);
const PER_CALL = 10_000; // upsert_records takes at most 10,000 records a call

const WORDS = "river stone garden lamp paper window cloud bread music orbit harbor lantern copper meadow violin ledger summit compiler tide pepper".split(" ");

function documents(count: number): { _id: string; text: string; n: number }[] {
  return Array.from({ length: count }, (_, i) => {
    const w = (k: number) => WORDS[(i * 7 + k * 13 + (i >> k)) % WORDS.length];
    return { _id: `doc-${i}`, text: `note ${i}: the ${w(0)} and the ${w(1)} near a ${w(2)} ${w(3)} word${i % 997}`, n: i };
  });
}



const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchText(): Promise<{ upsert: number; search: number }> {
  const docs = documents(COUNT);
  const queries = Array.from({ length: SEARCHES }, (_, i) => `${WORDS[i % WORDS.length]} word${(i * 31) % 997}`);
  return withService(async (service: RunningService) => {
    const pc = new Pinecone({ apiKey: service.apiKey, controllerHostUrl: service.controlUrl });
    const refHost = await createIndexForModel(pc, "ref-text");
    await createIndexForModel(pc, "ours-text");
    const { client, close } = await connectServer(service);
    try {
      let start = performance.now();
      await upsertRecordsLoop(pc, "ref-text", refHost, "bench", docs);
      const reference = COUNT / ((performance.now() - start) / 1000);

      start = performance.now();
      for (let i = 0; i < docs.length; i += PER_CALL) {
        const r = await client.callTool({ name: "upsert_records", arguments: { index: "ours-text", namespace: "bench", records: docs.slice(i, i + PER_CALL) } }, undefined, { timeout: 600_000 });
        if (r.isError) throw new Error(`upsert_records failed: ${JSON.stringify(r.content).slice(0, 500)}`);
      }
      const ours = COUNT / ((performance.now() - start) / 1000);
      process.stdout.write(`${ratioLine(`upsert_records ${COUNT} short documents (local-bm25)`, ours, reference, "records/s", "≥ 1.0×")}\n`);

      // Latency: the same queries, one at a time, each side on its own (equal) namespace; warm-up first.
      const ns = pc.index({ name: "ref-text", host: `http://${refHost}` }).namespace("bench");
      const refMs: number[] = [];
      const ourMs: number[] = [];
      for (const [i, q] of queries.entries()) {
        start = performance.now();
        await ns.searchRecords({ query: { topK: 10, inputs: { text: q } } });
        if (i > 0) refMs.push(performance.now() - start);
        start = performance.now();
        const r = await client.callTool({ name: "search_records", arguments: { index: "ours-text", namespace: "bench", query: { text: q, topK: 10 } } });
        if (r.isError) throw new Error(`search_records failed: ${JSON.stringify(r.content).slice(0, 500)}`);
        if (i > 0) ourMs.push(performance.now() - start);
      }
      const p50ours = median(ourMs);
      const p50ref = median(refMs);
      process.stdout.write(
        `search_records p50 over ${ourMs.length} searches of ${COUNT} documents: vecdb-mcp ${p50ours.toFixed(1)} ms, reference ${p50ref.toFixed(1)} ms, ratio ${(p50ours / p50ref).toFixed(2)}× (target ≤ 1.2×)\n`,
      );
      return { upsert: ours / reference, search: p50ours / p50ref };
    } finally {
      await close();
    }
  });
}
