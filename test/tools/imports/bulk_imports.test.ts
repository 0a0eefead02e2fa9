// The bulk import tools end to end: the built server over stdio (with --allow-destructive) against the local service
// (test/tools/fixtures/administration.ts) — happy path with its table, and the bad inputs with the exact text a model
// receives.
import { describe, expect, test } from "vitest";
import { svc, mcp, importRoot, docsHost, useAdministrationFixture } from "../fixtures/administration.js";
import { mkdirSync } from "node:fs";
import { api, dataUrl } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";
import { writeParquet } from "../../ingest/sources/fixtures.js";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

useAdministrationFixture();

describe("bulk imports: start_bulk_import, list_bulk_imports, describe_bulk_import, cancel_bulk_import", () => {
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
