// The safe modes over the administration tools: --read-only hides every write, without --allow-destructive the deletes
// are absent, --indexes scopes backups. Each tool's own tests: test/tools/<folder>/<tool>.test.ts.
import { describe, expect, test } from "vitest";
import { startMcp } from "../helpers/mcp-client.js";
import { mcp, svc, useAdministrationFixture } from "../tools/fixtures/administration.js";

useAdministrationFixture();

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
