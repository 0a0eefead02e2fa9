// An inverted index of one namespace's metadata: for each field, the slots holding each value (strings, numbers,
// booleans, and each string of a list), and the slots that have the field at all. A filter is answered as a sorted
// list of slots, in time proportional to the postings it touches — except negations ($ne, $nin, $exists: false),
// which are the complement of the live slots and so cost the namespace. Semantics are search/filter.ts's exactly
// (a list matches when any element does; $ne/$nin also match records without the field; ranges only numbers).
import type { Json } from "../json.js";

type Scalar = string | number | boolean;
type Slots = Set<number>;
/** The slots holding one value: a bare number while there is only one (values unique per record are common). */
type Postings = number | Slots;

interface FieldIndex {
  values: Map<Scalar, Postings>;
  present: Slots;
  /** Distinct numeric values in order, rebuilt on the first range query after a change. */
  sortedNumbers?: number[];
}

export class MetadataIndex {
  private readonly fields = new Map<string, FieldIndex>();
  private readonly skipped = new Set<string>();

  /** Leaves a field out from now on (a full-text field of documents: its postings answer for it, not this index). */
  skip(name: string): void {
    this.skipped.add(name);
    this.fields.delete(name);
  }

  add(slot: number, metadata: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(metadata)) {
      if (this.skipped.has(name)) continue;
      let field = this.fields.get(name);
      if (!field) this.fields.set(name, (field = { values: new Map(), present: new Set() }));
      field.present.add(slot);
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") continue;
        const slots = field.values.get(v);
        if (slots === undefined) {
          field.values.set(v, slot);
          if (typeof v === "number") field.sortedNumbers = undefined;
        } else if (typeof slots === "number") {
          if (slots !== slot) field.values.set(v, new Set([slots, slot]));
        } else slots.add(slot);
      }
    }
  }

  remove(slot: number, metadata: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(metadata)) {
      const field = this.fields.get(name);
      if (!field) continue;
      field.present.delete(slot);
      for (const v of Array.isArray(value) ? value : [value]) {
        const slots = field.values.get(v as Scalar);
        if (slots === undefined) continue;
        if (typeof slots === "number") {
          if (slots !== slot) continue;
        } else {
          slots.delete(slot);
          if (slots.size === 1) field.values.set(v as Scalar, slots.values().next().value as number);
        }
        if (typeof slots === "number" || slots.size === 0) {
          field.values.delete(v as Scalar);
          if (typeof v === "number") field.sortedNumbers = undefined;
        }
      }
      if (field.present.size === 0) this.fields.delete(name);
    }
  }

  clear(): void {
    this.fields.clear();
  }

  /**
   * The slots a filter (already checked by compileFilter) keeps, sorted ascending. `live` gives every live slot in
   * order, for negations.
   */
  select(filter: Json, live: () => number[]): number[] {
    return this.object(filter as Record<string, Json>, live);
  }

  private object(filter: Record<string, Json>, live: () => number[]): number[] {
    let result: number[] | undefined;
    for (const [key, value] of Object.entries(filter)) {
      let part: number[];
      if (key === "$and") part = intersectAll((value as Json[]).map((f) => this.object(f as Record<string, Json>, live)));
      else if (key === "$or") part = unionAll((value as Json[]).map((f) => this.object(f as Record<string, Json>, live)));
      else part = this.field(key, value, live);
      result = result === undefined ? part : intersect(result, part);
      if (result.length === 0) return result;
    }
    return result ?? live();
  }

  private field(name: string, cond: Json, live: () => number[]): number[] {
    if (cond === null || typeof cond !== "object" || Array.isArray(cond)) return this.operator(name, "$eq", cond, live);
    let result: number[] | undefined;
    for (const [op, arg] of Object.entries(cond)) {
      const part = this.operator(name, op, arg, live);
      result = result === undefined ? part : intersect(result, part);
      if (result.length === 0) break;
    }
    return result ?? live();
  }

  private operator(name: string, op: string, arg: Json, live: () => number[]): number[] {
    const field = this.fields.get(name);
    const postings = (v: Json) => sorted(field?.values.get(v as Scalar));
    switch (op) {
      case "$eq":
        return postings(arg);
      case "$ne":
        return difference(live(), postings(arg));
      case "$in":
        return unionAll((arg as Json[]).map(postings));
      case "$nin":
        return difference(live(), unionAll((arg as Json[]).map(postings)));
      case "$exists":
        return arg === true ? sorted(field?.present) : difference(live(), sorted(field?.present));
      default:
        return field ? this.range(field, op, arg as number) : [];
    }
  }

  private range(field: FieldIndex, op: string, bound: number): number[] {
    field.sortedNumbers ??= [...field.values.keys()].filter((v): v is number => typeof v === "number").sort((a, b) => a - b);
    const numbers = field.sortedNumbers;
    // first index whose value is > bound ($gt, $lte's end) or ≥ bound ($gte, $lt's end)
    const strict = op === "$gt" || op === "$lte";
    let lo = 0;
    let hi = numbers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (strict ? numbers[mid] <= bound : numbers[mid] < bound) lo = mid + 1;
      else hi = mid;
    }
    const picked = op === "$gt" || op === "$gte" ? numbers.slice(lo) : numbers.slice(0, lo);
    return unionAll(picked.map((v) => sorted(field.values.get(v))));
  }
}

function sorted(slots: Postings | undefined): number[] {
  if (slots === undefined) return [];
  if (typeof slots === "number") return [slots];
  if (slots.size === 0) return [];
  return Array.from(Int32Array.from(slots).sort());
}

export function intersect(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out.push(a[i]);
      i++;
      j++;
    }
  }
  return out;
}

function intersectAll(lists: number[][]): number[] {
  if (lists.length === 0) return [];
  return lists.slice(1).reduce((acc, l) => intersect(acc, l), lists[0]);
}

export function unionAll(lists: ArrayLike<number>[]): number[] {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length === 0) return [];
  if (nonEmpty.length === 1) return Array.from(nonEmpty[0]);
  const all = new Int32Array(nonEmpty.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of nonEmpty) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  const out: number[] = [];
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) out.push(all[i]);
  return out;
}

function difference(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    if (j < b.length && b[j] === a[i]) continue;
    out.push(a[i]);
  }
  return out;
}
