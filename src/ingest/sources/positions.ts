import type { SourceItem, SourceRecord } from "./types.js";

/**
 * Maps the 0-based index of a record in the stream handed to runUpsert back to its 1-based line or row number,
 * so landed ranges and the resume point can be told in the file's own terms. Stores one entry per gap (blank or
 * skipped line), not one per record, so it stays small for any file.
 */
export class PositionMap {
  private readonly starts: number[] = []; // stream index where a run of consecutive positions starts
  private readonly positions: number[] = []; // the position of that index
  private count = 0;
  private last = Number.NaN;

  /** Records the position of the next record; returns its stream index. */
  add(position: number): number {
    if (position !== this.last + 1) {
      this.starts.push(this.count);
      this.positions.push(position);
    }
    this.last = position;
    return this.count++;
  }

  get size(): number {
    return this.count;
  }

  positionOf(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) throw new RangeError(`no record at stream index ${index}`);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.positions[lo] + (index - this.starts[lo]);
  }

  /** Stream ranges [start, end) → inclusive position ranges, merged when only blank lines lie between. */
  toPositionRanges(ranges: { start: number; end: number }[]): { first: number; last: number }[] {
    const out: { first: number; last: number }[] = [];
    for (const r of ranges) {
      if (r.end <= r.start) continue;
      const first = this.positionOf(r.start);
      const last = this.positionOf(r.end - 1);
      const prev = out[out.length - 1];
      if (prev && r.start > 0 && this.positionOf(r.start - 1) === prev.last && prev.last < first) prev.last = last;
      else out.push({ first, last });
    }
    return out;
  }

  /** Where a resume starts (`start_at`) when the stream stopped at index `resumeAt`; undefined when all landed. */
  resumePosition(resumeAt: number): number | undefined {
    return resumeAt < this.count ? this.positionOf(resumeAt) : undefined;
  }
}

/**
 * The records of a source as runUpsert takes them, noting each one's position in `map`. An item with an error
 * ends the stream by throwing (the first pass should have refused such a file before anything was sent).
 */
export async function* recordsWithPositions(items: AsyncIterable<SourceItem>, map: PositionMap): AsyncGenerator<SourceRecord> {
  for await (const item of items) {
    if (item.record === undefined) throw new Error(`line or row ${item.position}: ${item.error ?? "no record"}`);
    map.add(item.position);
    yield item.record;
  }
}
