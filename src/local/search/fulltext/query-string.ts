// The query_string syntax (Lucene's classic query parser, default operator OR) to a FullTextQuery:
//   word  "a phrase"  "a phrase"~2 (slop)  "phrase pre"* (last word a prefix)  pre*  w?ld*card  fuzzy~ fuzzy~1
//   field:word  field:"phrase"  field:(a OR b)  (grouping)  clause^2.5 (boost)
//   +must  -must_not  NOT x  !x  a AND b  a && b  a OR b  a || b   \ escapes a special character
// Clauses join as in Lucene: AND makes the clauses on both sides required, NOT / - excludes, others are optional.
// A clause without a field searches every full-text field (one optional clause per field). A word goes through its
// field's analysis: a stop word drops out, a word that analyses to several terms ("e-mail") is a phrase of them.
// Range queries ([a TO b]) are refused: full-text fields hold words, not ordered values.
import type { FieldText } from "./field-text.js";
import type { Analyzer } from "./analyzer.js";
import type { FullTextQuery } from "./query.js";

export class QuerySyntaxError extends Error {}

/** What a query needs of an index's full-text fields: each one's analyzer, by name. */
export type FieldAnalyzers = ReadonlyMap<string, Analyzer | FieldText>;

type Token =
  | { t: "word"; text: string; at: number }
  | { t: "phrase"; text: string; at: number }
  | { t: "(" | ")" | "+" | "-" | "AND" | "OR" | "NOT" | ":" | "^" | "~" | "*"; at: number; value?: string };

const SPECIAL = new Set([..."()\":^~+-!&|\\[]{}"]);

function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i];
    if (/\s/u.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (c === "(" || c === ")" || c === ":") {
      out.push({ t: c, at });
      i++;
    } else if ((c === "+" || c === "-" || c === "!") && (out.length === 0 || /[\s(]/u.test(input[i - 1] ?? " "))) {
      out.push({ t: c === "!" ? "NOT" : c, at });
      i++;
    } else if ((c === "&" || c === "|") && input[i + 1] === c) {
      out.push({ t: c === "&" ? "AND" : "OR", at });
      i += 2;
    } else if (c === "^" || c === "~") {
      i++;
      let num = "";
      while (i < n && /[0-9.]/.test(input[i])) num += input[i++];
      out.push({ t: c, at, value: num });
    } else if (c === "\"") {
      let text = "";
      i++;
      while (i < n && input[i] !== "\"") {
        if (input[i] === "\\" && i + 1 < n) i++;
        text += input[i++];
      }
      if (i >= n) throw new QuerySyntaxError(`unterminated phrase: the quote at character ${at + 1} is not closed`);
      i++;
      out.push({ t: "phrase", text, at });
      if (input[i] === "*") {
        out.push({ t: "*", at: i });
        i++;
      }
    } else if (c === "[" || c === "{") {
      throw new QuerySyntaxError(`range queries (${c}a TO b${c === "[" ? "]" : "}"}) are not supported on full-text fields (character ${at + 1})`);
    } else {
      let text = "";
      while (i < n && !/\s/u.test(input[i]) && (!SPECIAL.has(input[i]) || input[i] === "\\" || input[i] === "-" || input[i] === "+" || input[i] === "!")) {
        if (input[i] === "\\") {
          if (i + 1 >= n) throw new QuerySyntaxError("the query ends with an escape character (\\)");
          i++;
          text += `\\${input[i++]}`;
          continue;
        }
        text += input[i++];
      }
      if (text === "") throw new QuerySyntaxError(`unexpected ${JSON.stringify(c)} at character ${at + 1}`);
      if (text === "AND" || text === "OR" || text === "NOT") out.push({ t: text, at });
      else out.push({ t: "word", text, at });
    }
  }
  return out;
}

