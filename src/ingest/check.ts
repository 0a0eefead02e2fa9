// Pre-flight checks of records against an index, the same rules the service enforces. Nothing is written when one
// fails, so every problem is reported (in order), each naming position, id, field and the rule in words.
import type { IndexModel } from "../api/records.js";

/**
 * A record to write. Dense or sparse values given as base64 arrive decoded as a Float32Array (compact-records.ts), and
 * messages then name them valuesBase64; a base64 string that could not be decoded is in `refused` instead.
 */
export interface UpsertRecord {
  id: string;
  values?: number[] | Float32Array;
  sparseValues?: { indices: number[]; values: number[] | Float32Array };
  metadata?: Record<string, unknown>;
  /** Fields whose base64 could not be decoded: reported as they are, and the field counts as given. */
  refused?: { field: string; rule: string }[];
}
export interface RecordProblem {
  position: number; // 0-based
  id: string;
  field: string;
  rule: string;
}

/**
 * Dense values that the import's check pass scanned without reading them (sources/record-line.ts): only their count
 * is known, and that each is a JSON number that fits a 32-bit float. The checker takes them in place of the list.
 */
export class ScannedValues {
  constructor(readonly length: number) {}
}

export const MAX_ID_LENGTH = 512;
const MAX_SPARSE_VALUES = 2048;
const MAX_METADATA_BYTES = 40960;
const MAX_UINT32 = 4294967295;

/** Thrown where checks run inside the ingest path (e.g. a streamed record that cannot be sent). */
export class RecordCheckError extends Error {
  readonly problems: RecordProblem[];
  constructor(problems: RecordProblem[]) {
    const first = problems[0];
    super(
      first
        ? `Record at position ${first.position} (id ${JSON.stringify(first.id)}): ${first.field} ${first.rule}` +
            (problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : "")
        : "Records failed the checks",
    );
    this.name = "RecordCheckError";
    this.problems = problems;
  }
}

export function checkRecords(records: UpsertRecord[], index: IndexModel): RecordProblem[] {
  const checker = createRecordChecker(index);
  const problems: RecordProblem[] = [];
  for (let i = 0; i < records.length; i++) {
    const found = checker.check(records[i], i);
    for (const p of found) problems.push(p);
  }
  return problems;
}

/** A streaming form of checkRecords (one record at a time, duplicates remembered across calls). */
export function createRecordChecker(
  index: IndexModel,
  options: { duplicates?: boolean } = {},
): { check(record: UpsertRecord, position: number): RecordProblem[] } {
  const seen = options.duplicates === false ? undefined : new Map<string, number>();
  return {
    check(record, position) {
      const problems: RecordProblem[] = [];
      checkOne(record, position, index, seen, problems);
      return problems;
    },
  };
}

