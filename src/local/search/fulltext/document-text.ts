// The full-text fields of one namespace's documents in memory: one FieldText per string field the index's schema
// marks full_text_search, fed each document's value of the field (a document without it, or with a non-string, is not
// in that field's postings). A NamespaceVectors keeps it in step with its records (SlotIndexer).
import type { FullTextOptions } from "./analyzer.js";
import { FieldText } from "./field-text.js";
import type { SlotIndexer } from "../../memory/vectors.js";

export class DocumentText implements SlotIndexer {
  readonly fields = new Map<string, FieldText>();

  constructor(schema: ReadonlyMap<string, FullTextOptions>) {
    for (const [name, options] of schema) this.fields.set(name, new FieldText(options));
  }

  add(slot: number, metadata: Record<string, unknown>): void {
    for (const [name, field] of this.fields) {
      const value = Object.hasOwn(metadata, name) ? metadata[name] : undefined;
      if (typeof value === "string") field.add(slot, value);
    }
  }

  remove(slot: number, metadata: Record<string, unknown>): void {
    for (const [name, field] of this.fields) {
      const value = Object.hasOwn(metadata, name) ? metadata[name] : undefined;
      if (typeof value === "string") field.remove(slot, value);
    }
  }

  /** Bytes of the postings (typed arrays) of every field. */
  get byteLength(): number {
    let bytes = 0;
    for (const field of this.fields.values()) bytes += field.postings.byteLength;
    return bytes;
  }
}
