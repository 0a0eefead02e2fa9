// fetch_documents end to end: by ids (naming those not found), by a metadata filter a page at a time, the fields asked
// for; vectors left out of the table; misuse refused.
import { beforeAll, describe, expect, test } from "vitest";
import { mcp, notes, notesIndex, useDocumentsFixture } from "../fixtures/documents.js";
import { refusalOf } from "../../helpers/refusal.js";

useDocumentsFixture();

const fetchDocs = (args: Record<string, unknown>) => mcp.call("fetch_documents", { index: "notes", namespace: "journal", ...args });
type Doc = { id: string; fields: Record<string, unknown> };
const docsOf = (r: { structured?: Record<string, unknown> }) => (r.structured as { documents: Doc[] }).documents;

describe("fetch_documents", () => {
  beforeAll(() => notesIndex());

  test("by ids: the documents found, without their meaning vector, and the ids not found", async () => {
    const r = await fetchDocs({ ids: ["note-211", "nope"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual({ index: "notes", namespace: "journal", documents: [{ id: "note-211", fields: { text: notes[211].text, topic: "finance" } }], missing: ["nope"], note: "Not found: nope." });
    expect(r.text).toBe(
      '1 document in namespace "journal" of index "notes":\n\n| id | text | topic |\n| --- | --- | --- |\n| note-211 | the midnight lantern by the old harbor wall finance | finance |\n\nNot found: nope.',
    );
  });

  test("by filter, a page at a time, until no token is left", async () => {
    const first = await fetchDocs({ filter: { topic: "chess" }, limit: 20, fields: ["topic"] });
    expect(docsOf(first)).toHaveLength(20);
    expect(docsOf(first).every((d) => d.fields.topic === "chess")).toBe(true);
    const next = (first.structured as { next: string }).next;
    expect(first.text).toContain(`More match: call again with "paginationToken": ${JSON.stringify(next)}.`);
    const second = await fetchDocs({ filter: { topic: "chess" }, limit: 20, paginationToken: next, fields: ["topic"] });
    expect(docsOf(second)).toHaveLength(10);
    expect((second.structured as { next?: string }).next).toBeUndefined();
    const all = [...docsOf(first), ...docsOf(second)].map((d) => d.id);
    expect(new Set(all).size).toBe(30);
  });

  test("misuse is refused", async () => {
    expect(refusalOf((await fetchDocs({})).text)).toEqual({ problem: "Give ids or filter (one of them)", untouched: "read" });
    expect(refusalOf((await fetchDocs({ ids: ["a"], paginationToken: "x" })).text).problem).toBe("paginationToken pages a fetch by filter; a fetch by ids has no pages");
    expect(refusalOf((await fetchDocs({ filter: {} })).text).problem).toBe("The filter is empty; give a condition, or list_documents to see every id");
  });
});
