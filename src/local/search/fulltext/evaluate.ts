// Runs a FullTextQuery (query.ts) over a namespace's full-text fields in memory, clause at a time: each clause gives
// the slots it matches with their scores, in dense per-slot arrays borrowed from a workspace and cleared after; a
// bool clause combines its children's. The filter's slots (`allowed`) are applied at the leaves, so nothing outside
// it is scored.
import { idf, lengthNorm, termScore } from "../../models/bm25.js";
import type { FieldPostings, PostingList } from "../../memory/text-postings.js";
import type { DocumentText } from "./document-text.js";
import type { FieldText } from "./field-text.js";
import { MAX_EXPANSIONS, wildcardMatcher, withinEdits, type FullTextQuery, type PhraseTerm } from "./query.js";

/** Slots a clause matched, with their scores: `hit` marks them, `slots` lists them in the order found. */
class Scores {
  readonly slots: number[] = [];
  constructor(readonly score: Float64Array, readonly hit: Uint8Array) {}

  add(slot: number, s: number): void {
    if (this.hit[slot] === 0) {
      this.hit[slot] = 1;
      this.slots.push(slot);
    }
    this.score[slot] += s;
  }

  /** Keeps the larger of the slot's scores (fuzzy expansions). */
  max(slot: number, s: number): void {
    if (this.hit[slot] === 0) {
      this.hit[slot] = 1;
      this.slots.push(slot);
      this.score[slot] = s;
    } else if (s > this.score[slot]) this.score[slot] = s;
  }
}

/** Per-slot arrays lent to clauses during one search and cleared where they were written when it ends. */
class Workspace {
  private readonly lent: Scores[] = [];
  private readonly free: Scores[] = [];
  constructor(readonly capacity: number) {}

  scores(): Scores {
    const reused = this.free.pop();
    const s = reused ? new Scores(reused.score, reused.hit) : new Scores(new Float64Array(this.capacity), new Uint8Array(this.capacity));
    this.lent.push(s);
    return s;
  }

  /** Clears every lent array where it was written. */
  release(): void {
    for (const s of this.lent) {
      for (const slot of s.slots) {
        s.score[slot] = 0;
        s.hit[slot] = 0;
      }
      this.free.push(s);
    }
    this.lent.length = 0;
  }
}

export interface ScoredSlot { slot: number; score: number }

/** Workspaces kept between searches (a search is synchronous), one per namespace's full-text fields. */
const workspaces = new WeakMap<DocumentText, Workspace>();

/** Calls `each` for every slot the query matches (within `allowed`, when given) with its score, in no particular order. */
export function visit(text: DocumentText, query: FullTextQuery, allowed: Uint8Array | undefined, each: (slot: number, score: number) => void): void {
  let capacity = allowed?.length ?? 0;
  for (const field of text.fields.values()) capacity = Math.max(capacity, field.postings.slotCapacity);
  let ws = workspaces.get(text);
  if (!ws || ws.capacity < capacity) workspaces.set(text, (ws = new Workspace(capacity)));
  try {
    const result = run(text, query, allowed, ws);
    for (const slot of result.slots) each(slot, result.score[slot]);
  } finally {
    ws.release();
  }
}

/** Every slot the query matches, with its score. */
export function evaluate(text: DocumentText, query: FullTextQuery, allowed?: Uint8Array): ScoredSlot[] {
  const out: ScoredSlot[] = [];
  visit(text, query, allowed, (slot, score) => out.push({ slot, score }));
  return out;
}

/** Runs a clause; a term or phrase adds its scores into `into` when given (an optional clause of a plain bool). */
function run(text: DocumentText, q: FullTextQuery, allowed: Uint8Array | undefined, ws: Workspace, into?: Scores): Scores {
  const out = into ?? ws.scores();
  if (q.kind === "none") return out;
  if (q.kind === "bool") return runBool(text, q, allowed, ws, out);
  const field = text.fields.get(q.field);
  if (!field) return out;
  switch (q.kind) {
    case "term": {
      const id = field.id(q.term);
      if (id !== undefined) addTerm(field, id, q.boost, allowed, (slot, s) => out.add(slot, s));
      return out;
    }
    case "prefix":
    case "wildcard": {
      const test = q.kind === "prefix" ? (t: string) => t.startsWith(q.prefix) : wildcardMatcher(q.pattern);
      for (const id of field.expand(test, MAX_EXPANSIONS)) {
        forLive(field, id, allowed, (slot) => {
          if (out.hit[slot] === 0) out.add(slot, q.boost);
        });
      }
      return out;
    }
    case "fuzzy": {
      for (const id of field.expand((t) => withinEdits(t, q.term, q.distance), MAX_EXPANSIONS)) addTerm(field, id, q.boost, allowed, (slot, s) => out.max(slot, s));
      return out;
    }
    case "phrase": {
      if (!q.prefixLast) {
        addPhrase(field, q.terms, q.slop, q.boost, allowed, out);
        return out;
      }
      const last = q.terms[q.terms.length - 1];
      for (const id of field.expand((t) => t.startsWith(last.term), MAX_EXPANSIONS)) {
        addPhrase(field, [...q.terms.slice(0, -1), { term: field.terms[id], offset: last.offset }], q.slop, q.boost, allowed, out);
      }
      return out;
    }
  }
}