type Occur = "must" | "should" | "mustNot";

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly fields: FieldAnalyzers) {}

  parse(): FullTextQuery {
    const q = this.expression([...this.fields.keys()], 0);
    if (this.i < this.tokens.length) throw new QuerySyntaxError(`unexpected ${this.describe(this.tokens[this.i])}`);
    return q;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private describe(t: Token): string {
    return `${t.t === "word" || t.t === "phrase" ? JSON.stringify(t.text) : JSON.stringify(t.t)} at character ${t.at + 1}`;
  }

  private expression(fields: string[], depth: number): FullTextQuery {
    if (depth > 32) throw new QuerySyntaxError("groups are nested more than 32 deep");
    const clauses: { occur: Occur; q: FullTextQuery }[] = [];
    let conj: "AND" | "OR" | undefined;
    for (;;) {
      const t = this.peek();
      if (!t || t.t === ")") break;
      if (t.t === "AND" || t.t === "OR") {
        if (clauses.length === 0) throw new QuerySyntaxError(`${t.t} at character ${t.at + 1} has no clause before it`);
        conj = t.t;
        this.i++;
        continue;
      }
      let occur: Occur = "should";
      if (t.t === "+") (occur = "must"), this.i++;
      else if (t.t === "-" || t.t === "NOT") (occur = "mustNot"), this.i++;
      const q = this.clause(fields, depth);
      if (conj === "AND") {
        const prev = clauses[clauses.length - 1];
        if (prev.occur === "should") prev.occur = "must";
        if (occur === "should") occur = "must";
      }
      conj = undefined;
      clauses.push({ occur, q });
    }
    if (conj) throw new QuerySyntaxError(`the query ends with ${conj}`);
    if (clauses.length === 0) throw new QuerySyntaxError("an empty query or group");
    if (clauses.length === 1 && clauses[0].occur !== "mustNot") return clauses[0].q;
    const pick = (o: Occur) => clauses.filter((c) => c.occur === o).map((c) => c.q);
    return { kind: "bool", must: pick("must"), should: pick("should"), mustNot: pick("mustNot"), boost: 1 };
  }

  private clause(fields: string[], depth: number): FullTextQuery {
    let t = this.peek();
    if (!t) throw new QuerySyntaxError("the query ends where a clause was expected");
    let targets = fields;
    if (t.t === "word" && this.tokens[this.i + 1]?.t === ":") {
      const name = unescape(t.text);
      if (!this.fields.has(name)) {
        throw new QuerySyntaxError(`field ${JSON.stringify(name)} is not a full-text field of this index (full-text fields: ${[...this.fields.keys()].join(", ") || "none"})`);
      }
      targets = [name];
      this.i += 2;
      t = this.peek();
      if (!t) throw new QuerySyntaxError(`the query ends after "${name}:"`);
    }
    let q: FullTextQuery;
    if (t.t === "(") {
      this.i++;
      q = this.expression(targets, depth + 1);
      if (this.peek()?.t !== ")") throw new QuerySyntaxError(`the group opened at character ${t.at + 1} is not closed`);
      this.i++;
    } else if (t.t === "phrase") {
      this.i++;
      let slop = 0;
      let prefix = false;
      if (this.peek()?.t === "*") (prefix = true), this.i++;
      const tilde = this.peek();
      if (tilde?.t === "~") {
        slop = tilde.value ? Number(tilde.value) : 0;
        if (!Number.isInteger(slop) || slop < 0 || slop > 100) throw new QuerySyntaxError(`a phrase slop must be a whole number from 0 to 100, got ${JSON.stringify(tilde.value)}`);
        this.i++;
      }
      q = this.perField(targets, (f) => phrase(this.fields.get(f)!, f, t.text, slop, prefix));
    } else if (t.t === "word") {
      this.i++;
      const tilde = this.peek();
      if (tilde?.t === "~") {
        this.i++;
        const distance = tilde.value ? Number(tilde.value) : 2;
        if (!Number.isInteger(distance) || distance < 0 || distance > 2) throw new QuerySyntaxError(`a fuzzy edit distance must be 0, 1 or 2, got ${JSON.stringify(tilde.value)}`);
        const term = unescape(t.text);
        q = this.perField(targets, (f) => ({ kind: "fuzzy", field: f, term: analyzerOf(this.fields.get(f)!).normalize(term), distance, boost: 1 }));
      } else q = this.perField(targets, (f) => word(this.fields.get(f)!, f, t.text));
    } else throw new QuerySyntaxError(`unexpected ${this.describe(t)}`);
    const caret = this.peek();
    if (caret?.t === "^") {
      this.i++;
      const boost = Number(caret.value);
      if (!caret.value || !Number.isFinite(boost) || boost < 0) throw new QuerySyntaxError(`a boost (^) needs a non-negative number, got ${JSON.stringify(caret.value ?? "")}`);
      q = boosted(q, boost);
    }
    return q;
  }

  private perField(fields: string[], make: (field: string) => FullTextQuery): FullTextQuery {
    if (fields.length === 1) return make(fields[0]);
    return { kind: "bool", must: [], should: fields.map(make), mustNot: [], boost: 1 };
  }
}

