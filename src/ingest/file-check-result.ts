// What the first pass of an import found: its own file, so that the pass and its parallel workers share it
// without importing each other.

export interface BadRecord {
  position: number; // 1-based line (JSONL) or row (Parquet)
  id?: string;
  problem: string;
}

export interface FileCheck {
  records: number; // records read from startAt on (blank lines are not records)
  bad: number; // records with at least one problem
  shown: BadRecord[]; // the first `maxShown` of them, in file order
  rescanned: boolean; // a second scan settled possible duplicates exactly
}