type TermQuery = Extract<FullTextQuery, { kind: "term" }>;

function runBool(text: DocumentText, q: Extract<FullTextQuery, { kind: "bool" }>, allowed: Uint8Array | undefined, ws: Workspace, out: Scores): Scores {
  if (q.should.length === 0 && q.mustNot.length === 0 && q.must.length > 1 && q.must.every((c) => c.kind === "term")) {
    addConjunction(text, q.must as TermQuery[], q.boost, allowed, out);
    return out;
  }
  if (q.must.length === 0 && q.mustNot.length === 0 && q.boost === 1 && out.slots.length === 0) {
    // only optional clauses: terms and phrases add straight into the answer (the same sums, in the same order)
    for (const c of q.should) {
      if (c.kind === "term" || (c.kind === "phrase" && !c.prefixLast)) run(text, c, allowed, ws, out);
      else {
        const s = run(text, c, allowed, ws);
        for (const slot of s.slots) out.add(slot, s.score[slot]);
      }
    }
    return out;
  }
  const must = q.must.map((c) => run(text, c, allowed, ws));
  const should = q.should.map((c) => run(text, c, allowed, ws));
  const mustNot = q.mustNot.map((c) => run(text, c, allowed, ws));
  let candidates: number[];
  if (must.length > 0) {
    const smallest = must.reduce((a, b) => (b.slots.length < a.slots.length ? b : a));
    candidates = smallest.slots.filter((slot) => must.every((m) => m.hit[slot] === 1));
  } else {
    const union = ws.scores();
    for (const s of should) for (const slot of s.slots) union.add(slot, 0);
    candidates = union.slots;
  }
  for (const slot of candidates) {
    if (mustNot.some((n) => n.hit[slot] === 1)) continue;
    let score = 0;
    for (const m of must) score += m.score[slot];
    for (const s of should) if (s.hit[slot] === 1) score += s.score[slot];
    out.add(slot, q.boost * score);
  }
  return out;
}

function forLive(field: FieldText, id: number, allowed: Uint8Array | undefined, each: (slot: number, i: number, list: PostingList) => void): void {
  const list = field.postings.list(id);
  if (!list) return;
  const generations = field.postings.generations;
  for (let i = 0; i < list.size; i++) {
    const slot = list.slots[i];
    if (list.generations[i] !== generations[slot]) continue;
    if (allowed && (slot >= allowed.length || allowed[slot] === 0)) continue;
    each(slot, i, list);
  }
}

function addTerm(field: FieldText, id: number, boost: number, allowed: Uint8Array | undefined, add: (slot: number, s: number) => void): void {
  const postings = field.postings;
  const list = postings.list(id);
  if (!list) return;
  const weight = boost * idf(postings.documents, list.live);
  const average = postings.averageLength;
  forLive(field, id, allowed, (slot, i) => add(slot, termScore(weight, list.counts[i], lengthNorm(postings.lengths[slot], average))));
}

/** A term's settled postings in one field, for walking several at once (forEachInAll). */
interface Held { list: PostingList; postings: FieldPostings }

/** The term's postings in the field, settled in slot order; undefined when no document holds it. */
function held(field: FieldText, term: string): Held | undefined {
  const id = field.id(term);
  const list = id === undefined ? undefined : field.postings.list(id);
  if (!list) return undefined;
  list.settle(field.postings.generations);
  return { list, postings: field.postings };
}

/**
 * Calls `each` for every slot (within `allowed`) live in every list, ascending, with each list's posting there in
 * `at`: the rarest list is walked and each of its slots looked up in the others (rarer first) by galloping forward
 * from where the previous lookup ended — the cost follows the rarest list, not the common terms' long ones.
 */
