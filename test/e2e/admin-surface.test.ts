// Issue 14 end to end: the built server over stdio (with --allow-destructive) against the local service, for every
// administration tool — happy path with its table, and the bad inputs with the exact text a model receives.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServiceProcess, type RunningService } from "../helpers/local-service.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";
import { writeParquet } from "../ingest/sources/fixtures.js";
import { api, createIndex, dataUrl, fetchVectors, pod, serverless } from "./support.js";
import { nothingWas } from "../../src/tool-kit/refusal.js";
import { refusalOf } from "../helpers/refusal.js";
import { listingStep } from "../../src/tool-kit/missing-resource.js";

let svc: RunningService;
let mcp: McpSession;
let importRoot: string;
let docsHost: string;

async function upsert(host: string, namespace: string, vectors: { id: string; values: number[]; metadata?: Record<string, unknown> }[]) {
  const r = await api(svc, "POST", `${dataUrl(host)}/vectors/upsert`, { namespace, vectors });
  if (r.status !== 200) throw new Error(`upsert: ${r.status} ${JSON.stringify(r.body)}`);
}

beforeAll(async () => {
  importRoot = mkdtempSync(join(tmpdir(), "vecdb-e2e-imports-"));
  svc = await startServiceProcess({ allowDirs: [importRoot] });
  mcp = await startMcp({ env: { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl }, args: ["--allow-destructive"] });
  docsHost = (await createIndex(svc, { name: "docs", dimension: 2, spec: serverless })).host;
  await upsert(docsHost, "books", [
    { id: "b1", values: [1, 0], metadata: { genre: "drama", year: 2001 } },
    { id: "b2", values: [0, 1], metadata: { genre: "drama", year: 2010 } },
    { id: "b3", values: [1, 1], metadata: { genre: "poetry", year: 2020 } },
  ]);
});
afterAll(async () => {
  await mcp?.close();
  await svc?.stop();
  if (svc) rmSync(svc.dataDir, { recursive: true, force: true });
  rmSync(importRoot, { recursive: true, force: true });
});