function analyzerOf(f: Analyzer | FieldText): Analyzer {
  return "analyzer" in f ? f.analyzer : f;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/gsu, "$1");
}

/** A bare word: wildcard, prefix, or analysed (nothing, a term, or a phrase of its terms). */
function word(f: Analyzer | FieldText, field: string, raw: string): FullTextQuery {
  const analyzer = analyzerOf(f);
  const unescaped = /(^|[^\\])[*?]/u.test(raw);
  if (unescaped) {
    const pattern = analyzer.normalize(raw.replace(/\\([^*?])/gu, "$1"));
    if (/^[^*?]+\*$/u.test(pattern) && !raw.includes("\\")) return { kind: "prefix", field, prefix: pattern.slice(0, -1), boost: 1 };
    return { kind: "wildcard", field, pattern, boost: 1 };
  }
  return phrase(f, field, unescape(raw), 0, false);
}

function phrase(f: Analyzer | FieldText, field: string, text: string, slop: number, prefix: boolean): FullTextQuery {
  const analyzer = analyzerOf(f);
  if (prefix) {
    // the last word is a prefix, taken as written; the words before it are analysed
    const words = text.trim().split(/\s+/u);
    const last = analyzer.normalize(words.pop() ?? "");
    const head = analyzer.analyze(words.join(" "));
    const terms = head.terms.map((term, i) => ({ term, offset: head.positions[i] }));
    if (last === "") return terms.length === 0 ? { kind: "none" } : { kind: "phrase", field, terms, slop, prefixLast: false, boost: 1 };
    if (terms.length === 0) return { kind: "prefix", field, prefix: last, boost: 1 };
    return { kind: "phrase", field, terms: [...terms, { term: last, offset: head.words }], slop, prefixLast: true, boost: 1 };
  }
  const { terms, positions } = analyzer.analyze(text);
  if (terms.length === 0) return { kind: "none" };
  if (terms.length === 1) return { kind: "term", field, term: terms[0], boost: 1 };
  return { kind: "phrase", field, terms: terms.map((term, i) => ({ term, offset: positions[i] - positions[0] })), slop, prefixLast: false, boost: 1 };
}

function boosted(q: FullTextQuery, boost: number): FullTextQuery {
  return q.kind === "none" ? q : { ...q, boost: q.boost * boost };
}

/** Parses a query_string over the index's full-text fields (a clause without a field searches all of them). */
export function parseQueryString(query: string, fields: FieldAnalyzers): FullTextQuery {
  return new Parser(lex(query), fields).parse();
}

/** A text clause: its words, each an optional term, over the fields named (scores summed across them). */
export function textQuery(query: string, fields: string[], analyzers: FieldAnalyzers): FullTextQuery {
  const should: FullTextQuery[] = [];
  for (const field of fields) {
    const { terms } = analyzerOf(analyzers.get(field)!).analyze(query);
    for (const term of terms) should.push({ kind: "term", field, term, boost: 1 });
  }
  return { kind: "bool", must: [], should, mustNot: [], boost: 1 };
}
