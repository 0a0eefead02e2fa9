// index_documents through a data plane that fails part-way: the result accounts exactly for what landed and what
// did not, nothing is pruned, and the next run (service healthy) sends just the chunks that are missing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp } from "../../helpers/mcp-client.js";
import { api, indexStats, startProxy } from "../../e2e/support.js";

const FILES = 1700; // more than one group of 1,536 chunks: the second is read while the first is sent
let svc: RunningService;
let realHost = "";
let allowed: string;

beforeAll(async () => {
  svc = await startServiceProcess();
  const created = await api(svc, "POST", "/indexes/create-for-model", { name: "docs-faults", cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "text" } } });
  realHost = created.body.host;
  allowed = mkdtempSync(join(tmpdir(), "vecdb-docs-faults-"));
  mkdirSync(join(allowed, "notes"));
  for (let i = 0; i < FILES; i++) writeFileSync(join(allowed, "notes", `n${String(i).padStart(4, "0")}.md`), `# Note ${i}\n\nAbout tide number ${i}.`);
});
afterAll(async () => {
  await svc?.stop();
  rmSync(allowed, { recursive: true, force: true });
});

test("a failure part-way: exact account, nothing pruned; the re-run sends only what is missing", async () => {
  let upserts = 0;
  const down = { status: 503, body: JSON.stringify({ code: 14, message: "Service unavailable", details: [] }) };
  const data = await startProxy({ target: `http://${realHost}`, fault: (req) => (req.url?.endsWith("/upsert") ? (upserts++ < 9 ? "pass" : down) : "pass") });
  const control = await startProxy({ target: svc.controlUrl, rewrite: (body) => body.split(realHost).join(data.host) });
  const env = { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url, VECDB_RETRIES: "0", VECDB_CONCURRENCY: "1" };
  const flaky = await startMcp({ env, args: ["--allow-dir", allowed] });
  try {
    const r = await flaky.call("index_documents", { index: "docs-faults", paths: ["notes"] });
    expect(r.isError).toBe(true);
    // Reading stops once the failure is known, so how many files were read depends on timing: at least the first group.
    const read = r.structured!.files as number;
    expect(read).toBeGreaterThan(1536);
    expect(r.structured).toMatchObject({ chunks: read, added: read, upserted: 864, pruned: 0 });
    const notLanded = r.structured!.notLanded as string[];
    expect(notLanded).toHaveLength(read - 864);
    expect(notLanded[0]).toBe(`/${basename(allowed)}/notes/n0864.md#1`);
    expect(new Set(notLanded).size).toBe(read - 864); // each chunk not written is listed once: the failed group's and the unsent one's
    expect(r.text).toMatch(new RegExp(`^${read - 864} chunks were NOT written\\.`));
    expect(r.text).toContain(`The run stopped (a write failed): 864 of ${FILES} documents are in step; 864 chunks were written, ${read - 864} were not; nothing was pruned.`);
    expect((await indexStats(svc, realHost)).totalVectorCount).toBe(864);
  } finally {
    await flaky.close();
    await control.close();
    await data.close();
  }

  const healthy = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-dir", allowed] });
  try {
    const again = await healthy.call("index_documents", { index: "docs-faults", paths: ["notes"] });
    expect(again.isError, again.text).toBe(false);
    expect(again.structured).toMatchObject({ files: FILES, added: FILES - 864, unchanged: 864, changed: 0, pruned: 0, upserted: FILES - 864 });
    expect((await indexStats(svc, realHost)).totalVectorCount).toBe(FILES);
  } finally {
    await healthy.close();
  }
});