function forEachInAll(terms: Held[], allowed: Uint8Array | undefined, each: (slot: number, at: Int32Array) => void): void {
  const byRarity = terms.map((_, j) => j).sort((a, b) => terms[a].list.live - terms[b].list.live || a - b);
  const { list: rarest, postings: first } = terms[byRarity[0]];
  const cursors = new Int32Array(terms.length);
  const at = new Int32Array(terms.length);
  next: for (let i = 0; i < rarest.size; i++) {
    const slot = rarest.slots[i];
    if (rarest.generations[i] !== first.generations[slot]) continue;
    if (allowed && (slot >= allowed.length || allowed[slot] === 0)) continue;
    at[byRarity[0]] = i;
    for (let r = 1; r < byRarity.length; r++) {
      const j = byRarity[r];
      const { list, postings } = terms[j];
      let k = list.seek(slot, cursors[j]);
      while (k < list.size && list.slots[k] === slot && list.generations[k] !== postings.generations[slot]) k++; // a dead posting
      cursors[j] = k;
      if (k === list.size) break next; // no later slot holds this term
      if (list.slots[k] !== slot) continue next;
      at[j] = k;
    }
    each(slot, at);
  }
}

/** Adds a phrase's scores; positions are compared only in the documents that hold every term. */
function addPhrase(field: FieldText, terms: PhraseTerm[], slop: number, boost: number, allowed: Uint8Array | undefined, out: Scores): void {
  const postings = field.postings;
  const lists: Held[] = [];
  for (const t of terms) {
    const h = held(field, t.term);
    if (!h) return;
    lists.push(h);
  }
  let weight = 0;
  for (const { list } of lists) weight += idf(postings.documents, list.live);
  weight *= boost;
  const positions = new PhrasePositions(
    lists.map((h) => h.list),
    terms,
    slop,
  );
  const average = postings.averageLength;
  forEachInAll(lists, allowed, (slot, at) => {
    for (let j = 0; j < lists.length; j++) positions.use(j, at[j]);
    const freq = positions.frequency();
    if (freq > 0) out.add(slot, termScore(weight, freq, lengthNorm(postings.lengths[slot], average)));
  });
}

/**
 * Adds the scores of a bool of required terms only ($match_all, "every word"): the documents holding all of them,
 * each scored as the bool scores its must clauses (the terms' scores summed in order, times the bool's boost).
 */
function addConjunction(text: DocumentText, terms: TermQuery[], boost: number, allowed: Uint8Array | undefined, out: Scores): void {
  const parts: (Held & { weight: number })[] = [];
  for (const t of terms) {
    const field = text.fields.get(t.field);
    const h = field && held(field, t.term);
    if (!h) return;
    parts.push({ ...h, weight: t.boost * idf(h.postings.documents, h.list.live) });
  }
  forEachInAll(parts, allowed, (slot, at) => {
    let score = 0;
    for (let j = 0; j < parts.length; j++) {
      const { list, postings, weight } = parts[j];
      score += termScore(weight, list.counts[at[j]], lengthNorm(postings.lengths[slot], postings.averageLength));
    }
    out.add(slot, boost * score);
  });
}

/** The phrase's terms' positions in one document — ranges of their lists' position arrays, read in place. */
class PhrasePositions {
  private readonly arrays: Uint16Array[];
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private readonly cursor: Int32Array;
  private readonly offsets: Int32Array;

  constructor(private readonly lists: PostingList[], terms: PhraseTerm[], private readonly slop: number) {
    this.arrays = lists.map((l) => l.positions);
    this.from = new Int32Array(lists.length);
    this.to = new Int32Array(lists.length);
    this.cursor = new Int32Array(lists.length);
    this.offsets = Int32Array.from(terms, (t) => t.offset);
  }

  /** Term `j`'s positions are posting `i`'s of its list. */
  use(j: number, i: number): void {
    this.from[j] = i === 0 ? 0 : this.lists[j].positionEnds[i - 1];
    this.to[j] = this.lists[j].positionEnds[i];
  }

  /**
   * How many starts the phrase has: places where every term lies within `slop` of its offset — counted at the first
   * term's positions; without slop, at the term with the fewest positions here (each start is then one position of
   * every term, so any term counts them alike). Starts ascend, so each term's cursor only moves forward.
   */
  frequency(): number {
    const { arrays, from, to, cursor, offsets, slop } = this;
    const n = arrays.length;
    let anchor = 0;
    if (slop === 0) for (let j = 1; j < n; j++) if (to[j] - from[j] < to[anchor] - from[anchor]) anchor = j;
    cursor.set(from);
    let freq = 0;
    for (let k = from[anchor]; k < to[anchor]; k++) {
      const start = arrays[anchor][k] - offsets[anchor];
      let all = true;
      for (let j = 0; j < n && all; j++) {
        if (j === anchor) continue;
        const positions = arrays[j];
        const low = start + offsets[j] - slop;
        let c = cursor[j];
        while (c < to[j] && positions[c] < low) c++;
        cursor[j] = c;
        if (c === to[j]) return freq; // this term has no position left for any later start
        all = positions[c] <= low + 2 * slop;
      }
      if (all) freq++;
    }
    return freq;
  }
}
