// copy_index end to end: the built server over stdio, two local services on free ports standing in for the two
// services — "main" (PINECONE_API_KEY + PINECONE_CONTROLLER_HOST) and "other" (VECDB_OTHER_API_KEY + VECDB_OTHER_HOST),
// reached by URL and key as a hosted one would be. What lands on the target is read back over plain HTTP.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../../helpers/local-service.js";
import { startMcp, type McpSession } from "../../helpers/mcp-client.js";
import { refusalOf } from "../../helpers/refusal.js";
import { api, createIndex, dataUrl, f32, fetchVectors, indexStats, randomVector, serverless } from "../../e2e/support.js";

let main: RunningService;
let other: RunningService;
let mcp: McpSession;
let alone: McpSession;
let dataDir: string;

const NAMESPACES = ["", "north", "south"];
const PER_NAMESPACE = 250;

/** Records with dense and sparse values and metadata of every kind, distinct per namespace. */
function recordsOf(namespace: string): { id: string; values: number[]; sparseValues?: { indices: number[]; values: number[] }; metadata?: Record<string, unknown> }[] {
  const salt = NAMESPACES.indexOf(namespace) + 1;
  return Array.from({ length: PER_NAMESPACE }, (_, i) => ({
    id: `${namespace || "default"}-${String(i).padStart(4, "0")}`,
    values: randomVector(8, salt * 10_000 + i),
    ...(i % 3 === 0 && { sparseValues: { indices: [i, i + 7, 4_000_000_000], values: [0.5, -1.25, i / 7] } }),
    ...(i % 5 !== 4 && { metadata: { n: i, ns: namespace, tags: ["a", `t${i % 4}`], ok: i % 2 === 0, ratio: i / 3 } }),
  }));
}

async function listAllIds(svc: RunningService, host: string, namespace: string): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const q = new URLSearchParams({ namespace, limit: "100", ...(token && { paginationToken: token }) });
    const res = await api(svc, "GET", `${dataUrl(host)}/vectors/list?${q}`);
    ids.push(...res.body.vectors.map((v: { id: string }) => v.id));
    token = res.body.pagination?.next;
  } while (token);
  return ids;
}

beforeAll(async () => {
  [main, other] = await Promise.all([startServiceProcess(), startServiceProcess()]);
  dataDir = mkdtempSync(join(tmpdir(), "vecdb-copy-"));
  mcp = await startMcp({
    env: { PINECONE_API_KEY: main.apiKey, PINECONE_CONTROLLER_HOST: main.controlUrl, VECDB_OTHER_API_KEY: other.apiKey, VECDB_OTHER_HOST: other.controlUrl, VECDB_DATA_DIR: dataDir },
  });
  alone = await startMcp({ env: { PINECONE_API_KEY: main.apiKey, PINECONE_CONTROLLER_HOST: main.controlUrl, VECDB_DATA_DIR: dataDir, VECDB_LOCAL_IDLE_S: "1" } });
  const source = await createIndex(main, { name: "catalog", dimension: 8, metric: "dotproduct", spec: serverless });
  for (const ns of NAMESPACES) {
    const res = await api(main, "POST", `${dataUrl(source.host)}/vectors/upsert`, { vectors: recordsOf(ns), namespace: ns });
    expect(res.status).toBe(200);
  }
  await createIndex(other, { name: "narrow", dimension: 4, metric: "cosine", spec: serverless });
});

afterAll(async () => {
  await mcp?.close();
  await alone?.close();
  await main?.stop();
  await other?.stop();
});

