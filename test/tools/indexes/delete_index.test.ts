// delete_index end to end: the built server over stdio (with --allow-destructive) against the local service
// (test/tools/fixtures/admin.ts), every outcome checked on the service itself.
import { describe, expect, test } from "vitest";
import { svc, mcp, indexNames, upsert, useAdminFixture } from "../fixtures/admin.js";
import { createIndex, serverless } from "../../e2e/support.js";
import { nothingWas } from "../../../src/tool-kit/refusal.js";

useAdminFixture();

describe("delete_index", () => {
  test("an index with deletion protection: not deleted, and how to turn it off", async () => {
    await createIndex(svc, { name: "guarded", dimension: 2, spec: serverless, deletion_protection: "enabled" } as never);
    const r = await mcp.call("delete_index", { index: "guarded" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      `Index "guarded" has deletion protection enabled, so it was NOT deleted. ${nothingWas("changed")}\n` +
        'Next step: only if the user really wants it gone, turn deletion protection off first with configure_index {"index": "guarded", "deletionProtection": "disabled"} — then call delete_index again.',
    );
    expect(await indexNames()).toContain("guarded");
  });

  test("removes the index and says what it held", async () => {
    const { host } = await createIndex(svc, { name: "doomed", dimension: 2, spec: serverless });
    await upsert(host, "x", [{ id: "1", values: [1, 2] }, { id: "2", values: [2, 1] }]);
    await upsert(host, "", [{ id: "3", values: [1, 1] }]);
    const r = await mcp.call("delete_index", { index: "doomed" });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ deleted: { name: "doomed", kind: "serverless", dimension: 2 }, records: 3, namespaces: 2 });
    expect(r.text.split("\n")[0]).toBe('Index "doomed" deleted, with every record in it. It held 3 records in 2 namespaces.');
    expect(await indexNames()).not.toContain("doomed");
    const again = await mcp.call("delete_index", { index: "doomed" });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/^delete_index failed — the service answered HTTP 404 NOT_FOUND: "Index doomed not found\."\nNext step: Call list_indexes/);
  });
});
