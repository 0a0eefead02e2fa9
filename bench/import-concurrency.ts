// Imports at once, measured: N import_vectors calls at once against the built server (stdio) and the local
// service. Prints the server's peak RSS (VmHWM) and the most threads it ran, sampled every 20 ms from /proc.
// Run: npx tsx bench/import-concurrency.ts [calls=24] [records=20000]   (Linux: reads /proc/<pid>/status)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServiceProcess } from "../test/helpers/local-service.js";
import { BUNDLE } from "../test/helpers/bundle.js";
import { createIndex, serverless } from "../test/e2e/support.js";

const CALLS = Number(process.argv[2] ?? 24);
const RECORDS = Number(process.argv[3] ?? 20_000);
const DIM = 64;
const dir = mkdtempSync(join(tmpdir(), "vecdb-importconc-"));
const svc = await startServiceProcess();
await createIndex(svc, { name: "conc", dimension: DIM, spec: serverless });
const lines: string[] = [];
for (let i = 0; i < RECORDS; i++) lines.push(JSON.stringify({ id: `r${i}`, values: Array.from({ length: DIM }, (_, d) => Math.sin(i + d)) }));
writeFileSync(join(dir, "data.jsonl"), lines.join("\n") + "\n");
const transport = new StdioClientTransport({
  command: process.execPath, args: [BUNDLE, "--allow-dir", dir], stderr: "ignore",
  env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl },
});
const client = new Client({ name: "bench", version: "1" });
await client.connect(transport);
const pid = transport.pid!;
let threads = 0;
const status = () => readFileSync(`/proc/${pid}/status`, "utf8");
const sampler = setInterval(() => (threads = Math.max(threads, Number(/Threads:\s+(\d+)/.exec(status())![1]))), 20);
const started = performance.now();
const results = await Promise.all(Array.from({ length: CALLS }, (_, i) =>
  client.callTool({ name: "import_vectors", arguments: { index: "conc", namespace: `n${i}`, path: "data.jsonl" } }, undefined, { timeout: 600_000 })));
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status())![1]) / 1024;
const failed = results.filter((r) => r.isError).length;
console.log(`${CALLS} import_vectors calls at once, ${RECORDS} records × ${DIM} each (${(readFileSync(join(dir, "data.jsonl")).length / 1e6).toFixed(0)} MB): ` +
  `server peak RSS ${hwm.toFixed(0)} MB, at most ${threads} threads, ${seconds.toFixed(1)} s, ${failed} failed`);
await client.close();
await svc.stop();
rmSync(dir, { recursive: true, force: true });
rmSync(svc.dataDir, { recursive: true, force: true });