function checkOne(
  record: unknown,
  position: number,
  index: IndexModel,
  seen: Map<string, number> | undefined,
  problems: RecordProblem[],
): void {
  const r = record as Partial<UpsertRecord> | null;
  const rawId = r && typeof r === "object" ? r.id : undefined;
  const id = typeof rawId === "string" ? rawId : String(rawId ?? "");
  const add = (field: string, rule: string) => problems.push({ position, id, field, rule });
  if (!r || typeof r !== "object" || Array.isArray(r)) {
    add("record", "is not an object with an id");
    return;
  }

  // id
  if (typeof rawId !== "string") add("id", "is missing or not a string");
  else if (rawId.length === 0) add("id", "is empty; ids are 1–512 characters");
  else if (rawId.length > MAX_ID_LENGTH && [...rawId].length > MAX_ID_LENGTH) {
    add("id", `is ${[...rawId].length} characters long; ids are at most ${MAX_ID_LENGTH} characters`);
  } else if (rawId.includes("\u0000")) add("id", "contains a NUL character, which ids may not contain");
  if (typeof rawId === "string" && seen) {
    const first = seen.get(rawId);
    if (first !== undefined) add("id", `is a duplicate of position ${first}; each id may appear once per call`);
    else seen.set(rawId, position);
  }

  const refused = Array.isArray(r.refused) ? r.refused : [];
  for (const p of refused) add(p.field, p.rule);
  const isRefused = (field: string) => refused.some((p) => p.field === field);

  // dense values
  const sparseIndex = index.vector_type === "sparse";
  const dim = index.dimension ?? undefined;
  const values = r.values as number[] | Float32Array | ScannedValues | undefined | null;
  const hasDense = values !== undefined && values !== null;
  const base64 = values instanceof Float32Array;
  const denseField = base64 ? "valuesBase64" : "values";
  const count = (n: number) => (base64 ? `decodes to ${n} float32 values (${n * 4} bytes)` : `has ${n} values`);
  if (hasDense && !Array.isArray(values) && !base64 && !(values instanceof ScannedValues)) add("values", "is not a list of numbers");
  else if (hasDense) {
    if (sparseIndex && values.length > 0) {
      add(denseField, `${count(values.length)} but index '${index.name}' is sparse; give only sparseValues`);
    } else if (!sparseIndex && dim !== undefined && values.length !== dim) {
      add(denseField, `${count(values.length)} but index '${index.name}' has dimension ${dim}${base64 ? ` (${dim * 4} bytes)` : ""}`);
    }
    if (Array.isArray(values)) checkNumbers(values, "values", add);
    else if (base64) checkFloat32s(values, denseField, add);
  } else if (!sparseIndex && !isRefused("valuesBase64")) {
    add("values", `is missing; index '${index.name}' is dense and needs ${dim ?? "its dimension's"} values per record`);
  }

  // sparse values
  const sv = r.sparseValues;
  if (sv !== undefined && sv !== null) {
    if (typeof sv !== "object" || !Array.isArray(sv.indices) || !(Array.isArray(sv.values) || sv.values instanceof Float32Array)) {
      if (!isRefused("sparseValues.valuesBase64")) add("sparseValues", "must be an object with the lists indices and values");
    } else {
      const { indices, values: sparse } = sv;
      if (indices.length !== sparse.length) {
        const given = sparse instanceof Float32Array ? `valuesBase64 decodes to ${sparse.length} values` : `${sparse.length} values`;
        add("sparseValues", `has ${indices.length} indices but ${given}; they must be the same length`);
      }
      if (indices.length > MAX_SPARSE_VALUES) {
        add("sparseValues", `has ${indices.length} non-zero values; at most ${MAX_SPARSE_VALUES} are allowed`);
      }
      if (sparseIndex && indices.length === 0) add("sparseValues", "is empty; a sparse index needs at least one value");
      if (indices.length > 0 && index.metric !== "dotproduct") {
        add("sparseValues", `are given but index '${index.name}' uses the ${index.metric} metric; sparse values need the dotproduct metric`);
      }
      const used = new Set<number>();
      for (let i = 0; i < indices.length; i++) {
        const n = indices[i];
        if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > MAX_UINT32) {
          add(`sparseValues.indices[${i}]`, `is ${describe(n)}; indices must be whole numbers from 0 to ${MAX_UINT32}`);
          break;
        }
        if (used.has(n)) {
          add(`sparseValues.indices[${i}]`, `repeats index ${n}; each index may appear once`);
          break;
        }
        used.add(n);
      }
      if (sparse instanceof Float32Array) checkFloat32s(sparse, "sparseValues.valuesBase64", add);
      else checkNumbers(sparse, "sparseValues.values", add);
    }
  } else if (sparseIndex) {
    add("sparseValues", `is missing; index '${index.name}' is sparse and needs sparseValues {indices, values}`);
  }

  // metadata
  for (const p of metadataProblems(r.metadata)) add(p.field, p.rule);
}

/** The service's rules for one record's metadata (flat, no nulls, ≤ 40 KB); also used for text records' fields. */
export function metadataProblems(md: unknown): { field: string; rule: string }[] {
  const problems: { field: string; rule: string }[] = [];
  const add = (field: string, rule: string) => problems.push({ field, rule });
  if (md !== undefined && md !== null) {
    if (typeof md !== "object" || Array.isArray(md)) add("metadata", "must be an object of field names to values");
    else {
      for (const [key, v] of Object.entries(md)) {
        const field = `metadata.${key}`;
        if (v === null) add(field, "is null; leave the field out instead");
        else if (typeof v === "number") {
          if (!Number.isFinite(v)) add(field, `is ${v}; numbers must be finite`);
        } else if (typeof v === "string" || typeof v === "boolean") {
          // fine
        } else if (Array.isArray(v)) {
          if (!v.every((item) => typeof item === "string")) add(field, "is a list with non-string items; lists may hold only strings");
        } else {
          add(field, `is ${describe(v)}; values must be a string, number, boolean or list of strings (no nested objects)`);
        }
      }
      const bytes = Buffer.byteLength(JSON.stringify(md) ?? "", "utf8");
      if (bytes > MAX_METADATA_BYTES) {
        add("metadata", `is ${bytes} bytes as JSON; at most ${MAX_METADATA_BYTES} bytes per record are allowed`);
      }
    }
  }
  return problems;
}

function checkNumbers(list: unknown[], field: string, add: (field: string, rule: string) => void): void {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      add(`${field}[${i}]`, `is ${describe(v)}; every value must be a finite number`);
      return; // one per list: a model fixes the cause, not 1536 symptoms
    }
    // Outside the range means rounding to ±Infinity: 3.4028235e38 (how the largest float32 is usually written) is in.
    if (!Number.isFinite(Math.fround(v))) {
      add(`${field}[${i}]`, `is ${v}, outside the 32-bit float range (±3.4e38)`);
      return;
    }
  }
}

/** Decoded float32 values can only be NaN or infinite besides finite: the same message as for numbers. */
function checkFloat32s(list: Float32Array, field: string, add: (field: string, rule: string) => void): void {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (v - v !== 0) {
      add(`${field}[${i}]`, `is ${v}; every value must be a finite number`);
      return;
    }
  }
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return String(v);
}