describe("configure_index", () => {
  test("deletion protection and tags, before → after; an empty change is refused", async () => {
    const r = await mcp.call("configure_index", { index: "docs", deletionProtection: "enabled", tags: { team: "search" } });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({
      index: "docs",
      changes: [
        { setting: "deletionProtection", before: "disabled", after: "enabled" },
        { setting: "tags.team", before: "(none)", after: "search" },
      ],
    });
    expect(r.text).toBe(
      'Index "docs" configured:\n\n| setting | before | after |\n| --- | --- | --- |\n| deletionProtection | disabled | enabled |\n| tags.team | (none) | search |',
    );
    const removed = await mcp.call("configure_index", { index: "docs", deletionProtection: "disabled", tags: { team: "" } });
    expect(removed.structured?.changes).toEqual([
      { setting: "deletionProtection", before: "enabled", after: "disabled" },
      { setting: "tags.team", before: "search", after: "(none)" },
    ]);
    expect((await api(svc, "GET", "/indexes/docs")).body.tags).toEqual({});
    const empty = await mcp.call("configure_index", { index: "docs", tags: {} });
    expect(empty.isError).toBe(true);
    expect(empty.text).toBe(
      `Nothing to change: give at least one of deletionProtection, tags, pod (replicas, podType) or embed. ${nothingWas("changed")}\nNext step: describe_index shows the current settings.`,
    );
  });

  test("pod replicas and pod type on a pod-based index; pod settings on a serverless index are refused", async () => {
    await createIndex(svc, { name: "pods-conf", dimension: 2, spec: pod });
    const r = await mcp.call("configure_index", { index: "pods-conf", pod: { replicas: 3, podType: "p1.x2" } });
    expect(r.structured?.changes).toEqual([
      { setting: "pod.replicas", before: "1", after: "3" },
      { setting: "pod.podType", before: "p1.x1", after: "p1.x2" },
    ]);
    expect((await api(svc, "GET", "/indexes/pods-conf")).body.spec.pod).toMatchObject({ replicas: 3, pod_type: "p1.x2", pods: 3 });
    const wrong = await mcp.call("configure_index", { index: "docs", pod: { replicas: 2 } });
    expect(wrong.text).toBe(`Index "docs" is serverless; pod settings apply to pod-based indexes only. ${nothingWas("changed")}`);
    const badType = await mcp.call("configure_index", { index: "pods-conf", pod: { podType: "p9.x1" } });
    expect(badType.isError).toBe(true);
    expect(badType.text).toContain(`pod.podType is "p9.x1": podType is s1, p1 or p2, then .x1, .x2, .x4 or .x8. ${nothingWas("changed")}`);
  });

  test("a protected index is not deleted, and the answer names the configure_index call that lifts it", async () => {
    await createIndex(svc, { name: "guard2", dimension: 2, spec: serverless });
    await mcp.call("configure_index", { index: "guard2", deletionProtection: "enabled" });
    const r = await mcp.call("delete_index", { index: "guard2" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('turn deletion protection off first with configure_index {"index": "guard2", "deletionProtection": "disabled"}');
    expect((await api(svc, "GET", "/indexes/guard2")).status).toBe(200);
  });
});

describe("namespaces", () => {
  test("create, list (name · records), describe, delete; unknown namespace and taken name refused", async () => {
    const created = await mcp.call("create_namespace", { index: "docs", name: "drafts", filterableFields: ["genre"] });
    expect(created.isError, created.text).toBe(false);
    expect(created.structured).toEqual({ index: "docs", namespace: { name: "drafts", records: 0, filterableFields: ["genre"] } });
    const taken = await mcp.call("create_namespace", { index: "docs", name: "drafts" });
    expect(refusalOf(taken.text)).toEqual({
      problem: 'Namespace "drafts" already exists in index "docs"',
      untouched: "created",
      next: "use it as it is (describe_namespace shows it), or choose another name.",
    });
    const list = await mcp.call("list_namespaces", { index: "docs" });
    expect(list.structured).toEqual({
      index: "docs",
      namespaces: [{ name: "books", records: 3 }, { name: "drafts", records: 0, filterableFields: ["genre"] }],
      total: 2,
    });
    expect(list.text).toBe('Namespaces of index "docs":\n\n| name | records |\n| --- | --- |\n| books | 3 |\n| drafts | 0 |');
    const described = await mcp.call("describe_namespace", { index: "docs", namespace: "books" });
    expect(described.structured).toEqual({ index: "docs", namespace: { name: "books", records: 3 } });
    const unknown = await mcp.call("describe_namespace", { index: "docs", namespace: "nope" });
    expect(refusalOf(unknown.text)).toEqual({ problem: 'Namespace "nope" not found in index "docs"', untouched: "read", next: listingStep("namespace") });
    const gone = await mcp.call("delete_namespace", { index: "docs", namespace: "drafts" });
    expect(gone.structured).toEqual({ index: "docs", namespace: "drafts", records: 0 });
    const again = await mcp.call("delete_namespace", { index: "docs", namespace: "drafts" });
    expect(refusalOf(again.text)).toEqual({ problem: 'Namespace "drafts" not found in index "docs"', untouched: "deleted", next: listingStep("namespace") });
  });
});

describe("update_vectors and fetch_by_metadata", () => {
  test("by id: values and metadata merged; the upsert checks apply; an unknown id is named", async () => {
    const r = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "b1", values: [0.5, 0.25], setMetadata: { rating: 5 } });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "docs", namespace: "books", by: "id", id: "b1", updated: true });
    const stored = await fetchVectors(svc, docsHost, ["b1"], "books");
    expect(stored.b1).toMatchObject({ values: [0.5, 0.25], metadata: { genre: "drama", year: 2001, rating: 5 } });
    const wrongDim = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "b1", values: [1, 2, 3] });
    expect(wrongDim.text).toBe(`values has 3 values but index 'docs' has dimension 2. ${nothingWas("changed")}\nNext step: fix it and call again.`);
    const badMeta = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "b1", setMetadata: { nested: { a: 1 } } });
    expect(badMeta.isError).toBe(true);
    expect(badMeta.text).toMatch(/^metadata\.nested /);
    expect(refusalOf(badMeta.text).untouched).toBe("changed");
    const missing = await mcp.call("update_vectors", { index: "docs", namespace: "books", id: "zz", setMetadata: { a: "b" } });
    expect(refusalOf(missing.text)).toEqual({
      problem: 'Record "zz" not found in namespace "books" of index "docs"',
      untouched: "changed",
      next: "fetch_vectors or list_vector_ids shows which ids exist.",
    });
  });

  test("by filter: dryRun counts, then every match is updated", async () => {
    const dry = await mcp.call("update_vectors", { index: "docs", namespace: "books", filter: { genre: "drama" }, setMetadata: { shelf: "A" }, dryRun: true });
    expect(dry.structured).toEqual({ index: "docs", namespace: "books", by: "filter", matchedRecords: 2, updated: false });
    expect(dry.text).toBe('Dry run: 2 records in namespace "books" of index "docs" match the filter; nothing was changed.');
    const r = await mcp.call("update_vectors", { index: "docs", namespace: "books", filter: { genre: "drama" }, setMetadata: { shelf: "A" } });
    expect(r.structured).toEqual({ index: "docs", namespace: "books", by: "filter", matchedRecords: 2, updated: true });
    const page = await mcp.call("fetch_by_metadata", { index: "docs", namespace: "books", filter: { shelf: "A" } });
    expect(page.structured).toEqual({
      index: "docs",
      namespace: "books",
      vectors: [
        { id: "b1", metadata: { genre: "drama", year: 2001, rating: 5, shelf: "A" } },
        { id: "b2", metadata: { genre: "drama", year: 2010, shelf: "A" } },
      ],
    });
    expect(page.text).toBe(
      '2 records in namespace "books" of index "docs" match the filter:\n\n| id | metadata |\n| --- | --- |\n| b1 | {"genre":"drama","year":2001,"rating":5,"shelf":"A"} |\n| b2 | {"genre":"drama","year":2010,"shelf":"A"} |',
    );
    const paged = await mcp.call("fetch_by_metadata", { index: "docs", namespace: "books", filter: { year: { $gte: 2000 } }, limit: 2, includeValues: true });
    expect((paged.structured?.vectors as { id: string; values?: number[] }[]).map((v) => [v.id, v.values])).toEqual([["b1", [0.5, 0.25]], ["b2", [0, 1]]]);
    const next = await mcp.call("fetch_by_metadata", { index: "docs", namespace: "books", filter: { year: { $gte: 2000 } }, limit: 2, paginationToken: paged.structured?.paginationToken });
    expect((next.structured?.vectors as { id: string }[]).map((v) => v.id)).toEqual(["b3"]);
    const bad = await mcp.call("fetch_by_metadata", { index: "docs", filter: { year: { $near: 1 } } });
    expect(refusalOf(bad.text)).toMatchObject({ problem: 'Invalid filter: unknown operator "$near" on field "year"', untouched: "read" });
  });
});

