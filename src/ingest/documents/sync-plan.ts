// What a run must do to make the index hold exactly the documents' current chunks: per file, which chunks are new,
// changed or unchanged against what the index holds (index-view.ts); at the end, which ids no file accounts for.
import type { DocumentRecord } from "./document-records.js";
import { otherChunkId, otherChunks, type IndexView } from "./index-view.js";

export interface FilePlan {
  add: DocumentRecord[];
  change: DocumentRecord[];
  unchanged: number;
}

/** @param existing contentHash of each chunk of the file the index holds, by id (undefined: no hash stored) */
export function filePlan(wanted: readonly DocumentRecord[], existing: ReadonlyMap<string, string | undefined>): FilePlan {
  const plan: FilePlan = { add: [], change: [], unchanged: 0 };
  for (const record of wanted) {
    if (!existing.has(record.id)) plan.add.push(record);
    else if (existing.get(record.id) !== record.metadata.contentHash) plan.change.push(record);
    else plan.unchanged++;
  }
  return plan;
}

/**
 * Ids to delete: chunks past the end of a file that is shorter now, first chunks of the earlier id layout, and every
 * chunk of a file that is gone. A file that still exists but was not read (excluded, skipped) keeps its chunks.
 * A file's first chunk goes after its other chunks, so a run that stops while pruning leaves it to be found again.
 *
 * @param counts chunk counts of the files in step after this run (read, or unchanged by size and time), by id prefix
 * @param present whether a file (by id prefix) was found under the run's scopes, or lies in a folder not entered
 */
export function prunePlan(view: IndexView, counts: ReadonlyMap<string, number>, present: (prefix: string) => boolean): string[] {
  const others: string[] = [];
  const firsts: string[] = [];
  for (const prefix of new Set([...view.firsts.keys(), ...(view.others?.keys() ?? [])])) {
    const count = counts.get(prefix);
    if (count === undefined && present(prefix)) continue;
    const keep = count ?? 0;
    for (const chunk of otherChunks(view, prefix)) if (chunk === 1 || chunk > keep) others.push(otherChunkId(prefix, chunk));
    const first = view.firsts.get(prefix);
    if (first && keep === 0) firsts.push(first.id);
  }
  return [...others, ...firsts];
}
