// copy_index cancelled by the client in the middle of a copy: progress came first; the checkpoint stays; the next
// call goes on, finds what landed (even what was in flight at the cancel) already there, and the account is exact.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/until.js";
import { api, createIndex, dataUrl, indexStats, randomVector, serverless, startProxy, type Proxy } from "../../e2e/support.js";

let source: RunningService;
let target: RunningService;
let control: Proxy;
let data: Proxy;
let mcp: McpSession;
const PASSED = 5;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  [source, target] = await Promise.all([startServiceProcess(), startServiceProcess()]);
  const from = await createIndex(source, { name: "notes", dimension: 8, spec: serverless });
  const vectors = Array.from({ length: 1500 }, (_, i) => ({ id: `n-${String(i).padStart(4, "0")}`, values: randomVector(8, i + 1) }));
  for (let i = 0; i < vectors.length; i += 500) expect((await api(source, "POST", `${dataUrl(from.host)}/vectors/upsert`, { vectors: vectors.slice(i, i + 500) })).status).toBe(200);
  const to = await createIndex(target, { name: "notes", dimension: 8, spec: serverless });
  let upserts = 0;
  data = await startProxy({ target: `http://${to.host}`, fault: (req) => (req.url?.startsWith("/vectors/upsert") && upserts++ >= PASSED ? { until: held } : "pass") });
  control = await startProxy({ target: target.controlUrl, rewrite: (body) => body.split(to.host).join(data.host) });
  mcp = await startMcp({
    env: {
      PINECONE_API_KEY: source.apiKey,
      PINECONE_CONTROLLER_HOST: source.controlUrl,
      VECDB_OTHER_API_KEY: target.apiKey,
      VECDB_OTHER_HOST: control.url,
      VECDB_DATA_DIR: mkdtempSync(join(tmpdir(), "vecdb-copy-cancel-")),
      VECDB_CONCURRENCY: "2",
    },
  });
});

afterAll(async () => {
  release();
  await mcp?.close();
  await control?.close();
  await data?.close();
  await source?.stop();
  await target?.stop();
});

test("copy_index cancelled mid-copy: progress was sent, and the next call goes on with the account exact", async () => {
  const cancel = new AbortController();
  const progress: Progress[] = [];
  const running = mcp.client
    .callTool({ name: "copy_index", arguments: { to: "other", index: "notes" } }, undefined, { signal: cancel.signal, onprogress: (p) => void progress.push(p) })
    .then(() => "answered", (e: unknown) => (e as Error).message);
  const upserts = () => data.requests.filter((r) => r.path.startsWith("/vectors/upsert"));
  await until(() => upserts().length === PASSED + 2 && progress.length > 0, "five upserts landed, two held, and progress sent");
  expect(progress.at(-1)).toMatchObject({ total: 1500 });
  cancel.abort("the user changed their mind");
  expect(await running).toMatch(/the user changed their mind|abort/i);
  await until(() => mcp.stderr().includes("copy_index → cancelled by the client"), "the server to log the cancel");
  release();
  await until(() => upserts().every((r) => r.status === 200), "the held upserts to land");

  const again = await mcp.call("copy_index", { to: "other", index: "notes" });
  expect(again.isError, again.text).toBe(false);
  expect(again.structured).toMatchObject({ resumed: true, complete: true });
  expect(again.structured!.namespaces).toEqual([{ namespace: "", sourceRecords: 1500, copied: 800, copiedBefore: 0, alreadyThere: 700, skipped: 0, failed: 0, complete: true }]);
  const host = (await api(target, "GET", "/indexes/notes")).body.host;
  expect((await indexStats(target, host)).totalVectorCount).toBe(1500);
});