describe("backups and restore", () => {
  test("backup, list, describe, restore with progress into a new index; taken name and pod index refused; delete", async () => {
    const made = await mcp.call("create_backup", { index: "docs", name: "first", description: "before the change" });
    expect(made.isError, made.text).toBe(false);
    const backupId = (made.structured?.backup as { backupId: string }).backupId;
    let described;
    for (let i = 0; i < 400; i++) {
      described = await mcp.call("describe_backup", { backupId });
      if ((described.structured?.backup as { status: string }).status === "Ready") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(described!.structured?.backup).toMatchObject({ backupId, name: "first", description: "before the change", sourceIndex: "docs", status: "Ready", records: 3, namespaces: 1, dimension: 2 });
    const listed = await mcp.call("list_backups", { index: "docs" });
    expect((listed.structured?.backups as { backupId: string }[]).map((b) => b.backupId)).toEqual([backupId]);

    const restored = await mcp.call("create_index_from_backup", { backupId, name: "docs-copy", waitSeconds: 60 }, { progress: true });
    expect(restored.isError, restored.text).toBe(false);
    expect(restored.structured).toMatchObject({ index: "docs-copy", finished: true, job: { backupId, targetIndex: "docs-copy", status: "Completed", percentComplete: 100 } });
    expect(restored.progress.at(-1)).toMatchObject({ progress: 100, total: 100, message: "restore into docs-copy: Completed" });
    const copyHost = (await api(svc, "GET", "/indexes/docs-copy")).body.host;
    expect(Object.keys(await fetchVectors(svc, copyHost, ["b1", "b2", "b3"], "books")).sort()).toEqual(["b1", "b2", "b3"]);
    const jobs = await mcp.call("list_restore_jobs", {});
    expect((jobs.structured?.jobs as { targetIndex: string }[]).map((j) => j.targetIndex)).toEqual(["docs-copy"]);
    const job = await mcp.call("describe_restore_job", { restoreJobId: (restored.structured?.job as { restoreJobId: string }).restoreJobId });
    expect(job.structured?.job).toMatchObject({ status: "Completed", percentComplete: 100 });

    const taken = await mcp.call("create_index_from_backup", { backupId, name: "docs-copy" });
    expect(taken.text).toBe(`An index named "docs-copy" already exists. ${nothingWas("created")}\nNext step: choose another name (list_indexes shows the names in use).`);
    await createIndex(svc, { name: "pods-x", dimension: 2, spec: pod });
    const podBackup = await mcp.call("create_backup", { index: "pods-x" });
    expect(refusalOf(podBackup.text)).toEqual({
      problem: 'Index "pods-x" is pod-based; backups are made of serverless indexes only',
      untouched: "created",
      next: "snapshot a pod-based index with create_collection.",
    });
    const unknown = await mcp.call("describe_backup", { backupId: "nope" });
    expect(refusalOf(unknown.text)).toEqual({ problem: 'Backup "nope" not found', untouched: "read", next: listingStep("backup") });

    const deleted = await mcp.call("delete_backup", { backupId });
    expect(deleted.isError, deleted.text).toBe(false);
    expect((await api(svc, "GET", `/backups/${backupId}`)).status).toBe(404);
  });
});

describe("bulk imports", () => {
  test("start, follow to Completed, list; a bad scheme and a cancel of a finished import are explained", async () => {
    const dir = join(importRoot, "batch1");
    mkdirSync(join(dir, "incoming"), { recursive: true });
    writeParquet(join(dir, "incoming", "part-0.parquet"), Array.from({ length: 2500 }, (_, i) => ({ id: `i${i}`, values: [i, 1] })));
    const started = await mcp.call("start_bulk_import", { index: "docs", uri: pathToFileURL(dir).href });
    expect(started.isError, started.text).toBe(false);
    const id = started.structured?.id as string;
    let seen;
    for (let i = 0; i < 400; i++) {
      seen = await mcp.call("describe_bulk_import", { index: "docs", id });
      if ((seen.structured?.import as { status: string }).status === "Completed") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen!.structured?.import).toMatchObject({ id, status: "Completed", percentComplete: 100, recordsImported: 2500 });
    expect((await api(svc, "POST", `${dataUrl(docsHost)}/describe_index_stats`, {})).body.namespaces.incoming).toEqual({ vectorCount: 2500 });
    const listed = await mcp.call("list_bulk_imports", { index: "docs" });
    expect((listed.structured?.imports as { id: string }[]).map((i) => i.id)).toEqual([id]);
    const late = await mcp.call("cancel_bulk_import", { index: "docs", id });
    expect(late.text).toBe(`Import "${id}" cannot be cancelled: it has already ended (status Completed). ${nothingWas("changed")}`);
    const s3 = await mcp.call("start_bulk_import", { index: "docs", uri: "s3://bucket/dir" });
    expect(s3.isError).toBe(true);
    expect(s3.text).toBe(
      "start_bulk_import failed — the service answered HTTP 400: \"The local service imports only from file:// directories (a local extension of the API), not s3://; " +
        "give file:///absolute/path/to/import-dir, under a directory the service was started with --allow-dir\"\nNext step: Correct the request as the message says and call again.",
    );
  });

  test("a cancelled import stops, keeps what it imported and says Cancelled", async () => {
    const dir = join(importRoot, "big");
    mkdirSync(join(dir, "many"), { recursive: true });
    for (let f = 0; f < 8; f++) writeParquet(join(dir, "many", `part-${f}.parquet`), Array.from({ length: 2000 }, (_, i) => ({ id: `m${f}-${i}`, values: [f, i] })));
    const started = await mcp.call("start_bulk_import", { index: "docs", uri: pathToFileURL(dir).href });
    const id = started.structured?.id as string;
    const cancelled = await mcp.call("cancel_bulk_import", { index: "docs", id });
    expect(cancelled.isError, cancelled.text).toBe(false);
    expect(cancelled.structured?.import).toMatchObject({ id, status: "Cancelled" });
    await new Promise((r) => setTimeout(r, 300));
    const after = await mcp.call("describe_bulk_import", { index: "docs", id });
    const imported = (after.structured?.import as { recordsImported: number; status: string });
    expect(imported.status).toBe("Cancelled");
    const stats = (await api(svc, "POST", `${dataUrl(docsHost)}/describe_index_stats`, {})).body.namespaces.many?.vectorCount ?? 0;
    expect(imported.recordsImported).toBeLessThan(16000);
    expect(stats).toBeGreaterThanOrEqual(imported.recordsImported);
    expect(stats - imported.recordsImported).toBeLessThanOrEqual(1000); // at most the batch in flight when it stopped
  });
});

describe("safe modes cover the new tools", () => {
  test("--read-only hides every write; without --allow-destructive the deletes are absent; --indexes scopes backups", async () => {
    const env = { PINECONE_API_KEY: svc.apiKey, PINECONE_CONTROLLER_HOST: svc.controlUrl };
    const readOnly = await startMcp({ env, args: ["--read-only"] });
    const plain = await startMcp({ env });
    const scoped = await startMcp({ env, args: ["--indexes", "docs-copy"] });
    try {
      const names = readOnly.tools.map((t) => t.name);
      for (const write of ["configure_index", "create_namespace", "update_vectors", "create_backup", "create_index_from_backup", "start_bulk_import", "cancel_bulk_import", "delete_namespace", "delete_backup"]) {
        expect(names, write).not.toContain(write);
      }
      for (const read of ["list_namespaces", "describe_namespace", "fetch_by_metadata", "list_backups", "describe_backup", "list_restore_jobs", "describe_restore_job", "list_bulk_imports", "describe_bulk_import"]) {
        expect(names, read).toContain(read);
      }
      expect(plain.tools.map((t) => t.name)).not.toContain("delete_namespace");
      expect(plain.tools.map((t) => t.name)).not.toContain("delete_backup");
      const refused = await scoped.call("list_namespaces", { index: "docs" });
      expect(refused.text).toMatch(/^Index "docs" is not available: this server is limited to the indexes "docs-copy"/);
      const made = await mcp.call("create_backup", { index: "docs" });
      const hidden = await scoped.call("describe_backup", { backupId: (made.structured?.backup as { backupId: string }).backupId });
      expect(hidden.text).toMatch(/^Index "docs" is not available/);
      const listed = await scoped.call("list_backups", {});
      expect((listed.structured?.backups as { sourceIndex: string }[]).every((b) => b.sourceIndex === "docs-copy")).toBe(true);
    } finally {
      await Promise.all([readOnly.close(), plain.close(), scoped.close()]);
    }
  });
});
