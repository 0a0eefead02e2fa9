// index_documents cancelled mid-run by the client (an AbortSignal on callTool: the SDK sends notifications/cancelled).
// The result of a cancelled call never reaches the client, so the server's log keeps the account. Checked here: the
// log line, exact against what the index holds; every file is either in step (its first chunk names the version all
// its chunks hold) or has no first chunk claiming one; and a re-run in the same session completes, its counts adding
// up exactly — what the cancelled run wrote is unchanged, the rest is added, nothing is sent twice.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp } from "../../helpers/mcp-client.js";
import { api, fetchVectors, indexStats, startProxy } from "../../e2e/support.js";

// 1,200 files of 3 chunks (three sections, chunkSize 200), sent one request at a time: one group of 1,536 chunks is
// 512 files — 11 requests of their other chunks (upserts 1–11), then 6 of their first chunks (12–17); the second
// group's other chunks start with upsert 18.
const FILES = 1200;
const CHUNKS = 3 * FILES;
let svc: RunningService;
let allowed: string;

beforeAll(async () => {
  svc = await startServiceProcess();
  allowed = mkdtempSync(join(tmpdir(), "vecdb-docs-cancel-"));
  mkdirSync(join(allowed, "notes"));
  // An hour old: a file changed less than 2 s before a run would be read again by the next one (RACY_MS).
  const then = new Date(Date.now() - 3_600_000);
  for (let i = 0; i < FILES; i++) {
    const file = join(allowed, "notes", `n${String(i).padStart(4, "0")}.md`);
    writeFileSync(file, `# Note ${i}\n\nAbout tide ${i}.\n\n## Rivers\n\nRiver ${i} runs to the sea.\n\n## Stones\n\nStone ${i} lies in the field.\n`);
    utimesSync(file, then, then);
  }
});
afterAll(async () => {
  await svc?.stop();
  rmSync(allowed, { recursive: true, force: true });
});

async function allIds(host: string): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const page = await api(svc, "GET", `http://${host}/vectors/list?namespace=&limit=100${token ? `&paginationToken=${token}` : ""}`);
    ids.push(...page.body.vectors.map((v: { id: string }) => v.id));
    token = page.body.pagination?.next;
  } while (token);
  return ids;
}

const CASES = [
  // cancelled among the first group's first chunks: 288 of them landed, 224 files have their other chunks only
  { at: 14, written: 1024 + 3 * 96, inStep: 288 },
  // cancelled among the second group's other chunks: the first group is in step, three requests of the second landed
  { at: 20, written: 1536 + 3 * 96, inStep: 512 },
];

test.each(CASES)("cancelled at upsert $at: an exact account in the log, every file in step or unclaimed, and a re-run completes", async ({ at, written: WRITTEN, inStep: IN_STEP }) => {
  const name = `docs-cancel-${at}`;
  const created = await api(svc, "POST", "/indexes/create-for-model", { name, cloud: "aws", region: "us-east-1", embed: { model: "local-bm25", field_map: { text: "text" } } });
  const realHost: string = created.body.host;
  const cancel = new AbortController();
  let upserts = 0;
  // The cancel is sent when the 20th upsert reaches the data plane; that request is held a moment so the cancel is
  // surely at the server first, then it goes through: a request sent before the cancel is answered and counted.
  const data = await startProxy({
    target: `http://${realHost}`,
    fault: (req) => {
      if (!req.url?.includes("/upsert") || ++upserts !== at) return "pass";
      cancel.abort();
      return { holdMs: 300 };
    },
  });
  const control = await startProxy({ target: svc.controlUrl, rewrite: (body) => body.split(realHost).join(data.host) });
  const env = { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: control.url, VECDB_CONCURRENCY: "1" };
  const mcp = await startMcp({ env, args: ["--allow-dir", allowed] });
  const args = { index: name, paths: ["notes"], chunkSize: 200, chunkOverlap: 0 };
  try {
    const call = mcp.client.callTool({ name: "index_documents", arguments: args }, undefined, { signal: cancel.signal, timeout: 120_000 });
    await expect(call).rejects.toThrow(/abort/i);

    // The account, in the log: nothing new was sent after the cancel, the request in flight was answered.
    let line: string | undefined;
    for (let i = 0; i < 200 && line === undefined; i++) {
      line = mcp.stderr().split("\n").find((l) => l.includes("index_documents into"));
      if (line === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    const account = new RegExp(
      `^vecdb-mcp warning: index_documents into "${name}" \\(namespace ""\\) cancelled: (\\d+) of 1200 documents are in step; ` +
        "(\\d+) chunks were written, (\\d+) were not; nothing was pruned\\. Run it again with the same arguments to finish\\.$",
    );
    expect(line).toMatch(account);
    const [, inStep, written, notWritten] = account.exec(line!)!.map(Number);
    expect(written).toBe(WRITTEN);
    expect(inStep).toBe(IN_STEP);
    // Chunks of the files read that were not written: whole files' worth, none counted twice.
    expect((written + notWritten) % 3).toBe(0);
    expect(written + notWritten).toBeLessThanOrEqual(CHUNKS);
    expect(upserts).toBe(at);

    // The index holds exactly what the account says, and every first chunk that names a version is right about it.
    const ids = await allIds(realHost);
    expect(ids).toHaveLength(written);
    const records = await fetchVectors(svc, realHost, ids);
    const firsts = ids.filter((id) => id.startsWith("/"));
    expect(firsts).toHaveLength(inStep);
    for (const id of firsts) {
      const first = records[id].metadata;
      expect(first.fileHash).not.toBe("");
      expect(first.chunks).toBe(3);
      const prefix = id.slice(1, -1); // "/notes/n0001.md#1" → "notes/n0001.md#"
      for (const chunk of [2, 3]) expect(records[`${prefix}${chunk}`]?.metadata.fileHash, `${prefix}${chunk}`).toBe(first.fileHash);
    }
    // The other chunks of files without a first chunk: written before the cancel, claimed by no first chunk.
    expect(ids.filter((id) => !id.startsWith("/") && !firsts.includes(`/${id.replace(/\d+$/, "1")}`))).toHaveLength(written - 3 * inStep);

    // The re-run in the same session: what the cancelled run wrote is unchanged, the rest is added.
    const again = await mcp.call("index_documents", args);
    expect(again.isError, again.text).toBe(false);
    expect(again.structured).toMatchObject({ files: FILES, filesRead: FILES - inStep, chunks: CHUNKS, unchanged: written, added: CHUNKS - written, changed: 0, pruned: 0, upserted: CHUNKS - written, notLanded: [] });
    expect((await indexStats(svc, realHost)).totalVectorCount).toBe(CHUNKS);
    const third = await mcp.call("index_documents", args);
    expect(third.structured).toMatchObject({ files: FILES, filesRead: 0, unchanged: CHUNKS, added: 0, upserted: 0, pruned: 0 });
  } finally {
    await mcp.close();
    await control.close();
    await data.close();
  }
});
