// The table of spaces and their namespaces, in two lmdb sub-databases:
//
//   vectors.spaces      space name → { no, dimension?, nextNs? }   (space and namespace numbers are never reused)
//   vectors.namespaces  [u32 space no][u32 ns no] → { name, count, bytes }; [ff ff ff ff] → { next space no }
//
// A (space no, ns no) pair is the scope that prefixes record keys. Methods that write must run inside a
// write transaction; reads inside one see its writes.
import type { Database, RootDatabase, Transaction } from "lmdb";
import { scopeEnd, scopePrefix } from "./keys.js";

export interface SpaceEntry { no: number; dimension?: number; nextNs?: number }
export interface NsEntry { name: string; count: number; bytes: number }
export interface Scope { spaceNo: number; nsNo: number }
/** A namespace being written: its number and its entry, whose counts the writer updates. */
export interface NsHolder { no: number; entry: NsEntry }

const COUNTER_KEY = Buffer.from([0xff, 0xff, 0xff, 0xff]);

export class SpaceTable {
  private readonly spaces: Database<SpaceEntry, string>;
  private readonly nsDb: Database<NsEntry | { next: number }, Buffer>;

  constructor(root: RootDatabase) {
    this.spaces = root.openDB<SpaceEntry, string>({ name: "vectors.spaces", encoding: "json" });
    this.nsDb = root.openDB<NsEntry | { next: number }, Buffer>({ name: "vectors.namespaces", encoding: "json", keyEncoding: "binary" });
  }

  space(space: string, transaction?: Transaction): SpaceEntry | undefined {
    return this.spaces.get(space, transaction ? { transaction } : undefined);
  }

  /** Namespaces of a space, with their numbers. */
  namespaces(spaceNo: number, transaction?: Transaction): { no: number; entry: NsEntry }[] {
    const out: { no: number; entry: NsEntry }[] = [];
    for (const { key, value } of this.nsDb.getRange({ start: scopePrefix(spaceNo), end: scopeEnd(spaceNo), transaction })) {
      if (key.length === 8) out.push({ no: key.readUInt32BE(4), entry: value as NsEntry });
    }
    return out;
  }

  scopeOf(space: string, namespace: string): Scope | undefined {
    const entry = this.spaces.get(space);
    if (!entry) return undefined;
    const ns = this.namespaces(entry.no).find((n) => n.entry.name === namespace);
    return ns ? { spaceNo: entry.no, nsNo: ns.no } : undefined;
  }

  holder(scope: Scope): NsHolder {
    return { no: scope.nsNo, entry: { ...(this.nsDb.get(scopePrefix(scope.spaceNo, scope.nsNo)) as NsEntry) } };
  }

  liveSpaceNos(): Set<number> {
    const live = new Set<number>();
    for (const { value } of this.spaces.getRange({})) live.add(value.no);
    return live;
  }

  // ---- inside a write transaction -------------------------------------------------------------------------

  allocSpaceNo(): number {
    const counter = this.nsDb.get(COUNTER_KEY) as { next: number } | undefined;
    const no = counter?.next ?? 1;
    this.nsDb.putSync(COUNTER_KEY, { next: no + 1 });
    return no;
  }

  ensureSpace(space: string, dimension: number | undefined): SpaceEntry {
    let entry = this.spaces.get(space);
    if (!entry) {
      entry = { no: this.allocSpaceNo() };
      if (dimension !== undefined) entry.dimension = dimension;
      this.spaces.putSync(space, entry);
    } else if (dimension !== undefined && entry.dimension === undefined) {
      entry = { ...entry, dimension };
      this.spaces.putSync(space, entry);
    }
    return entry;
  }

  ensureNamespace(space: string, sp: SpaceEntry, name: string): NsHolder {
    const all = this.namespaces(sp.no);
    const found = all.find((n) => n.entry.name === name);
    if (found) return { no: found.no, entry: { ...found.entry } };
    const no = Math.max(sp.nextNs ?? 1, ...all.map((n) => n.no + 1));
    this.spaces.putSync(space, { ...sp, nextNs: no + 1 });
    return { no, entry: { name, count: 0, bytes: 0 } };
  }

  /** Saves a namespace's counts; an emptied namespace disappears. */
  saveNamespace(spaceNo: number, ns: NsHolder): void {
    const key = scopePrefix(spaceNo, ns.no);
    if (ns.entry.count <= 0) this.nsDb.removeSync(key);
    else this.nsDb.putSync(key, ns.entry);
  }

  removeNamespace(scope: Scope): void {
    this.nsDb.removeSync(scopePrefix(scope.spaceNo, scope.nsNo));
  }

  /** Unregisters a space and its namespaces (its records are removed separately, in chunks). */
  removeSpace(space: string, spaceNo: number): void {
    this.spaces.removeSync(space);
    const keys = [...this.nsDb.getKeys({ start: scopePrefix(spaceNo), end: scopeEnd(spaceNo) })].map((k) => Buffer.from(k));
    for (const key of keys) this.nsDb.removeSync(key);
  }

  /** Registers `space` as a copy of `source` whose records are under `no`, with the source's namespaces. */
  registerCopy(space: string, source: SpaceEntry, no: number, namespaces: { no: number; entry: NsEntry }[]): void {
    for (const ns of namespaces) this.nsDb.putSync(scopePrefix(no, ns.no), ns.entry);
    this.spaces.putSync(space, { ...source, no });
  }
}
