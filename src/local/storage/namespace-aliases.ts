// Namespace aliases (API version 2026-07): a name that resolves to a namespace of the same index. One lmdb
// sub-database of the root env, keyed [space] NUL [alias]; mirrored in memory per space, so resolving a name on
// every data-plane request costs a map lookup (and nothing at all for an index without aliases).
import type { Database, RootDatabase } from "lmdb";

export interface NamespaceAlias {
  name: string;
  /** The namespace it resolves to ("" is the default namespace). */
  target: string;
  createdAt: string;
  updatedAt: string;
}

const SEP = "\u0000";

export class NamespaceAliases {
  private readonly db: Database<NamespaceAlias, string>;
  private readonly bySpace = new Map<string, Map<string, NamespaceAlias>>();

  constructor(root: RootDatabase) {
    this.db = root.openDB<NamespaceAlias, string>({ name: "vectors.namespace-aliases", encoding: "json" });
    for (const { key, value } of this.db.getRange({})) {
      const space = key.slice(0, key.indexOf(SEP));
      this.of(space).set(value.name, value);
    }
  }

  private of(space: string): Map<string, NamespaceAlias> {
    let aliases = this.bySpace.get(space);
    if (!aliases) {
      aliases = new Map();
      this.bySpace.set(space, aliases);
    }
    return aliases;
  }

  /** Whether the index has any alias (when not, no request needs resolving). */
  any(space: string): boolean {
    return (this.bySpace.get(space)?.size ?? 0) > 0;
  }

  get(space: string, name: string): NamespaceAlias | undefined {
    return this.bySpace.get(space)?.get(name);
  }

  /** Every alias of the index, by name in byte order. */
  list(space: string): NamespaceAlias[] {
    return [...(this.bySpace.get(space)?.values() ?? [])].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  }

  async put(space: string, alias: NamespaceAlias): Promise<void> {
    await this.db.put(space + SEP + alias.name, alias);
    await this.db.flushed;
    this.of(space).set(alias.name, alias);
  }

  async remove(space: string, name: string): Promise<void> {
    await this.db.remove(space + SEP + name);
    await this.db.flushed;
    this.bySpace.get(space)?.delete(name);
  }

  /** Forgets every alias of a space (its index is gone). */
  async dropSpace(space: string): Promise<void> {
    const keys = [...this.db.getKeys({ start: space + SEP, end: space + "\u0001" })];
    this.bySpace.delete(space);
    if (keys.length === 0) return;
    await this.db.transaction(() => {
      for (const key of keys) this.db.removeSync(key);
    });
    await this.db.flushed;
  }
}
