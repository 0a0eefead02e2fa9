// export_index of 100,000 records × 768 with metadata (the local service), as Parquet and as JSONL, against the
// official client's own read loop (listPaginated + fetch, 8 fetches in flight, each page written as JSONL lines) in
// the same run; then import_vectors of each export into a fresh index, and every record of both compared with the
// source: identical ids, float32 values and metadata, or the bench fails.
import path from "node:path";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { Pinecone } from "@pinecone-database/pinecone";
import type { RunningService } from "../test/helpers/local-service.js";
import { connectServer, createIndex, makeRecords, mb, officialClientLoop, ratioLine, tempDir, withService, type BenchRecord } from "./lib.js";

const COUNT = Number(process.env.BENCH_EXPORT_COUNT ?? 100_000);
const DIMENSION = 768;

async function* records(): AsyncGenerator<BenchRecord> {
  for (let from = 0; from < COUNT; from += 1000) {
    const slice = makeRecords(Math.min(1000, COUNT - from), DIMENSION, 42 + from, "rec");
    for (let i = 0; i < slice.length; i++) yield { ...slice[i], id: `rec-${from + i}`, metadata: { n: from + i, source: "bench" } };
  }
}

/** The reference: what a person writes with the official client — list a page of ids, fetch it, write its lines. */
async function officialClientExport(service: RunningService, host: string, file: string): Promise<number> {
  const pc = new Pinecone({ apiKey: service.apiKey, controllerHostUrl: service.controlUrl });
  const index = pc.index({ name: "src", host: `http://${host}` });
  const out = createWriteStream(file);
  const pending: Promise<string>[] = [];
  let written = 0;
  const drain = async () => {
    const text = await pending.shift()!;
    if (!out.write(text)) await once(out, "drain");
  };
  let token: string | undefined;
  do {
    const page = await index.listPaginated({ limit: 100, ...(token && { paginationToken: token }) });
    token = page.pagination?.next;
    const ids = (page.vectors ?? []).map((v) => v.id!);
    if (ids.length > 0) {
      pending.push(
        index.fetch({ ids }).then((answer) => {
          written += ids.length;
          return ids.map((id) => JSON.stringify(answer.records[id])).join("\n") + "\n";
        }),
      );
    }
    if (pending.length >= 8) await drain();
  } while (token);
  while (pending.length > 0) await drain();
  out.end();
  await once(out, "finish");
  return written;
}

/** Every record of `b` equals its record in `a` (ids listed from `a`, both fetched a page at a time). */
async function sameRecords(service: RunningService, a: { name: string; host: string }, b: { name: string; host: string }): Promise<number> {
  const pc = new Pinecone({ apiKey: service.apiKey, controllerHostUrl: service.controlUrl });
  const [ia, ib] = [pc.index({ name: a.name, host: `http://${a.host}` }), pc.index({ name: b.name, host: `http://${b.host}` })];
  const bStats = await ib.describeIndexStats();
  let compared = 0;
  let token: string | undefined;
  do {
    const page = await ia.listPaginated({ limit: 100, ...(token && { paginationToken: token }) });
    token = page.pagination?.next;
    const ids = (page.vectors ?? []).map((v) => v.id!);
    const [ra, rb] = await Promise.all([ia.fetch({ ids }), ib.fetch({ ids })]);
    for (const id of ids) {
      const x = ra.records[id];
      const y = rb.records[id];
      const same =
        y !== undefined && x.values.length === y.values.length && x.values.every((v, d) => Math.fround(v) === Math.fround(y.values[d])) &&
        JSON.stringify(x.metadata) === JSON.stringify(y.metadata) && JSON.stringify(x.sparseValues) === JSON.stringify(y.sparseValues);
      if (!same) throw new Error(`record ${id} of ${b.name} differs from ${a.name}`);
      compared++;
    }
  } while (token);
  if (bStats.totalRecordCount !== compared) throw new Error(`${b.name} holds ${bStats.totalRecordCount} records, ${a.name} ${compared}`);
  return compared;
}

export async function benchExport(): Promise<{ parquet: number; jsonl: number; reference: number }> {
  const dir = await tempDir("vecdb-bench-export-");
  try {
    return await withService(async (service) => {
      const host = await createIndex(service, "src", DIMENSION);
      const filled = await officialClientLoop(service, "src", host, records());
      if (filled !== COUNT) throw new Error(`filled ${filled} of ${COUNT} records`);

      let start = performance.now();
      const read = await officialClientExport(service, host, path.join(dir, "reference.jsonl"));
      const reference = read / ((performance.now() - start) / 1000);
      if (read !== COUNT) throw new Error(`the reference read ${read} of ${COUNT} records`);

      const { client, close } = await connectServer(service, {}, ["--allow-dir", dir, "--toolsets", "all"]);
      try {
        const call = async (name: string, args: Record<string, unknown>) => {
          const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 3_600_000 });
          if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content).slice(0, 500)}`);
          return r.structuredContent as { bytes?: number; files?: { path: string }[] };
        };
        const rates: Record<string, { export: number; import: number; bytes: number }> = {};
        for (const format of ["parquet", "jsonl"] as const) {
          start = performance.now();
          const exported = await call("export_index", { index: "src", folder: path.join(dir, format), format });
          const exportRate = COUNT / ((performance.now() - start) / 1000);
          const backHost = await createIndex(service, `back-${format}`, DIMENSION);
          start = performance.now();
          for (const f of exported.files ?? []) await call("import_vectors", { index: `back-${format}`, path: f.path });
          const importRate = COUNT / ((performance.now() - start) / 1000);
          const compared = await sameRecords(service, { name: "src", host }, { name: `back-${format}`, host: backHost });
          if (compared !== COUNT) throw new Error(`compared ${compared} of ${COUNT} records`);
          rates[format] = { export: exportRate, import: importRate, bytes: exported.bytes ?? 0 };
        }
        const { parquet, jsonl } = rates;
        process.stdout.write(
          `${ratioLine(`export_index Parquet ${COUNT}×${DIMENSION} (${mb(parquet.bytes)})`, parquet.export, reference, "records/s", "none")}; ` +
            `JSONL (${mb(jsonl.bytes)}) ${jsonl.export.toFixed(0)} records/s, ratio ${(jsonl.export / reference).toFixed(2)}×; ` +
            `import_vectors back ${parquet.import.toFixed(0)} records/s (Parquet), ${jsonl.import.toFixed(0)} records/s (JSONL); ` +
            `all ${COUNT} records identical to the source in both\n`,
        );
        return { parquet: parquet.export, jsonl: jsonl.export, reference };
      } finally {
        await close();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
