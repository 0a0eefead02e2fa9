// Namespaces created by name (POST /namespaces), kept whether or not they hold records, with the metadata schema
// they were created with. One lmdb sub-database of the root env, keyed [space] NUL [namespace]; the records
// themselves stay in the vector store, which knows a namespace only while it holds records.
import type { Database, RootDatabase } from "lmdb";

export interface NamespaceSchema { fields: Record<string, { filterable?: boolean }> }
export interface DeclaredNamespace { name: string; schema?: NamespaceSchema; createdAt: string }

const SEP = "\u0000";

export class DeclaredNamespaces {
  private readonly db: Database<DeclaredNamespace, string>;

  constructor(root: RootDatabase) {
    this.db = root.openDB<DeclaredNamespace, string>({ name: "vectors.declared-namespaces", encoding: "json" });
  }

  get(space: string, name: string): DeclaredNamespace | undefined {
    return this.db.get(space + SEP + name);
  }

  list(space: string): DeclaredNamespace[] {
    return [...this.db.getRange({ start: space + SEP, end: space + "\u0001" })].map(({ value }) => value);
  }

  async declare(space: string, entry: DeclaredNamespace): Promise<void> {
    await this.db.put(space + SEP + entry.name, entry);
    await this.db.flushed;
  }

  async remove(space: string, name: string): Promise<void> {
    await this.db.remove(space + SEP + name);
    await this.db.flushed;
  }

  /** Forgets every namespace of a space (the index, backup or collection is gone). */
  async dropSpace(space: string): Promise<void> {
    const keys = [...this.db.getKeys({ start: space + SEP, end: space + "\u0001" })];
    if (keys.length === 0) return;
    await this.db.transaction(() => {
      for (const key of keys) this.db.removeSync(key);
    });
    await this.db.flushed;
  }

  /** Declares in `to` every namespace declared in `from` (backups and restores keep empty namespaces too). */
  async copySpace(from: string, to: string): Promise<void> {
    const entries = this.list(from);
    await this.dropSpace(to);
    if (entries.length === 0) return;
    await this.db.transaction(() => {
      for (const entry of entries) this.db.putSync(to + SEP + entry.name, entry);
    });
    await this.db.flushed;
  }
}
