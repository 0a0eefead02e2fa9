// The namespace tools end to end: the built server over stdio (with --allow-destructive) against the local service
// (test/tools/fixtures/administration.ts) — happy path with its table, and the bad inputs with the exact text a model
// receives.
import { describe, expect, test } from "vitest";
import { mcp, useAdministrationFixture } from "../fixtures/administration.js";
import { listingStep } from "../../../src/tool-kit/missing-resource.js";
import { refusalOf } from "../../helpers/refusal.js";

useAdministrationFixture();

describe("namespaces: create_namespace, list_namespaces, describe_namespace, delete_namespace", () => {
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
