// query_string syntax: what each form becomes (the clauses the engine runs), and the refusals a user reads.
import { describe, expect, it } from "vitest";
import { Analyzer } from "../../../../src/local/search/fulltext/analyzer.js";
import { parseQueryString, QuerySyntaxError, textQuery } from "../../../../src/local/search/fulltext/query-string.js";
import { FULL_TEXT_LANGUAGES } from "../../../../src/local/storage/index-schema.js";

const fields = new Map([
  ["title", new Analyzer({ language: "en", stemming: true, stopWords: true })],
  ["body", new Analyzer({ language: "en", stemming: false, stopWords: false })],
]);
const parse = (q: string) => parseQueryString(q, fields);
const term = (field: string, t: string, boost = 1) => ({ kind: "term", field, term: t, boost });
const bool = (must: unknown[], should: unknown[], mustNot: unknown[] = [], boost = 1) => ({ kind: "bool", must, should, mustNot, boost });

describe("query_string", () => {
  it("a word without a field searches every full-text field, analysed by each", () => {
    expect(parse("Running")).toEqual(bool([], [term("title", "run"), term("body", "running")]));
  });

  it("field qualifiers, groups, AND / OR / NOT, + and -", () => {
    expect(parse("title:rivers body:stone")).toEqual(bool([], [term("title", "river"), term("body", "stone")]));
    expect(parse("body:a AND body:b OR body:c")).toEqual(bool([term("body", "a"), term("body", "b")], [term("body", "c")]));
    expect(parse("+body:a -body:b body:c")).toEqual(bool([term("body", "a")], [term("body", "c")], [term("body", "b")]));
    expect(parse("body:(a || b) && NOT body:c")).toEqual(bool([bool([], [term("body", "a"), term("body", "b")])], [], [term("body", "c")]));
    expect(parse("body:(a !b)")).toEqual(bool([], [term("body", "a")], [term("body", "b")]));
  });

  it("phrases with slop and a prefix last word, stop words leaving gaps", () => {
    expect(parse('title:"the rivers of stone"')).toEqual({
      kind: "phrase", field: "title", terms: [{ term: "river", offset: 0 }, { term: "stone", offset: 2 }], slop: 0, prefixLast: false, boost: 1,
    });
    expect(parse('body:"quick fox"~2')).toMatchObject({ kind: "phrase", slop: 2 });
    expect(parse('body:"quick bro"*')).toEqual({
      kind: "phrase", field: "body", terms: [{ term: "quick", offset: 0 }, { term: "bro", offset: 1 }], slop: 0, prefixLast: true, boost: 1,
    });
    // a word that analyses to several terms is a phrase of them
    expect(parse("body:e-mail")).toMatchObject({ kind: "phrase", terms: [{ term: "e", offset: 0 }, { term: "mail", offset: 1 }] });
  });

  it("prefix, wildcard, fuzzy, boosts, escapes", () => {
    expect(parse("body:Riv*")).toEqual({ kind: "prefix", field: "body", prefix: "riv", boost: 1 });
    expect(parse("body:r?v*r")).toEqual({ kind: "wildcard", field: "body", pattern: "r?v*r", boost: 1 });
    expect(parse("body:rivr~1")).toEqual({ kind: "fuzzy", field: "body", term: "rivr", distance: 1, boost: 1 });
    expect(parse("body:rivr~")).toMatchObject({ distance: 2 });
    expect(parse("body:stone^2.5")).toEqual(term("body", "stone", 2.5));
    expect(parse("body:(a b)^2")).toEqual(bool([], [term("body", "a"), term("body", "b")], [], 2));
    expect(parse("body:c\\+\\+")).toEqual(term("body", "c"));
  });

  it("a stop word alone matches nothing", () => {
    expect(parse("title:the")).toEqual({ kind: "none" });
  });

  it("refuses what it cannot run, saying where", () => {
    const refusal = (q: string) => {
      try {
        parse(q);
      } catch (e) {
        expect(e).toBeInstanceOf(QuerySyntaxError);
        return (e as Error).message;
      }
      throw new Error(`${q} was accepted`);
    };
    expect(refusal('body:"open')).toBe("unterminated phrase: the quote at character 6 is not closed");
    expect(refusal("(a b")).toBe("the group opened at character 1 is not closed");
    expect(refusal("genre:drama")).toBe('field "genre" is not a full-text field of this index (full-text fields: title, body)');
    expect(refusal("year:[2020 TO 2024]")).toBe("range queries ([a TO b]) are not supported on full-text fields (character 6)");
    expect(refusal("a AND")).toBe("the query ends with AND");
    expect(refusal("OR a")).toBe("OR at character 1 has no clause before it");
    expect(refusal("a~3")).toBe('a fuzzy edit distance must be 0, 1 or 2, got "3"');
    expect(refusal("a^")).toBe('a boost (^) needs a non-negative number, got ""');
  });

  it("a text clause: every word an optional term of every field named", () => {
    expect(textQuery("The rivers", ["title", "body"], fields)).toEqual(
      bool([], [term("title", "river"), term("body", "the"), term("body", "rivers")]),
    );
  });
});

describe("analysis", () => {
  it("splits on what is not a letter or digit, lower-cases, drops stop words, stems in the field's language", () => {
    const en = new Analyzer({ language: "en", stemming: true, stopWords: true });
    expect(en.analyze("The Black-throated warblers were migrating")).toEqual({
      terms: ["black", "throat", "warbler", "migrat"], positions: [1, 2, 3, 5], words: 6,
    });
    expect(new Analyzer({ language: "fr", stemming: true, stopWords: true }).analyze("les nationales").terms).toEqual(["national"]);
    expect(new Analyzer({ language: "german", stemming: true, stopWords: false }).analyze("Häuser").terms).toEqual(["haus"]);
    expect(new Analyzer({ language: "ru", stemming: true, stopWords: false }).analyze("домами").terms).toEqual(["дом"]);
  });

  it("n-grams: every gram of each word, or only its prefixes", () => {
    expect(new Analyzer({ language: "en", stemming: false, stopWords: false, ngram: { minGram: 2, maxGram: 3, prefixOnly: false } }).analyze("abcd x").terms)
      .toEqual(["ab", "abc", "bc", "bcd", "cd"]);
    expect(new Analyzer({ language: "en", stemming: false, stopWords: false, ngram: { minGram: 1, maxGram: 3, prefixOnly: true } }).analyze("abcd").terms)
      .toEqual(["a", "ab", "abc"]);
  });

  it("analyses every language a schema accepts, by its code and by its name", () => {
    for (const [code, name] of Object.entries(FULL_TEXT_LANGUAGES)) {
      const byCode = new Analyzer({ language: code, stemming: true, stopWords: true });
      expect(new Analyzer({ language: name, stemming: true, stopWords: true }).analyze("x").terms, name).toEqual(byCode.analyze("x").terms);
    }
    expect(Object.keys(FULL_TEXT_LANGUAGES)).toHaveLength(18);
    expect(() => new Analyzer({ language: "xx", stemming: false, stopWords: false })).toThrow('unknown full-text language "xx"');
  });

  it("drops tokens longer than 40 characters", () => {
    expect(new Analyzer({ language: "en", stemming: false, stopWords: false }).analyze(`a ${"x".repeat(41)} b`)).toEqual({ terms: ["a", "b"], positions: [0, 2], words: 3 });
  });
});
