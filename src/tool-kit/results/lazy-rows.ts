// The rows of a result, each made when it is first read. A heavy answer (a query of topK 1000 with the values of a
// 768-d index) has far more records than a result's token budget lets through: converting every value of every record
// up front (float32Values) took most of a second of the one event loop all sessions share, for rows nobody reads.
// fitRows reads the rows in order only until the budget is full, so only those are made.

/** Rows 0 … length-1, row i made by `make(i)` once, on first read. */
export class LazyRows<T> {
  private readonly made: (T | undefined)[];
  constructor(
    readonly length: number,
    private readonly make: (i: number) => T,
  ) {
    this.made = new Array<T | undefined>(length);
  }

  at(i: number): T {
    let row = this.made[i];
    if (row === undefined) this.made[i] = row = this.make(i);
    return row;
  }

  /** Rows from … to-1 (to: the end by default), as an array. */
  slice(from: number, to = this.length): T[] {
    const out: T[] = [];
    for (let i = from; i < Math.min(to, this.length); i++) out.push(this.at(i));
    return out;
  }
}
