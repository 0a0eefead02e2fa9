// A JSONL file of text records for an index that embeds text: one upsert_records record a line (_id or id, the
// index's text field, other fields), checked as upsert_records checks a call, then written through the records path
// (the index's model embeds each text). Held in memory, so at most MAX_TEXT_RECORDS records a call: a longer file
// is imported in parts, each call naming the startAt of the next.
import type { FileCheck } from "./file-check-result.js";
import type { OpenedFile } from "../common/safe-open.js";
import { PositionMap } from "./sources/positions.js";
import { lineText, readLines } from "./sources/lines.js";
import { checkTextRecords, type TextRecord } from "./text-records.js";

export const MAX_TEXT_RECORDS = 100_000;
const MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface TextFile {
  records: TextRecord[];
  positions: PositionMap;
  check: FileCheck;
  /** The line after the last one read, when the file holds more records than one call takes. */
  nextStartAt?: number;
}

export async function readTextFile(file: OpenedFile, field: string, o: { startAt: number; maxShown: number; signal: AbortSignal }): Promise<TextFile> {
  const records: TextRecord[] = [];
  const positions = new PositionMap();
  const lineBad: FileCheck["shown"] = [];
  let nextStartAt: number | undefined;
  for await (const line of readLines(file, { startAt: o.startAt, maxLineBytes: MAX_LINE_BYTES })) {
    o.signal.throwIfAborted();
    const text = lineText(line);
    if (text !== undefined && text.trim() === "") continue;
    if (records.length + lineBad.length >= MAX_TEXT_RECORDS) {
      nextStartAt = line.number;
      break;
    }
    let parsed: unknown;
    try {
      parsed = text === undefined ? undefined : JSON.parse(text);
    } catch {
      lineBad.push({ position: line.number, problem: "is not valid JSON" });
      continue;
    }
    if (text === undefined) lineBad.push({ position: line.number, problem: `is longer than the ${MAX_LINE_BYTES}-byte limit for one record` });
    else if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) lineBad.push({ position: line.number, problem: "is not a JSON object (one record a line)" });
    else {
      records.push(parsed as TextRecord);
      positions.add(line.number);
    }
  }
  const problems = checkTextRecords(records, field);
  const byRecord = new Map<number, string[]>();
  for (const p of problems) byRecord.set(p.position, [...(byRecord.get(p.position) ?? []), `${p.field} ${p.rule}`]);
  const idOf = (r: TextRecord) => (typeof (r._id ?? r.id) === "string" && (r._id ?? r.id) !== "" ? { id: String(r._id ?? r.id) } : {});
  const recordBad = [...byRecord].map(([i, rules]) => ({ position: positions.positionOf(i), ...idOf(records[i]), problem: rules.join("; ") }));
  const bad = [...lineBad, ...recordBad].sort((a, b) => a.position - b.position);
  // Duplicates are named by position in the call; in a file, by line.
  for (const b of bad) b.problem = b.problem.replace(/a duplicate of position (\d+); each id may appear once per call/, (_, i: string) => `a duplicate of line ${positions.positionOf(Number(i))}; each id may appear once per file`);
  return {
    records,
    positions,
    check: { records: records.length + lineBad.length, bad: bad.length, shown: bad.slice(0, o.maxShown), rescanned: false },
    ...(nextStartAt !== undefined ? { nextStartAt } : {}),
  };
}
