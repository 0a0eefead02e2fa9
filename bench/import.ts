// import_vectors of a JSONL file (default 100,000 records of dimension 768) into the local service, against the
// official client's loop reading the same file line by line (chunks of 100, 8 requests at a time), same run.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import {
  connectServer, createIndex, mb, officialClientLoop, ratioLine, readJsonlLines, repoRoot, tempDir, watchRss, withService, writeJsonl,
} from "./lib.js";

const COUNT = Number(process.env.BENCH_IMPORT_COUNT ?? 100_000);
const DIMENSION = 768;

export function importToolMissing(): string | undefined {
  return existsSync(path.join(repoRoot, "tools", "vectors", "import_vectors.ts")) ? undefined : "tools/vectors/import_vectors.ts does not exist yet";
}

export async function benchImport(): Promise<{ ours: number; reference: number }> {
  const missing = importToolMissing();
  if (missing) throw new Error(missing);
  const dir = await tempDir("vecdb-bench-import-");
  try {
    const file = path.join(dir, "records.jsonl");
    const bytes = await writeJsonl(file, COUNT, DIMENSION);
    return await withService(async (service) => {
      // The reference runs first: the second contender writes into a larger store, which can only slow it.
      const refHost = await createIndex(service, "ref-import", DIMENSION);
      let start = performance.now();
      const sent = await officialClientLoop(service, "ref-import", refHost, readJsonlLines(file));
      const reference = sent / ((performance.now() - start) / 1000);
      if (sent !== COUNT) throw new Error(`the reference loop sent ${sent} of ${COUNT} records`);

      await createIndex(service, "ours-import", DIMENSION);
      const { client, pid, close } = await connectServer(service, {}, ["--allow-dir", dir]);
      try {
        const rss = watchRss(pid);
        start = performance.now();
        const result = await client.callTool(
          { name: "import_vectors", arguments: { index: "ours-import", path: file } },
          undefined,
          { timeout: 3_600_000 },
        );
        const ours = COUNT / ((performance.now() - start) / 1000);
        const { peakBytes } = rss.stop();
        if (result.isError) throw new Error(`import_vectors failed: ${JSON.stringify(result.content).slice(0, 500)}`);
        // The check pass alone (dryRun), after the measured run so that it cannot warm anything up for it: how our
        // time splits between the check pass and the upload pass.
        start = performance.now();
        const dry = await client.callTool(
          { name: "import_vectors", arguments: { index: "ours-import", path: file, dryRun: true } },
          undefined,
          { timeout: 3_600_000 },
        );
        const checkSeconds = (performance.now() - start) / 1000;
        if (dry.isError) throw new Error(`import_vectors dryRun failed: ${JSON.stringify(dry.content).slice(0, 500)}`);

        process.stdout.write(
          `${ratioLine(`import_vectors JSONL ${COUNT}×${DIMENSION} (${mb(bytes)})`, ours, reference, "vectors/s", "≥ 1.5×")}; ` +
            `ours ${(COUNT / ours).toFixed(1)} s of which the check pass (dryRun) ${checkSeconds.toFixed(1)} s, ` +
            `reference ${(COUNT / reference).toFixed(1)} s; server peak RSS ${mb(peakBytes)}\n`,
        );
        return { ours, reference };
      } finally {
        await close();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
