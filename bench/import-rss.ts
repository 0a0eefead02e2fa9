// Peak resident memory of the server process (the MCP server alone; the local service runs in its own process)
// while import_vectors streams a JSONL file of about BENCH_RSS_MB megabytes (default 1024) into the local service.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { rm } from "node:fs/promises";
import { importToolMissing } from "./import.js";
import { connectServer, createIndex, mb, tempDir, watchRss, withService, writeJsonl } from "./lib.js";

const TARGET_MB = Number(process.env.BENCH_RSS_MB ?? 1024);
const DIMENSION = 768;
const LIMIT = 256 * 1024 * 1024;

export async function benchImportRss(): Promise<{ peakBytes: number }> {
  const missing = importToolMissing();
  if (missing) throw new Error(missing);
  const dir = await tempDir("vecdb-bench-rss-");
  try {
    const file = path.join(dir, "big.jsonl");
    // One record of dimension 768 is ~15 KB in this spelling; write enough of them to pass the target size.
    const count = Math.ceil((TARGET_MB * 1024 * 1024) / 15_000);
    const bytes = await writeJsonl(file, count, DIMENSION, "big");
    return await withService(async (service) => {
      await createIndex(service, "rss", DIMENSION);
      const { client, pid, close } = await connectServer(service, {}, ["--allow-dir", dir]);
      try {
        const rss = watchRss(pid);
        const start = performance.now();
        const result = await client.callTool({ name: "import_vectors", arguments: { index: "rss", path: file } }, undefined, {
          timeout: 3_600_000,
        });
        const seconds = (performance.now() - start) / 1000;
        const { peakBytes } = rss.stop();
        if (result.isError) throw new Error(`import_vectors failed: ${JSON.stringify(result.content).slice(0, 500)}`);
        const verdict = peakBytes < LIMIT ? "met" : "MISSED";
        process.stdout.write(
          `import_vectors peak RSS, ${mb(bytes)} JSONL (${count} records × ${DIMENSION}, ${seconds.toFixed(0)} s): ` +
            `server ${mb(peakBytes)}, ratio ${(peakBytes / LIMIT).toFixed(2)}× the 256 MB limit (target < 1.0×, ${verdict})\n`,
        );
        return { peakBytes };
      } finally {
        await close();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
