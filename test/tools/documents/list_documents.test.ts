// list_documents end to end: sorted ids a page at a time, by prefix; an empty namespace says so.
import { beforeAll, describe, expect, test } from "vitest";
import { mcp, notesIndex, useDocumentsFixture } from "../fixtures/documents.js";

useDocumentsFixture();

describe("list_documents", () => {
  beforeAll(() => notesIndex());

  test("by prefix, a page at a time", async () => {
    const first = await mcp.call("list_documents", { index: "notes", namespace: "journal", prefix: "note-29", limit: 6 });
    expect(first.isError, first.text).toBe(false);
    const page = first.structured as { ids: string[]; next: string };
    expect(page.ids).toEqual(["note-290", "note-291", "note-292", "note-293", "note-294", "note-295"]);
    expect(first.text).toBe(
      `6 document ids in namespace "journal" of index "notes" starting "note-29":\n\nnote-290\nnote-291\nnote-292\nnote-293\nnote-294\nnote-295\n\nMore ids: call again with "paginationToken": ${JSON.stringify(page.next)}.`,
    );
    const rest = await mcp.call("list_documents", { index: "notes", namespace: "journal", prefix: "note-29", limit: 6, paginationToken: page.next });
    expect(rest.structured).toEqual({ index: "notes", namespace: "journal", ids: ["note-296", "note-297", "note-298", "note-299"] });
  });

  test("every id of the namespace over the pages", async () => {
    const ids: string[] = [];
    let token: string | undefined;
    do {
      const r = await mcp.call("list_documents", { index: "notes", namespace: "journal", ...(token && { paginationToken: token }) });
      const page = r.structured as { ids: string[]; next?: string };
      ids.push(...page.ids);
      token = page.next;
    } while (token);
    expect(ids).toHaveLength(300);
    expect(ids).toEqual([...ids].sort());
  });

  test("an empty namespace", async () => {
    const r = await mcp.call("list_documents", { index: "notes", namespace: "nothing-here" });
    expect(r.text).toBe('No documents in namespace "nothing-here" of index "notes".');
  });
});
