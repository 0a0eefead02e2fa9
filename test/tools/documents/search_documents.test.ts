// search_documents end to end: the built server over stdio against the local service (test/tools/fixtures/documents.ts).
// A model makes a full-text index with a meaning field, writes the 300 notes, and finds one by an exact phrase, by two
// words, by a query string and by meaning; filters narrow it; every misuse is refused before a call, with the text a
// model reads.
import { beforeAll, describe, expect, test } from "vitest";
import { hitsOf, idsOf, mcp, notes, notesIndex, useDocumentsFixture } from "../fixtures/documents.js";
import { refusalOf } from "../../helpers/refusal.js";

useDocumentsFixture();

const search = (args: Record<string, unknown>) => mcp.call("search_documents", { index: "notes", namespace: "journal", ...args });

describe("search_documents over 300 notes", () => {
  beforeAll(() => notesIndex());

  test("an exact phrase finds the one note that holds it, and only that one", async () => {
    const r = await search({ words: "midnight lantern", match: "phrase" });
    expect(r.isError, r.text).toBe(false);
    expect(idsOf(r)).toEqual(["note-211"]);
    expect(hitsOf(r)[0].fields).toEqual({ text: notes[211].text, topic: notes[211].topic }); // no vector field
    expect(r.text).toMatch(/^1 document in namespace "journal" of index "notes", containing the phrase:\n\n\| id \| score \| text \| topic \|\n\| --- \| --- \| --- \| --- \|\n\| note-211 \| [\d.]+ \| the midnight lantern by the old harbor wall finance \| finance \|$/);
    // The same words in another order are not the phrase.
    expect(idsOf(await search({ words: "lantern midnight", match: "phrase" }))).toEqual([]);
  });

  test("two words: ranked by any of them; with match all only notes holding both", async () => {
    const any = await search({ words: "harbor lantern", topK: 50 });
    expect(idsOf(any)[0]).toBe("note-211");
    expect(idsOf(any).length).toBeGreaterThan(1); // the sailing notes that say harbor
    const all = await search({ words: "harbor lantern", match: "all", topK: 50 });
    expect(idsOf(all)).toEqual(["note-211"]);
    expect(all.text).toContain("containing every word:");
  });

  test("a query string: a phrase and a word on the text field", async () => {
    const r = await search({ queryString: 'text:"old harbor" AND finance' });
    expect(idsOf(r)).toEqual(["note-211"]);
    const prefix = await search({ queryString: "text:quetzal*" });
    expect(idsOf(prefix)).toEqual(["note-137"]);
  });

  test("by meaning: the query embedded by the index's model finds the note with that text", async () => {
    const r = await search({ meaning: notes[137].text, topK: 3 });
    expect(r.isError, r.text).toBe(false);
    expect(idsOf(r)[0]).toBe("note-137");
    expect(r.text).toContain('3 documents in namespace "journal" of index "notes", by meaning:');
  });

  test("a filter narrows words and meaning alike", async () => {
    const words = await search({ words: "harbor", topK: 100 });
    const sailing = await search({ words: "harbor", filter: { topic: "sailing" }, topK: 100 });
    expect(idsOf(words)).toContain("note-211");
    expect(idsOf(sailing).length).toBeGreaterThan(0);
    expect(idsOf(sailing).length).toBeLessThan(idsOf(words).length);
    expect(hitsOf(sailing).every((h) => h.fields.topic === "sailing")).toBe(true);
    const phraseElsewhere = await search({ words: "midnight lantern", match: "phrase", filter: { topic: { $ne: "finance" } } });
    expect(phraseElsewhere.text).toBe('No documents in namespace "journal" of index "notes" match (with the filter).');
    const meaning = await search({ meaning: notes[137].text, filter: { topic: "cooking" }, topK: 5 });
    expect(hitsOf(meaning).every((h) => h.fields.topic === "cooking")).toBe(true);
  });

  test("fields picks the fields returned", async () => {
    const r = await search({ words: "quetzalcoatl", fields: ["topic"] });
    expect(hitsOf(r)).toEqual([{ id: "note-137", score: expect.any(Number), fields: { topic: notes[137].topic } }]);
  });

  test("misuse is refused before any call, naming what to do instead", async () => {
    expect(refusalOf((await search({})).text)).toEqual({
      problem: "Say what to search for: words, queryString, meaning or vector",
      untouched: "read",
      next: "call again with words (the exact words to find) or meaning.",
    });
    expect(refusalOf((await search({ meaning: "boats", words: "harbor" })).text)).toEqual({
      problem: "meaning searches alone; this call also gives words",
      untouched: "read",
      next: "search by meaning in one call and by words in another.",
    });
    expect(refusalOf((await search({ queryString: "harbor", match: "all" })).text).problem).toBe("match says how the words must occur, and this call gives no words");
    expect(refusalOf((await search({ words: "harbor", inFields: ["title"] })).text).problem).toBe('inFields names "title", not a text field of this index (text)');
    expect(refusalOf((await search({ vector: { values: [1, 2] } })).text).problem).toBe("This index has no dense vector field");
    expect(refusalOf((await search({ words: "harbor", filter: { text: { $match_phrase: "harbor" } } })).text).problem).toBe(
      'Invalid filter: unknown operator "$match_phrase" on field "text"',
    );
  });
});
