// The upload pass of a JSONL import: lines → request bodies. A plain dense record line is transcoded straight from
// its bytes (transcodeRecordLine); any other line is read into a record (jsonlItem) and written by the planner, as
// upsert_vectors' records are. Both land in the same BatchPlanner, so batching and limits are one and the same.
import { BatchPlanner, type PlannedBatch } from "./batches.js";
import { RecordCheckError } from "./check.js";
import { jsonlItem } from "./sources/jsonl.js";
import { type Descriptor, type Line, readLines } from "./sources/lines.js";
import type { PositionMap } from "./sources/positions.js";
import { NO_ROOM, transcodeRecordLine } from "./sources/record-line.js";

// A record's JSON must fit in one 2,000,000-byte body: past this the long way words the refusal.
const MAX_SCRATCH = 4 * 1024 * 1024;

class JsonlEncoder {
  private readonly planner: BatchPlanner;
  private scratch = Buffer.allocUnsafe(64 * 1024); // grows when a record needs more (up to MAX_SCRATCH)
  /** Records added so far (their stream positions are 0 … records − 1). */
  records = 0;

  constructor(
    namespace: string | undefined,
    private readonly maxLineBytes: number,
  ) {
    this.planner = new BatchPlanner(namespace === undefined ? {} : { namespace });
  }

  /**
   * Adds the line's record, if it holds one (blank lines do not). Returns whether it did and the batch the record
   * closed. Throws an Error naming the line when it cannot be sent (the file changed since the check pass).
   */
  add(line: Line): { record: boolean; closed?: PlannedBatch } {
    if (line.buf !== undefined) {
      let fast = transcodeRecordLine(line.buf, line.start, line.end, this.scratch);
      while (fast === NO_ROOM && this.scratch.length < MAX_SCRATCH) {
        this.scratch = Buffer.allocUnsafe(2 * this.scratch.length);
        fast = transcodeRecordLine(line.buf, line.start, line.end, this.scratch);
      }
      if (fast !== undefined && fast !== NO_ROOM) {
        return { record: true, closed: this.planner.addJson(this.scratch, fast.length, fast.id, this.records++) };
      }
    }
    const item = jsonlItem(line, this.maxLineBytes);
    if (item === undefined) return { record: false };
    if (item.record === undefined) throw new Error(`line ${line.number}: ${item.error ?? "no record"}`);
    try {
      return { record: true, closed: this.planner.add(item.record, this.records++) };
    } catch (err) {
      const problem = err instanceof RecordCheckError ? err.problems[0] : undefined;
      if (problem) throw new Error(`line ${line.number} (id ${JSON.stringify(problem.id)}): ${problem.field} ${problem.rule}`);
      throw err;
    }
  }

  /** The batch being filled, if any. */
  flush(): PlannedBatch | undefined {
    return this.planner.flush();
  }
}

/** The bodies of a JSONL file's (an open descriptor's) records from line `startAt` on, in file order; each record's line noted in `positions`. */
export async function* encodeJsonl(
  file: Descriptor,
  o: { startAt: number; namespace?: string; maxLineBytes: number; positions: PositionMap },
): AsyncGenerator<PlannedBatch> {
  const encoder = new JsonlEncoder(o.namespace, o.maxLineBytes);
  for await (const line of readLines(file, { startAt: o.startAt, maxLineBytes: o.maxLineBytes })) {
    const { record, closed } = encoder.add(line);
    if (record) o.positions.add(line.number);
    if (closed) yield closed;
  }
  const last = encoder.flush();
  if (last) yield last;
}
