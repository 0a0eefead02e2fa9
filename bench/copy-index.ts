// copy_index of 100,000 records × 768 with metadata from one local service to another — the second reached by URL and
// key (VECDB_OTHER_HOST, VECDB_OTHER_API_KEY) as the hosted service would be — against the official client's own loop
// in the same run: list a page of ids, fetch them, upsert them into the target (`@pinecone-database/pinecone`), page by
// page. Both copies are checked: the target holds every record, and a sample reads back equal to the source.
import { performance } from "node:perf_hooks";
import { rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { Pinecone, type PineconeRecord } from "@pinecone-database/pinecone";
import { startServiceProcess, type RunningService } from "../test/helpers/local-service.js";
import { connectServer, createIndex, makeRecords, officialClientLoop, ratioLine, tempDir } from "./lib.js";

const COUNT = Number(process.env.BENCH_COPY_COUNT ?? 100_000);
const DIMENSION = 768;
/** Records made and written to the source at a time (all 100,000 × 768 as numbers would take ~600 MB at once). */
const SLICE = 10_000;

/** CPU seconds a process has used so far (user + system, from /proc; 0 where there is no /proc). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const client = (s: RunningService) => new Pinecone({ apiKey: s.apiKey, controllerHostUrl: s.controlUrl });

/** The reference: the official client's loop, one page after the other — list 100 ids, fetch them, upsert them. */
async function officialCopy(source: RunningService, sourceHost: string, target: RunningService, targetHost: string, index: string): Promise<number> {
  const from = client(source).index({ name: "source", host: `http://${sourceHost}` });
  const to = client(target).index({ name: index, host: `http://${targetHost}` });
  let copied = 0;
  let token: string | undefined;
  do {
    const page = await from.listPaginated({ limit: 100, ...(token && { paginationToken: token }) });
    const ids = (page.vectors ?? []).map((v) => v.id!).filter(Boolean);
    if (ids.length > 0) {
      const fetched = await from.fetch({ ids });
      const records = Object.values(fetched.records) as PineconeRecord[];
      await to.upsert({ records });
      copied += records.length;
    }
    token = page.pagination?.next;
  } while (token);
  return copied;
}

/** The target holds COUNT records and 200 of them, spread over the ids, read back equal to the source's. */
async function checkCopy(source: RunningService, sourceHost: string, target: RunningService, targetHost: string, index: string): Promise<void> {
  const from = client(source).index({ name: "source", host: `http://${sourceHost}` });
  const to = client(target).index({ name: index, host: `http://${targetHost}` });
  const stats = await to.describeIndexStats();
  if (stats.totalRecordCount !== COUNT) throw new Error(`${index} holds ${stats.totalRecordCount} records, not ${COUNT}`);
  const ids = Array.from({ length: 200 }, (_, k) => `rec-${Math.floor((k * COUNT) / 200)}`);
  const [a, b] = await Promise.all([from.fetch({ ids }), to.fetch({ ids })]);
  for (const id of ids) {
    if (JSON.stringify(a.records[id]) !== JSON.stringify(b.records[id])) throw new Error(`${index}: record ${id} differs from the source's`);
  }
}

export async function benchCopyIndex(): Promise<{ ours: number; reference: number }> {
  const [source, target] = await Promise.all([startServiceProcess({ timeoutMs: 60_000 }), startServiceProcess({ timeoutMs: 60_000 })]);
  const dataDir = await tempDir("vecdb-bench-copy-");
  try {
    const sourceHost = await createIndex(source, "source", DIMENSION);
    for (let start = 0; start < COUNT; start += SLICE) {
      const slice = makeRecords(Math.min(SLICE, COUNT - start), DIMENSION, 42 + start).map((r, k) => ({ ...r, id: `rec-${start + k}`, metadata: { n: start + k, source: "bench", tag: `t${(start + k) % 17}` } }));
      await officialClientLoop(source, "source", sourceHost, slice);
    }

    // The reference first: the second copy writes into a target that already holds the first, which can only slow it.
    const refHost = await createIndex(target, "ref-copy", DIMENSION);
    const services = () => cpuSeconds(source.child.pid!) + cpuSeconds(target.child.pid!);
    let servicesBefore = services();
    const own = process.cpuUsage();
    let started = performance.now();
    const copied = await officialCopy(source, sourceHost, target, refHost, "ref-copy");
    const reference = copied / ((performance.now() - started) / 1000);
    const ownCpu = process.cpuUsage(own);
    const referenceCpu = { client: (ownCpu.user + ownCpu.system) / 1e6, services: services() - servicesBefore };
    if (copied !== COUNT) throw new Error(`the reference loop copied ${copied} of ${COUNT} records`);
    await checkCopy(source, sourceHost, target, refHost, "ref-copy");
    await client(target).deleteIndex("ref-copy");

    const ourHost = await createIndex(target, "source", DIMENSION);
    const { client: mcp, pid, close } = await connectServer(source, { VECDB_OTHER_API_KEY: target.apiKey, VECDB_OTHER_HOST: target.controlUrl, VECDB_DATA_DIR: dataDir }, ["--toolsets", "transfer"]);
    let seconds: number;
    let ourCpu: { client: number; services: number };
    try {
      servicesBefore = services();
      const serverBefore = cpuSeconds(pid);
      started = performance.now();
      const result = await mcp.callTool({ name: "copy_index", arguments: { from: "main", to: "other", index: "source" } }, undefined, { timeout: 3_600_000 });
      seconds = (performance.now() - started) / 1000;
      ourCpu = { client: cpuSeconds(pid) - serverBefore, services: services() - servicesBefore };
      const text = result.content?.[0]?.type === "text" ? result.content[0].text : "";
      if (result.isError) throw new Error(`copy_index failed: ${text.slice(0, 500)}`);
    } finally {
      await close();
    }
    const ours = COUNT / seconds;
    await checkCopy(source, sourceHost, target, ourHost, "source");
    process.stdout.write(
      `${ratioLine(`copy_index ${COUNT}×${DIMENSION} with metadata, local service → a second one by URL and key`, ours, reference, "records/s", "≥ 2×")}; ` +
        `ours ${seconds.toFixed(1)} s, reference ${(COUNT / reference).toFixed(1)} s; CPU (copier + both services) ours ` +
        `${ourCpu!.client.toFixed(1)} + ${ourCpu!.services.toFixed(1)} s, reference ${referenceCpu.client.toFixed(1)} + ${referenceCpu.services.toFixed(1)} s; both copies checked\n`,
    );
    return { ours, reference };
  } finally {
    await source.stop();
    await target.stop();
    await Promise.all([source.dataDir, target.dataDir, dataDir].map((d) => rm(d, { recursive: true, force: true })));
  }
}