describe("copy_index", () => {
  test("copies every namespace to the other service with exact ids, values, sparse values and metadata; called again, finds them all there", async () => {
    const dry = await mcp.call("copy_index", { from: "main", to: "other", index: "catalog", createTarget: true, dryRun: true });
    expect(dry.isError).toBe(false);
    expect(dry.structured).toMatchObject({ dryRun: true, records: 3 * PER_NAMESPACE, targetCreated: false, complete: false });
    expect(dry.structured!.estimatedBytes).toBeGreaterThan(3 * PER_NAMESPACE * 8 * 4);
    expect(dry.text).toContain("The target index does not exist yet; the copy will create it like the source.");
    expect(dry.text).toContain("Nothing was created or written.");
    expect((await api(other, "GET", "/indexes/catalog")).status).toBe(404);

    const copy = await mcp.call("copy_index", { from: "main", to: "other", index: "catalog", createTarget: true }, { progress: true });
    expect(copy.isError, copy.text).toBe(false);
    expect(copy.text.split("\n")[0]).toBe(
      `Copy of index "catalog" on the service at ${new URL(main.controlUrl).origin} (main) to "catalog" on the service at ${new URL(other.controlUrl).origin} (other); records written as they are (ids, values, sparse values, metadata).`,
    );
    expect(copy.structured).toMatchObject({ targetCreated: true, resumed: false, complete: true, failures: [], records: 3 * PER_NAMESPACE });
    expect(copy.structured!.namespaces).toEqual(
      NAMESPACES.map((namespace) => ({ namespace, sourceRecords: PER_NAMESPACE, copied: PER_NAMESPACE, copiedBefore: 0, alreadyThere: 0, skipped: 0, failed: 0, complete: true })),
    );
    expect(copy.progress.at(-1)).toMatchObject({ progress: 3 * PER_NAMESPACE, total: 3 * PER_NAMESPACE });

    const target = (await api(other, "GET", "/indexes/catalog")).body;
    expect(target).toMatchObject({ dimension: 8, metric: "dotproduct" });
    for (const ns of NAMESPACES) {
      const expected = recordsOf(ns);
      expect(await listAllIds(other, target.host, ns)).toEqual(expected.map((r) => r.id));
      const got = await fetchVectors(other, target.host, expected.map((r) => r.id), ns);
      for (const r of expected) {
        const g = got[r.id];
        // The service answers with the shortest decimal of each 32-bit value: read back as 32-bit, they are the same.
        expect(g.values.map(f32), r.id).toEqual(r.values.map(f32));
        if (r.sparseValues) expect({ ...g.sparseValues, values: g.sparseValues.values.map(f32) }, r.id).toEqual({ indices: r.sparseValues.indices, values: r.sparseValues.values.map(f32) });
        else expect(g.sparseValues, r.id).toBeUndefined();
        expect(g.metadata, r.id).toEqual(r.metadata);
      }
    }

    const again = await mcp.call("copy_index", { from: "main", to: "other", index: "catalog" });
    expect(again.isError, again.text).toBe(false);
    expect(again.structured!.namespaces).toEqual(
      NAMESPACES.map((namespace) => ({ namespace, sourceRecords: PER_NAMESPACE, copied: 0, copiedBefore: 0, alreadyThere: PER_NAMESPACE, skipped: 0, failed: 0, complete: true })),
    );
  });

  test("copies the namespaces named into another index of the same service", async () => {
    const copy = await mcp.call("copy_index", { to: "main", index: "catalog", targetIndex: "catalog-south", namespaces: ["south"], createTarget: true });
    expect(copy.isError, copy.text).toBe(false);
    expect(copy.structured!.namespaces).toEqual([{ namespace: "south", sourceRecords: PER_NAMESPACE, copied: PER_NAMESPACE, copiedBefore: 0, alreadyThere: 0, skipped: 0, failed: 0, complete: true }]);
    const host = (await api(main, "GET", "/indexes/catalog-south")).body.host;
    expect((await indexStats(main, host)).namespaces).toEqual({ south: { vectorCount: PER_NAMESPACE } });
  });

  test('"local" is the embedded local service, started on the data dir when main is hosted', async () => {
    const copy = await alone.call("copy_index", { to: "local", index: "catalog", namespaces: ["north"], createTarget: true });
    expect(copy.isError, copy.text).toBe(false);
    const url = /^the local service at (http:\/\/127\.0\.0\.1:\d+)$/.exec(copy.structured!.toService as string)?.[1];
    expect(url, String(copy.structured!.toService)).toBeDefined();
    expect(copy.structured!.namespaces).toEqual([{ namespace: "north", sourceRecords: PER_NAMESPACE, copied: PER_NAMESPACE, copiedBefore: 0, alreadyThere: 0, skipped: 0, failed: 0, complete: true }]);
    const local = { controlUrl: url!, apiKey: readFileSync(join(dataDir, "api-key"), "utf8").trim() };
    const host = (await api(local, "GET", "/indexes/catalog")).body.host;
    expect((await api(local, "POST", `${dataUrl(host)}/describe_index_stats`, {})).body.namespaces).toEqual({ north: { vectorCount: PER_NAMESPACE } });
    expect(alone.transcript()).not.toContain(local.apiKey);
  });

  test("refuses an index onto itself, a dimension mismatch, a missing target, an unknown namespace and a second service that is not set up", async () => {
    const itself = await mcp.call("copy_index", { from: "main", to: "main", index: "catalog" });
    expect(itself.isError).toBe(true);
    expect(refusalOf(itself.text)).toEqual({
      problem: `The source and the target are the same index: "catalog" on the service at ${new URL(main.controlUrl).origin} ("main" and "main" name the same service)`,
      untouched: "written",
      next: "name another targetIndex, or another service in to.",
    });

    const narrow = await mcp.call("copy_index", { to: "other", index: "catalog", targetIndex: "narrow" });
    expect(narrow.isError).toBe(true);
    expect(refusalOf(narrow.text)).toEqual({
      problem: 'Dimension mismatch: index "catalog" holds vectors of dimension 8, the target "narrow" takes 4',
      untouched: "written",
      next: "copy into an index of the same dimension (or a new one: another targetIndex with createTarget: true); to change the model, copy text records into an index that embeds them (targetModel).",
    });

    const absent = await mcp.call("copy_index", { to: "other", index: "catalog", targetIndex: "not-there" });
    expect(refusalOf(absent.text)).toEqual({
      problem: 'The target index "not-there" does not exist',
      untouched: "written",
      next: 'call again with createTarget: true to create it like "catalog" (or with targetModel to re-embed the text by another model), or name an existing targetIndex.',
    });

    const unknown = await mcp.call("copy_index", { to: "other", index: "catalog", namespaces: ["east", "north"] });
    expect(refusalOf(unknown.text)).toEqual({
      problem: `Index "catalog" on the service at ${new URL(main.controlUrl).origin} has no namespace "east" holding records`,
      untouched: "written",
      next: "list_namespaces shows its namespaces; call again with those, or leave namespaces out for all.",
    });

    const noOther = await alone.call("copy_index", { to: "other", index: "catalog" });
    expect(noOther.isError).toBe(true);
    expect(refusalOf(noOther.text)).toEqual({
      problem: 'There is no second service: "other" names the service of VECDB_OTHER_API_KEY (and --other-host / VECDB_OTHER_HOST), and this server was started without it',
      untouched: "written",
      next: 'tell the user: set VECDB_OTHER_API_KEY (and VECDB_OTHER_HOST for a service other than https://api.pinecone.io) and restart the server; or name "main" or "local".',
    });
    for (const text of [mcp.transcript(), mcp.stderr()]) expect(text).not.toContain(other.apiKey);
    expect((await api(other, "GET", "/indexes/not-there")).status).toBe(404);
  });
});
