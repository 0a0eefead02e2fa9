// Every tool's title and annotations as listed with --allow-destructive: the delete tools, and those that overwrite or
// can unprotect, are annotated destructive. Each admin tool's own tests: test/tools/<folder>/<tool>.test.ts.
import { expect, test } from "vitest";
import { mcp, useAdminFixture } from "../tools/fixtures/admin.js";

useAdminFixture();

test("every tool is titled; the delete tools, and those that overwrite or can unprotect, are annotated destructive", () => {
  for (const t of mcp.tools) {
    expect(t.title, t.name).toBeTruthy();
    expect(t.annotations?.title, t.name).toBe(t.title);
  }
  const byName = Object.fromEntries(mcp.tools.map((t) => [t.name, t.annotations]));
  const destructive = ["delete_vectors", "delete_index", "delete_collection", "update_vectors", "configure_index", "start_bulk_import", "cancel_bulk_import"];
  for (const name of destructive) {
    expect(byName[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  }
  expect(byName.create_index).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
});
