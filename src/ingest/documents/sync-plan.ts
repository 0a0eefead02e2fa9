// What a run must do to make the index hold exactly the documents' current chunks: compare the records the files
// give now with what the index holds under the same id prefixes (learnt by listing and fetching, not from a local
// cache that could drift).
import type { DocumentRecord } from "./document-records.js";

export interface SyncPlan {
  add: DocumentRecord[];
  change: DocumentRecord[];
  unchanged: number;
  /** Ids to delete: chunks past a file's new end, and the chunks of files that are gone. */
  prune: string[];
}

/**
 * @param wanted the records of every file read in this run
 * @param existing contentHash of each record the index holds under this run's prefixes (undefined: no hash stored)
 * @param gone whether an existing id belongs to a chunk that no longer exists (its file was read and is shorter, or
 *   the file is no longer there); ids of files that still exist but were not read (excluded, skipped) are kept
 */
export function syncPlan(
  wanted: readonly DocumentRecord[],
  existing: ReadonlyMap<string, string | undefined>,
  gone: (id: string) => boolean,
  prune: boolean,
): SyncPlan {
  const plan: SyncPlan = { add: [], change: [], unchanged: 0, prune: [] };
  const wantedIds = new Set<string>();
  for (const record of wanted) {
    wantedIds.add(record.id);
    if (!existing.has(record.id)) plan.add.push(record);
    else if (existing.get(record.id) !== record.metadata.contentHash) plan.change.push(record);
    else plan.unchanged++;
  }
  if (prune) for (const id of existing.keys()) if (!wantedIds.has(id) && gone(id)) plan.prune.push(id);
  return plan;
}
